#include <cstdlib>
#include <type_traits>

#include <fmt/format.h>

#include "backends/compilers/hiprtc_api.hpp"
#include "backends/compilers/rocm_locate.hpp"

namespace gpurun::hiprtc {
namespace {

// Binds every entry of the table; returns the first missing symbol's name or nullptr.
const char* bind_all(void* h, Api& api) {
  // The static_assert ties each member to the entry point whose symbol it is bound to.
#define GPURUN_HIPRTC_BIND(member, fn)                                                             \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  if (!dl::bind(h, api.member, #fn))                                                               \
  return #fn
  GPURUN_HIPRTC_BIND(get_error_string, hiprtcGetErrorString);
  GPURUN_HIPRTC_BIND(version, hiprtcVersion);
  GPURUN_HIPRTC_BIND(create_program, hiprtcCreateProgram);
  GPURUN_HIPRTC_BIND(destroy_program, hiprtcDestroyProgram);
  GPURUN_HIPRTC_BIND(add_name_expression, hiprtcAddNameExpression);
  GPURUN_HIPRTC_BIND(compile_program, hiprtcCompileProgram);
  GPURUN_HIPRTC_BIND(get_program_log_size, hiprtcGetProgramLogSize);
  GPURUN_HIPRTC_BIND(get_program_log, hiprtcGetProgramLog);
  GPURUN_HIPRTC_BIND(get_code_size, hiprtcGetCodeSize);
  GPURUN_HIPRTC_BIND(get_code, hiprtcGetCode);
  GPURUN_HIPRTC_BIND(get_lowered_name, hiprtcGetLoweredName);
#undef GPURUN_HIPRTC_BIND
  return nullptr;
}

// hipRTC from one candidate list; the first library that opens and has every entry point.
Library try_candidates(const std::vector<std::string>& candidates, std::string& tried) {
  Library h;
  for (const auto& candidate : candidates) {
    const std::string one[] = {candidate};
    auto opened = dl::open_first(one);
    if (!opened.handle) {
      tried += (tried.empty() ? "" : "; ") + rocm::first_reason(opened.error);
      continue;
    }
    Api api;
    if (const char* missing = bind_all(opened.handle.get(), api)) {
      tried += fmt::format("{}{} lacks {}", tried.empty() ? "" : "; ", candidate, missing);
      continue;
    }
    // hipRTC inside libamdhip64 (ROCm 5) answers hiprtcVersion with 9.0; the runtime beside it
    // knows the HIP version it belongs to.
    int major = 0;
    int minor = 0;
    hipRuntimeGetVersion_fn runtime_version = nullptr;
    int version = 0;
    if (dl::bind(opened.handle.get(), runtime_version, "hipRuntimeGetVersion") &&
        runtime_version(&version) == hipSuccess && version > 0) {
      major = version / 10'000'000;
      minor = (version / 100'000) % 100;
    } else if (api.version(&major, &minor) != HIPRTC_SUCCESS) {
      major = minor = 0;
    }
    const std::string file = dl::file_of(opened.handle.get());
    h.handle = std::move(opened.handle);
    h.api = api;
    h.path = file.empty() ? candidate : file;
    h.version = fmt::format("{}.{}", major, minor);
    return h;
  }
  return h;
}

Library load() {
  std::string tried;
  if (const char* exact = std::getenv("GPURUN_HIPRTC_LIBRARY");
      exact != nullptr && *exact != '\0') {
    Library h = try_candidates({exact}, tried);
    if (!h.handle)
      h.error = fmt::format("hipRTC not found: $GPURUN_HIPRTC_LIBRARY: {}", tried);
    return h;
  }
  std::vector<std::string> candidates = rocm::hiprtc_candidates();
  for (const auto& name : rocm::runtime_candidates())
    candidates.push_back(name);
  Library h = try_candidates(candidates, tried);
  if (!h.handle)
    h.error = fmt::format("hipRTC not found: neither libhiprtc.so nor libamdhip64.so loads ({})",
                          rocm::first_reason(tried));
  return h;
}

} // namespace

const Library& library() {
  static const Library h = load();
  return h;
}

} // namespace gpurun::hiprtc
