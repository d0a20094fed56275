#include "backends/compilers/nvrtc.hpp"
#include "backends/compilers/compiler_io.hpp"

#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <string_view>
#include <vector>

#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/nvrtc_api.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "base/error.hpp"

namespace gpurun::nvrtc {

using compilers::add_source_arguments;
using compilers::std_argument;
namespace {

[[noreturn]] void throw_nvrtc(nvrtcResult result, const char* call, const char* file, int line) {
  const auto name = result_name(result);
  throw BackendError(ExitCode::device, "nvrtc", call, static_cast<long>(result), name,
                     fmt::format("{} failed: {}", call, name), file, line);
}

#define GPURUN_NVRTC_CHECK(call_name, expr)                                                        \
  do {                                                                                             \
    const nvrtcResult gpurun_nvrtc_result_ = (expr);                                               \
    if (gpurun_nvrtc_result_ != NVRTC_SUCCESS)                                                     \
      throw_nvrtc(gpurun_nvrtc_result_, call_name, __FILE__, __LINE__);                            \
  } while (0)

struct ProgramDeleter {
  void operator()(_nvrtcProgram* program) const noexcept {
    if (program != nullptr)
      library().api.destroy_program(&program);
  }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

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

std::string program_log(const Api& api, nvrtcProgram program) {
  std::size_t size = 0;
  if (api.get_program_log_size(program, &size) != NVRTC_SUCCESS || size <= 1)
    return {};
  std::string log(size, '\0');
  if (api.get_program_log(program, log.data()) != NVRTC_SUCCESS)
    return {};
  log.resize(std::strlen(log.c_str()));
  return log;
}

std::vector<std::byte> program_output(const Api& api, nvrtcProgram program, bool cubin) {
  std::size_t size = 0;
  if (cubin)
    GPURUN_NVRTC_CHECK("nvrtcGetCUBINSize", api.get_cubin_size(program, &size));
  else
    GPURUN_NVRTC_CHECK("nvrtcGetPTXSize", api.get_ptx_size(program, &size));
  std::vector<std::byte> out(size);
  char* data = reinterpret_cast<char*>(out.data());
  if (cubin) {
    GPURUN_NVRTC_CHECK("nvrtcGetCUBIN", api.get_cubin(program, data));
  } else {
    GPURUN_NVRTC_CHECK("nvrtcGetPTX", api.get_ptx(program, data));
    // The PTX size counts the terminating NUL; the binary is the text.
    while (!out.empty() && out.back() == std::byte{0})
      out.pop_back();
  }
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
  const auto headers = compat_headers();
  std::vector<const char*> header_texts;
  std::vector<const char*> header_names;
  for (const auto& h : headers) {
    header_texts.push_back(h.text);
    header_names.push_back(h.name);
  }

  nvrtcProgram raw = nullptr;
  GPURUN_NVRTC_CHECK("nvrtcCreateProgram",
                     api.create_program(&raw, source.text.c_str(), name.c_str(),
                                        static_cast<int>(headers.size()), header_texts.data(),
                                        header_names.data()));
  Program program(raw);
  for (const auto& expression : options.name_expressions)
    GPURUN_NVRTC_CHECK("nvrtcAddNameExpression", api.add_name_expression(raw, expression.c_str()));

  const auto args = build_options(source, options, target);
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());

  CompileResult result;
  result.compiler_version = "nvrtc " + lib.availability.version;
  result.target = target;
  const nvrtcResult status = api.compile_program(raw, static_cast<int>(argv.size()), argv.data());
  result.log = program_log(api, raw);
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
  result.binary = program_output(api, raw, cubin);
  for (const auto& expression : options.name_expressions) {
    const char* lowered = nullptr;
    GPURUN_NVRTC_CHECK("nvrtcGetLoweredName",
                       api.get_lowered_name(raw, expression.c_str(), &lowered));
    if (lowered != nullptr)
      result.lowered_names[expression] = lowered;
  }
  result.ok = true;
  return result;
}

} // namespace gpurun::nvrtc
