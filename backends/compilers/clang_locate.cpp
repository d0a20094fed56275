#include "backends/compilers/clang_locate.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <regex>

#include "backends/compilers/probe_memo.hpp"
#include "base/subprocess.hpp"

namespace gpurun::clang_cuda {
namespace {

constexpr const char* libclc_file = "nvptx64--nvidiacl.bc";
constexpr int newest_probed_major = 22;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

bool is_file(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec);
}

// Runs `clang --version`; the version or why it is not a usable clang.
struct Checked {
  bool usable = false;
  std::string version;
  int major = 0;
  std::string problem;
};

/// `program --version`, kept in the cache by the program's real file (probe_memo): starting clang
/// takes about 0.1 s, which every run of a compiled kernel would otherwise pay.
std::string version_output(const std::filesystem::path& program, std::string& error) {
  std::error_code ec;
  const auto real = std::filesystem::canonical(program, ec);
  const auto memo =
      ec ? std::filesystem::path() : probe_memo::path_for("clang", probe_memo::file_identity(real));
  if (!memo.empty())
    if (auto kept = probe_memo::read(memo); kept && parse_clang_version(*kept))
      return *kept;
  const std::string argv[] = {program.string(), "--version"};
  const auto done = proc::run(argv);
  if (!done.started || done.exit_code != 0) {
    error = done.error.empty() ? " failed" : " failed: " + done.error;
    return {};
  }
  if (!memo.empty() && parse_clang_version(done.output))
    probe_memo::keep(memo, done.output);
  return done.output;
}

Checked check(const std::filesystem::path& program) {
  Checked c;
  const std::string path = program.string();
  std::string error;
  const std::string output = version_output(program, error);
  if (!error.empty()) {
    c.problem = fmt::format("{} --version{}", path, error);
    return c;
  }
  const auto version = parse_clang_version(output);
  if (!version) {
    c.problem = fmt::format("{} does not say it is clang ('{}')", path,
                            output.substr(0, output.find('\n')));
    return c;
  }
  c.version = *version;
  c.major = std::atoi(version->c_str());
  if (c.major < minimum_major) {
    c.problem = fmt::format("{} is clang {}, older than the clang {} gpurun needs", path, c.version,
                            minimum_major);
    return c;
  }
  c.usable = true;
  return c;
}

void find_libclc(Installation& found, const std::string& override_path) {
  std::vector<std::string> candidates;
  if (!override_path.empty())
    candidates.push_back(override_path);
  else
    candidates = libclc_candidates(found.availability.location, found.major);
  for (const auto& c : candidates)
    if (is_file(c)) {
      found.libclc = c;
      return;
    }
  found.libclc_reason =
      override_path.empty()
          ? fmt::format("libclc's {} not found (tried {}; Debian: apt install libclc-{})",
                        libclc_file, fmt::join(candidates, ", "), found.major)
          : fmt::format("GPURUN_LIBCLC={}: no such file", override_path);
}

} // namespace

std::optional<std::string> parse_clang_version(const std::string& version_output) {
  static const std::regex pattern(R"(clang version (\d+)\.(\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_search(version_output, m, pattern))
    return std::nullopt;
  return fmt::format("{}.{}.{}", m[1].str(), m[2].str(), m[3].str());
}

std::vector<std::string> libclc_candidates(const std::string& clang_path, int major) {
  std::vector<std::string> out;
  auto add = [&](const std::filesystem::path& folder) {
    const auto p = (folder / libclc_file).lexically_normal().string();
    for (const auto& seen : out)
      if (seen == p)
        return;
    out.push_back(p);
  };
  // The bitcode must not be newer than the clang reading it: prefer the one of the same LLVM.
  std::error_code ec;
  const auto real = std::filesystem::canonical(clang_path, ec);
  if (!ec && real.has_parent_path() && real.parent_path().has_parent_path()) {
    const auto prefix = real.parent_path().parent_path();
    add(prefix / "lib" / "clc");
    add(prefix / "share" / "clc");
  }
  add(fmt::format("/usr/lib/llvm-{}/lib/clc", major));
  add("/usr/lib/clc");
  add("/usr/share/clc");
  add("/usr/local/lib/clc");
  return out;
}

Installation probe_installation(const std::string& clang_override,
                                const std::string& libclc_override) {
  Installation found;
  std::vector<std::string> names;
  if (!clang_override.empty()) {
    names.push_back(clang_override);
  } else {
    names.emplace_back("clang");
    for (int v = newest_probed_major; v >= minimum_major; --v)
      names.push_back(fmt::format("clang-{}", v));
  }
  std::vector<std::string> problems;
  for (const auto& name : names) {
    const auto program = proc::find_program(name);
    if (!program)
      continue;
    const auto c = check(*program);
    if (!c.usable) {
      problems.push_back(c.problem);
      continue;
    }
    found.availability.available = true;
    found.availability.version = c.version;
    found.availability.location = program->string();
    found.major = c.major;
    find_libclc(found, libclc_override);
    return found;
  }
  if (!clang_override.empty())
    found.availability.reason =
        problems.empty() ? fmt::format("GPURUN_CLANG={}: no such program", clang_override)
                         : fmt::format("GPURUN_CLANG: {}", problems.front());
  else if (problems.empty())
    found.availability.reason = fmt::format(
        "clang not found (tried clang, clang-{} … clang-{} on PATH; Debian: apt install clang "
        "libclc-{})",
        newest_probed_major, minimum_major, minimum_major);
  else
    found.availability.reason = fmt::format("no usable clang: {}", fmt::join(problems, "; "));
  return found;
}

const Installation& installation() {
  static const Installation found = probe_installation(env("GPURUN_CLANG"), env("GPURUN_LIBCLC"));
  return found;
}

} // namespace gpurun::clang_cuda
