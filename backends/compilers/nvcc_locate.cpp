#include "backends/compilers/nvcc_locate.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <regex>

#include "base/subprocess.hpp"

namespace gpurun::nvcc {
namespace {

constexpr const char* program_name = "nvcc";

std::string join_path(const std::string& folder, const std::string& name) {
  if (folder.empty() || folder.back() == '/')
    return folder + name;
  return folder + "/" + name;
}

// Runs `nvcc --version`: the version, or why it is not a usable nvcc.
struct Checked {
  std::optional<std::string> version;
  std::string problem;
};

Checked check(const std::string& program) {
  Checked c;
  const std::string argv[] = {program, "--version"};
  const auto done = proc::run(argv);
  if (!done.started || done.exit_code != 0) {
    c.problem = fmt::format("{} --version failed{}", program,
                            done.error.empty() ? std::string() : ": " + done.error);
    return c;
  }
  c.version = parse_nvcc_version(done.output);
  if (!c.version)
    c.problem = fmt::format("{} does not say it is nvcc ('{}')", program,
                            done.output.substr(0, done.output.find('\n')));
  return c;
}

} // namespace

Search locate_nvcc(const LocateEnv& env) {
  Search search;
  if (const auto exact = env.variable("GPURUN_NVCC"); !exact.empty()) {
    search.candidates.push_back(exact);
    search.places.emplace_back("$GPURUN_NVCC");
    search.exclusive = true;
    return search;
  }
  const auto add_root = [&](const std::string& root) {
    const auto bin = join_path(root, "bin");
    const auto entries = env.list(bin);
    if (std::find(entries.begin(), entries.end(), program_name) == entries.end())
      return;
    auto path = join_path(bin, program_name);
    if (std::find(search.candidates.begin(), search.candidates.end(), path) ==
        search.candidates.end())
      search.candidates.push_back(std::move(path));
  };
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const auto root = env.variable(variable); !root.empty()) {
      add_root(root);
      search.places.push_back(fmt::format("${}/bin", variable));
    }
  for (const auto& root : nvrtc::usr_local_toolkits(env))
    add_root(root);
  search.places.emplace_back("/usr/local/cuda*/bin");
  search.candidates.emplace_back(program_name);
  search.places.emplace_back("PATH");
  return search;
}

std::optional<std::string> parse_nvcc_version(const std::string& version_output) {
  static const std::regex full(R"(release \d+\.\d+, V(\d+\.\d+\.\d+))");
  static const std::regex release(R"(Cuda compilation tools, release (\d+\.\d+))");
  std::smatch m;
  if (std::regex_search(version_output, m, full) || std::regex_search(version_output, m, release))
    return m[1].str();
  return std::nullopt;
}

Installation probe_installation(const Search& search) {
  Installation found;
  std::vector<std::string> problems;
  for (const auto& candidate : search.candidates) {
    const auto program = proc::find_program(candidate);
    if (!program)
      continue;
    const auto c = check(program->string());
    if (!c.version) {
      problems.push_back(c.problem);
      continue;
    }
    found.availability.available = true;
    found.availability.version = *c.version;
    found.availability.location = program->string();
    return found;
  }
  if (search.exclusive)
    found.availability.reason =
        problems.empty() ? fmt::format("GPURUN_NVCC={}: no such program", search.candidates.front())
                         : fmt::format("GPURUN_NVCC: {}", problems.front());
  else if (problems.empty())
    found.availability.reason = fmt::format("nvcc not found (looked in {}; GPURUN_NVCC names it)",
                                            fmt::join(search.places, ", "));
  else
    found.availability.reason = fmt::format("no usable nvcc: {}", fmt::join(problems, "; "));
  return found;
}

const Installation& installation() {
  static const Installation found = probe_installation(locate_nvcc(LocateEnv::system()));
  return found;
}

} // namespace gpurun::nvcc
