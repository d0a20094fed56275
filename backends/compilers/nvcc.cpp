#include "backends/compilers/nvcc.hpp"
#include "backends/compilers/compiler_io.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string_view>

#include "backends/compilers/clang_names.hpp"
#include "backends/compilers/nvcc_locate.hpp"
#include "backends/kit/cubin_params.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/subprocess.hpp"

namespace gpurun::nvcc {

using compilers::add_source_arguments;
using compilers::read_output_file;
using compilers::std_argument;
using compilers::write_scratch_file;
namespace {

namespace fs = std::filesystem;

// Options NVRTC has and nvcc does not, which change nothing nvcc would do differently: NVRTC's
// precompiled headers, its built-in std::move/initializer_list, its "no extra headers" mode, the
// source folder it may leave off the include path, __int128 (nvcc has it), the stack limit of
// its own thread. Everything else is spelled the same by both and passes through as written.
constexpr std::string_view nvrtc_only_prefixes[] = {"--pch",
                                                    "-pch",
                                                    "--create-pch",
                                                    "--use-pch",
                                                    "--pch-dir",
                                                    "--pch-verbose",
                                                    "--pch-messages",
                                                    "--instantiate-templates-in-pch",
                                                    "--builtin-move-forward",
                                                    "--builtin-initializer-list",
                                                    "--minimal",
                                                    "-minimal",
                                                    "--no-source-include",
                                                    "-no-source-include",
                                                    "--device-int128",
                                                    "-device-int128",
                                                    "--modify-stack-limit"};

bool nvrtc_only(const std::string& option) {
  for (auto prefix : nvrtc_only_prefixes)
    if (option == prefix || (option.starts_with(prefix) && option[prefix.size()] == '='))
      return true;
  return false;
}

// The file nvcc compiles. The user's own file when the source is that file and nothing is to be
// instantiated; otherwise a file in `temp`: one that #includes the user's file by absolute path
// (so that its own #include "…" and the names in errors and line tables stay the user's) followed
// by the instantiations, or, for a source that is not on disk as it is, its text under a #line
// naming it.
fs::path input_file(const KernelSource& source, const CompileOptions& options,
                    const fs::path& temp) {
  std::error_code ec;
  const bool on_disk = !source.path.empty() && read_output_file(source.path) == source.text;
  const fs::path absolute = on_disk ? fs::absolute(source.path, ec) : fs::path();
  if (on_disk && !ec && options.name_expressions.empty())
    return absolute;
  const std::string shown = source.path.empty() ? std::string("kernel.cu") : source.path.string();
  std::string text = on_disk && !ec
                         ? fmt::format("#include {}\n", c_string_literal(absolute.string()))
                         : fmt::format("#line 1 {}\n{}\n", c_string_literal(shown), source.text);
  text += clang_cuda::instantiation_code(options.name_expressions);
  const fs::path name = source.path.empty() ? fs::path("kernel.cu") : source.path.filename();
  const fs::path input = temp / name;
  write_scratch_file(input, text, "nvcc");
  return input;
}

std::vector<std::string> entry_names(const CompileResult& result, const std::string& text) {
  if (result.binary_format == "ptx")
    return clang_cuda::ptx_entry_names(text);
  std::vector<std::string> names;
  try {
    for (const auto& [name, params] : kit::cubin_params(result.binary))
      names.push_back(name);
  } catch (const kit::CubinError&) {
    // Not readable: no names, and the caller says which expression it could not find.
  }
  return names;
}

} // namespace

const compilers::Availability& probe() {
  return installation().availability;
}

std::vector<std::string> command_line(const KernelSource& source, const CompileOptions& options,
                                      const std::string& target) {
  const bool cubin = target.starts_with("sm_");
  std::vector<std::string> args = {installation().availability.location, cubin ? "-cubin" : "--ptx",
                                   "-arch=" + target};
  args.push_back(std_argument(options)); // C++17 whatever the host compiler's default
  if (options.line_info)
    args.emplace_back("-lineinfo");
  add_source_arguments(args, source, options);
  for (const auto& extra : options.extra)
    if (!nvrtc_only(extra))
      args.push_back(extra);
  return args;
}

CompileResult compile(const KernelSource& source, const CompileOptions& options,
                      const std::string& target) {
  const auto& inst = installation();
  if (!inst.availability.available)
    throw unavailable_error("cannot compile CUDA source with nvcc: " + inst.availability.reason);
  if (!arch::parse_cuda_arch(target))
    throw usage_error(fmt::format(
        "--arch '{}': expected compute_XX (PTX) or sm_XX (cubin), e.g. compute_90 or sm_90",
        target));
  if (source.language != Language::cuda)
    throw usage_error("nvcc compiles CUDA (.cu) sources; compile .hip with --compiler nvrtc or "
                      "clang");

  std::optional<proc::TempDir> made;
  try {
    made.emplace("gpurun-nvcc-");
  } catch (const std::exception& e) {
    throw unavailable_error(
        fmt::format("cannot compile with nvcc: no temporary folder ({})", e.what()));
  }
  const fs::path& temp = made->path();
  const bool cubin = target.starts_with("sm_");
  const fs::path output = temp / (cubin ? "kernel.cubin" : "kernel.ptx");
  const fs::path input = input_file(source, options, temp);

  auto args = command_line(source, options, target);
  for (const auto& a : {std::string("-o"), output.string(), input.string()})
    args.push_back(a);
  const auto done = proc::run(args);
  if (!done.started)
    throw unavailable_error(fmt::format("cannot run nvcc: {}", done.error));

  CompileResult result;
  result.compiler_version = "nvcc " + inst.availability.version;
  result.log = done.output;
  // Paths into the temporary folder mean nothing once it is gone.
  replace_all(result.log, temp.string() + "/", "");
  if (done.exit_code != 0) {
    if (result.log.empty())
      result.log = fmt::format("nvcc failed ({})", done.signal != 0
                                                       ? fmt::format("signal {}", done.signal)
                                                       : fmt::format("exit {}", done.exit_code));
    return result;
  }

  const std::string text = read_output_file(output);
  const auto* bytes = reinterpret_cast<const std::byte*>(text.data());
  result.binary.assign(bytes, bytes + text.size());
  result.binary_format = cubin ? "cubin" : "ptx";
  result.target = target;
  if (!options.name_expressions.empty()) {
    const auto entries = entry_names(result, text);
    const std::string shown = source.path.empty() ? std::string("kernel.cu") : source.path.string();
    for (const auto& expression : options.name_expressions) {
      // An extern "C" kernel is its own entry; a C++ one is found by demangling.
      const auto lowered = std::find(entries.begin(), entries.end(), expression) != entries.end()
                               ? std::optional<std::string>(expression)
                               : clang_cuda::find_lowered_name(expression, entries);
      if (!lowered) {
        result.log += fmt::format("{}: error: no kernel entry for '{}' among {}\n", shown,
                                  expression, fmt::join(entries, ", "));
        result.binary.clear();
        return result;
      }
      result.lowered_names[expression] = *lowered;
    }
  }
  result.ok = true;
  return result;
}

} // namespace gpurun::nvcc
