#include "backends/compilers/nvrtc.hpp"
#include "backends/compilers/compiler_io.hpp"

#include <fmt/format.h>
#include <string_view>
#include <vector>

#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/nvrtc_api.hpp"
#include "backends/compilers/rtc_program.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "base/error.hpp"

namespace gpurun::nvrtc {

using compilers::add_source_arguments;
using compilers::std_argument;
namespace {

// NVRTC for compilers::RtcProgram.
struct Nvrtc {
  using Api = nvrtc::Api;
  static constexpr nvrtcResult success = NVRTC_SUCCESS;
  static constexpr const char* name = "nvrtc";
  static std::string result_name(nvrtcResult result) { return nvrtc::result_name(result); }
};
using Program = compilers::RtcProgram<Nvrtc>;

void validate_target(const std::string& target) {
  if (!arch::parse_cuda_arch(target))
    throw usage_error(fmt::format(
        "--arch '{}': expected compute_XX (PTX) or sm_XX (cubin), e.g. compute_90 or sm_90",
        target));
}

std::vector<std::string> build_options(const KernelSource& source, const CompileOptions& options,
                                       const std::string& target) {
  std::vector<std::string> args;
  args.push_back("--gpu-architecture=" + target);
  args.push_back(std_argument(options));
  add_source_arguments(args, source, options);
  if (options.line_info)
    args.emplace_back("-lineinfo");
  args.push_back(std::string("--pre-include=") + implicit_header);
  if (source.language == Language::hip)
    args.push_back(std::string("--pre-include=") + implicit_hip_header);
  // The toolkit's own headers (cuda_fp16.h, cuda_bf16.h, cooperative_groups.h, cuda/std/…) are
  // written to compile under NVRTC; they come last so that user folders and the in-memory
  // compatibility headers win. They are the ones that belong to the NVRTC that was loaded.
  for (const auto& dir : library().include_dirs)
    args.push_back("-I" + dir);
  for (const auto& extra : options.extra) {
    // nvcc's dialect switches (a whole file's build passes them): NVRTC has no such options,
    // and nvcc (--compiler nvcc) is where they change what compiles.
    if (extra == "--expt-relaxed-constexpr" || extra == "--extended-lambda")
      continue;
    args.push_back(extra);
  }
  return args;
}

// NVRTC's log on one line: its lines joined by single spaces.
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == '\n' || c == ' ' || c == '\t';
    if (space && (out.empty() || out.back() == ' '))
      continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

std::vector<std::byte> program_output(const Api& api, const Program& program, bool cubin) {
  if (cubin)
    return program.output(api.get_cubin_size, "GetCUBINSize", api.get_cubin, "GetCUBIN");
  std::vector<std::byte> out =
      program.output(api.get_ptx_size, "GetPTXSize", api.get_ptx, "GetPTX");
  // The PTX size counts the terminating NUL; the binary is the text.
  while (!out.empty() && out.back() == std::byte{0})
    out.pop_back();
  return out;
}

} // namespace

std::vector<std::string> supported_archs() {
  const auto& lib = library();
  std::vector<std::string> out;
  if (!lib.availability.available || lib.api.get_num_supported_archs == nullptr ||
      lib.api.get_supported_archs == nullptr)
    return out;
  int count = 0;
  if (lib.api.get_num_supported_archs(&count) != NVRTC_SUCCESS || count <= 0)
    return out;
  std::vector<int> archs(static_cast<std::size_t>(count));
  if (lib.api.get_supported_archs(archs.data()) != NVRTC_SUCCESS)
    return out;
  for (int a : archs)
    out.push_back(std::to_string(a));
  return out;
}

CompileResult compile(const KernelSource& source, const CompileOptions& options,
                      const std::string& target) {
  const auto& lib = library();
  if (!lib.availability.available)
    throw unavailable_error("cannot compile CUDA source: " + lib.availability.reason);
  validate_target(target);
  const Api& api = lib.api;

  const std::string name = source.path.empty() ? std::string("kernel.cu") : source.path.string();
  compilers::RtcHeaders headers;
  for (const auto& h : compat_headers()) {
    headers.texts.push_back(h.text);
    headers.names.push_back(h.name);
  }
  Program program(api, source.text, name, std::move(headers), options.name_expressions);

  const auto args = build_options(source, options, target);
  CompileResult result;
  result.compiler_version = "nvrtc " + lib.availability.version;
  result.target = target;
  const nvrtcResult status = program.compile(args);
  result.log = program.log();
  if (status == NVRTC_ERROR_COMPILATION || status == NVRTC_ERROR_INVALID_OPTION) {
    // Both are the user's input (source or --opt/--arch); they are reported, not thrown.
    if (result.log.empty())
      result.log =
          fmt::format("nvrtc: {} (options: {})", result_name(status), fmt::join(args, " "));
    return result;
  }
  if (status != NVRTC_SUCCESS) {
    // NVRTC's log says what went wrong ("failed to open libnvrtc-builtins.so.13.0"); the
    // status alone does not.
    const auto name = result_name(status);
    const auto log = one_line(result.log);
    throw BackendError(ExitCode::device, "nvrtc", "nvrtcCompileProgram", static_cast<long>(status),
                       name,
                       log.empty() ? fmt::format("nvrtcCompileProgram failed: {}", name)
                                   : fmt::format("nvrtcCompileProgram failed: {} ({})", name, log),
                       __FILE__, __LINE__);
  }

  const bool cubin = target.starts_with("sm_");
  result.binary_format = cubin ? "cubin" : "ptx";
  result.binary = program_output(api, program, cubin);
  result.lowered_names =
      program.lowered_names(options.name_expressions, compilers::MissingLoweredName::raise);
  result.ok = true;
  return result;
}

} // namespace gpurun::nvrtc
