#include "backends/hip/hiprtc.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <regex>

#include <fmt/format.h>

#include "backends/hip/api.hpp"
#include "backends/hip/comgr.hpp"
#include "backends/kit/amdgpu_code_object.hpp"
#include "base/error.hpp"

namespace gpurun::hip {
namespace {

[[noreturn]] void throw_hiprtc(hiprtcResult result, const char* call, const char* file, int line) {
  const char* text = hiprtc().api.get_error_string(result);
  const std::string name = text != nullptr ? text : fmt::format("hiprtcResult {}", int(result));
  throw BackendError(ExitCode::device, "hiprtc", call, static_cast<long>(result), name,
                     fmt::format("{} failed: {}", call, name), file, line);
}

#define GPURUN_HIPRTC_CHECK(call_name, expr)                                                       \
  do {                                                                                             \
    const hiprtcResult gpurun_hiprtc_result_ = (expr);                                             \
    if (gpurun_hiprtc_result_ != HIPRTC_SUCCESS)                                                   \
      throw_hiprtc(gpurun_hiprtc_result_, call_name, __FILE__, __LINE__);                          \
  } while (0)

struct ProgramDeleter {
  void operator()(_hiprtcProgram* program) const noexcept {
    if (program != nullptr)
      (void)hiprtc().api.destroy_program(&program);
  }
};
using Program = std::unique_ptr<_hiprtcProgram, ProgramDeleter>;

std::vector<std::string> build_options(const KernelSource& source, const CompileOptions& options,
                                       const std::string& target) {
  std::vector<std::string> args;
  args.push_back("--offload-arch=" + target);
  // NVRTC's default, so that a kernel means the same C++ on every backend (hipRTC's own is
  // C++14).
  if (options.std_version.empty())
    args.emplace_back("-std=c++17");
  else
    args.push_back(options.std_version.starts_with("-std=") ? options.std_version
                                                            : "-std=" + options.std_version);
  for (const auto& d : options.defines)
    args.push_back("-D" + d);
  for (const auto& dir : options.include_dirs)
    args.push_back("-I" + dir);
  if (!source.path.empty()) {
    const auto folder = source.path.parent_path();
    args.push_back("-I" + (folder.empty() ? std::string(".") : folder.string()));
  }
  for (const auto& extra : options.extra)
    args.push_back(extra);
  return args;
}

std::string program_log(hiprtcProgram program) {
  const auto& api = hiprtc().api;
  std::size_t size = 0;
  if (api.get_program_log_size(program, &size) != HIPRTC_SUCCESS || size <= 1)
    return {};
  std::string log(size, '\0');
  if (api.get_program_log(program, log.data()) != HIPRTC_SUCCESS)
    return {};
  log.resize(std::strlen(log.c_str()));
  return log;
}

// A target this comgr does not list: hipRTC 5.2 would crash on it, later ones fail. Either way
// the user hears which targets can be compiled here.
std::optional<std::string> unknown_target(const std::string& target) {
  const auto& known = comgr_targets();
  if (!known || known->processors.empty())
    return std::nullopt;
  const std::string processor = kit::amdgpu_processor(target);
  if (std::find(known->processors.begin(), known->processors.end(), processor) !=
      known->processors.end())
    return std::nullopt;
  return fmt::format("hipRTC {} cannot compile for {}: its code object manager ({}, comgr {}) "
                     "knows {}",
                     hiprtc().version, processor, known->library, known->version,
                     fmt::join(known->processors, " "));
}

} // namespace

HiprtcInfo hiprtc_info() {
  const auto& h = hiprtc();
  if (!h.error.empty())
    return {false, {}, {}, h.error};
  return {true, h.version, h.path, {}};
}

void validate_target(const std::string& target) {
  const std::string processor = kit::amdgpu_processor(target);
  const bool gfx = processor.size() > 3 && processor.starts_with("gfx") &&
                   std::all_of(processor.begin() + 3, processor.end(),
                               [](unsigned char c) { return std::isxdigit(c) != 0; });
  if (!gfx || target.find("--") != std::string::npos)
    throw usage_error(fmt::format(
        "--arch '{}': expected an AMD GPU target such as gfx90a, gfx942 or gfx1100 (feature "
        "flags allowed: gfx90a:xnack-)",
        target));
}

// hipRTC hands the source to comgr in a temporary folder, under a name of its own (ROCm 5.2:
// "/tmp/comgr-1c1858/input/CompileSource:3:10: error: …") or under the program's name below that
// folder (ROCm 5.7: "/tmp/comgr-b67d4a/input/tmp/bad.hip:3:10"); the log should name the user's
// file as given.
std::string with_source_name(const std::string& log, const std::string& name) {
  std::string relative = name;
  while (relative.starts_with('/'))
    relative.erase(0, 1);
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  const std::regex comgr_input(R"([^\s:'"]*comgr-[^/\s]*/input/(CompileSource|)" +
                               std::regex_replace(relative, special, R"(\$&)") + ")");
  return std::regex_replace(log, comgr_input, name);
}

CompileResult compile(const KernelSource& source, const CompileOptions& options,
                      const std::string& target) {
  const auto& lib = hiprtc();
  if (!lib.error.empty())
    throw unavailable_error("cannot compile HIP source for an AMD GPU: " + lib.error);
  if (source.language != Language::hip)
    throw usage_error(
        fmt::format("{}: the hip backend compiles HIP (.hip) sources only",
                    source.path.empty() ? std::string("the kernel") : source.path.string()));
  validate_target(target);
  const auto& api = lib.api;

  CompileResult result;
  result.compiler_version = "hiprtc " + lib.version;
  result.target = target;
  if (auto why = unknown_target(target)) {
    result.log = *why + "\n";
    return result;
  }

  const std::string name = source.path.empty() ? std::string("kernel.hip") : source.path.string();
  // hipRTC builds the HIP runtime and half-precision declarations in, but a kernel written for
  // hipcc includes their headers, which a machine with the runtime alone does not have: those
  // includes are given empty files.
  std::vector<const char*> built_in = {"hip/hip_runtime.h", "hip/hip_runtime_api.h",
                                       "hip/hip_fp16.h"};
  std::vector<const char*> contents(built_in.size(), "// built into hipRTC\n");
  hiprtcProgram raw = nullptr;
  GPURUN_HIPRTC_CHECK("hiprtcCreateProgram",
                      api.create_program(&raw, source.text.c_str(), name.c_str(),
                                         static_cast<int>(built_in.size()), contents.data(),
                                         built_in.data()));
  Program program(raw);
  for (const auto& expression : options.name_expressions)
    GPURUN_HIPRTC_CHECK("hiprtcAddNameExpression",
                        api.add_name_expression(raw, expression.c_str()));

  const auto args = build_options(source, options, target);
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());
  const hiprtcResult status = api.compile_program(raw, static_cast<int>(argv.size()), argv.data());
  result.log = with_source_name(program_log(raw), name);
  if (status == HIPRTC_ERROR_COMPILATION || status == HIPRTC_ERROR_INVALID_OPTION) {
    if (result.log.empty())
      result.log = fmt::format("hiprtc: {} (options: {})\n", api.get_error_string(status),
                               fmt::join(args, " "));
    return result;
  }
  if (status != HIPRTC_SUCCESS)
    throw_hiprtc(status, "hiprtcCompileProgram", __FILE__, __LINE__);

  std::size_t size = 0;
  GPURUN_HIPRTC_CHECK("hiprtcGetCodeSize", api.get_code_size(raw, &size));
  result.binary.resize(size);
  GPURUN_HIPRTC_CHECK("hiprtcGetCode",
                      api.get_code(raw, reinterpret_cast<char*>(result.binary.data())));
  result.binary_format = "hsaco";
  for (const auto& expression : options.name_expressions) {
    const char* lowered = nullptr;
    if (api.get_lowered_name(raw, expression.c_str(), &lowered) == HIPRTC_SUCCESS &&
        lowered != nullptr)
      result.lowered_names[expression] = lowered;
  }
  result.ok = true;
  return result;
}

kit::AmdgpuCodeObject read_code_object(const CompileResult& compiled) {
  try {
    return kit::read_amdgpu_code_object(compiled.binary);
  } catch (const kit::CodeObjectError& e) {
    throw Error(ExitCode::compile, fmt::format("the code object for {} cannot be read: {}",
                                               compiled.target, e.what()));
  }
}

} // namespace gpurun::hip
