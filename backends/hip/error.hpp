#pragma once
// hipError_t → gpurun errors, as backends/cuda/error.hpp does for CUresult: the message is built
// only when a call fails, and the BackendError keeps the native code, the call and file:line.
#include "backends/hip/rocm_types.hpp"

#include <fmt/format.h>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace gpurun::hip {

/// "hipErrorIllegalAddress"; "hipError_t 700" when the runtime cannot say.
[[nodiscard]] std::string result_name(hipError_t result);

/// "hipErrorNoDevice (no ROCm-capable device is detected)".
[[nodiscard]] std::string describe(hipError_t result);

/// Throws BackendError(code, "hip", call, result, name, "<what>: NAME (description)").
[[noreturn]] void throw_error(hipError_t result, const char* call, ExitCode code,
                              std::string_view what, const char* file, int line);

} // namespace gpurun::hip

/// Checks a runtime call; on failure throws BackendError(device) "<call_name> failed: NAME (…)".
#define GPURUN_HIP_CHECK(call_name, expr)                                                          \
  do {                                                                                             \
    const hipError_t gpurun_hip_result_ = (expr);                                                  \
    if (gpurun_hip_result_ != hipSuccess)                                                          \
      ::gpurun::hip::throw_error(gpurun_hip_result_, call_name, ::gpurun::ExitCode::device,        \
                                 std::string(call_name) + " failed", __FILE__, __LINE__);          \
  } while (0)

/// Like GPURUN_HIP_CHECK with an exit code and a fmt message (formatted only on failure).
#define GPURUN_HIP_CHECK_MSG(call_name, expr, code, ...)                                           \
  do {                                                                                             \
    const hipError_t gpurun_hip_result_ = (expr);                                                  \
    if (gpurun_hip_result_ != hipSuccess)                                                          \
      ::gpurun::hip::throw_error(gpurun_hip_result_, call_name, code, fmt::format(__VA_ARGS__),    \
                                 __FILE__, __LINE__);                                              \
  } while (0)
