#include "backends/compilers/hiprtc.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include <fmt/format.h>

#include "backends/compilers/comgr.hpp"
#include "backends/compilers/compiler_io.hpp"
#include "backends/compilers/hiprtc_api.hpp"
#include "backends/compilers/rtc_program.hpp"
#include "backends/kit/amdgpu_code_object.hpp"
#include "base/error.hpp"

namespace gpurun::hiprtc {
namespace {

std::string result_name(hiprtcResult result) {
  const char* text = library().api.get_error_string(result);
  return text != nullptr ? text : fmt::format("hiprtcResult {}", int(result));
}

// hipRTC for compilers::RtcProgram.
struct Hiprtc {
  using Api = hiprtc::Api;
  static constexpr hiprtcResult success = HIPRTC_SUCCESS;
  static constexpr const char* name = "hiprtc";
  static std::string result_name(hiprtcResult result) { return hiprtc::result_name(result); }
};
using Program = compilers::RtcProgram<Hiprtc>;

std::vector<std::string> build_options(const KernelSource& source, const CompileOptions& options,
                                       const std::string& target) {
  std::vector<std::string> args;
  args.push_back("--offload-arch=" + target);
  // NVRTC's default, so that a kernel means the same C++ on every backend (hipRTC's own is
  // C++14).
  args.push_back(compilers::std_argument(options));
  compilers::add_source_arguments(args, source, options);
  for (const auto& extra : options.extra)
    args.push_back(extra);
  return args;
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
                     library().version, processor, known->library, known->version,
                     fmt::join(known->processors, " "));
}

} // namespace

compilers::Availability probe() {
  const auto& h = library();
  if (!h.error.empty())
    return {false, h.error, {}, {}};
  return {true, {}, h.version, h.path};
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
  const auto& lib = library();
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
  compilers::RtcHeaders built_in;
  built_in.names = {"hip/hip_runtime.h", "hip/hip_runtime_api.h", "hip/hip_fp16.h"};
  built_in.texts.assign(built_in.names.size(), "// built into hipRTC\n");
  Program program(api, source.text, name, std::move(built_in), options.name_expressions);

  const auto args = build_options(source, options, target);
  const hiprtcResult status = program.compile(args);
  result.log = with_source_name(program.log(), name);
  if (status == HIPRTC_ERROR_COMPILATION || status == HIPRTC_ERROR_INVALID_OPTION) {
    if (result.log.empty())
      result.log = fmt::format("hiprtc: {} (options: {})\n", api.get_error_string(status),
                               fmt::join(args, " "));
    return result;
  }
  Program::check(status, "CompileProgram");

  result.binary = program.output(api.get_code_size, "GetCodeSize", api.get_code, "GetCode");
  result.binary_format = "hsaco";
  result.lowered_names =
      program.lowered_names(options.name_expressions, compilers::MissingLoweredName::leave_out);
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

} // namespace gpurun::hiprtc
