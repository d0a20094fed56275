#pragma once
// CUresult → gpurun errors. The check macro builds its message only when a call fails and records
// the call and file:line in the BackendError.
#include "backends/cuda/driver_types.hpp"

#include <fmt/format.h>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace gpurun::cuda {

/// "CUDA_ERROR_ILLEGAL_ADDRESS" from the driver; "CUresult 700" when the driver cannot say.
[[nodiscard]] std::string result_name(CUresult result);

/// "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)".
[[nodiscard]] std::string describe(CUresult result);

/// "<what>: <describe(result)>", the text every CUDA BackendError carries.
[[nodiscard]] std::string format_error(std::string_view what, std::string_view name,
                                       std::string_view description);

/// Throws BackendError(code, "cuda", call, result, name, "<what>: NAME (description)").
[[noreturn]] void throw_error(CUresult result, const char* call, ExitCode code,
                              std::string_view what, const char* file, int line);

} // namespace gpurun::cuda

/// Checks a driver call; on failure throws BackendError(device) "<call_name> failed: NAME (…)".
#define GPURUN_CU_CHECK(call_name, expr)                                                           \
  do {                                                                                             \
    const ::gpurun::cuda::CUresult gpurun_cu_result_ = (expr);                                     \
    if (gpurun_cu_result_ != ::gpurun::cuda::CUDA_SUCCESS)                                         \
      ::gpurun::cuda::throw_error(gpurun_cu_result_, call_name, ::gpurun::ExitCode::device,        \
                                  std::string(call_name) + " failed", __FILE__, __LINE__);         \
  } while (0)

/// Like GPURUN_CU_CHECK with an exit code and a fmt message (formatted only on failure).
#define GPURUN_CU_CHECK_MSG(call_name, expr, code, ...)                                            \
  do {                                                                                             \
    const ::gpurun::cuda::CUresult gpurun_cu_result_ = (expr);                                     \
    if (gpurun_cu_result_ != ::gpurun::cuda::CUDA_SUCCESS)                                         \
      ::gpurun::cuda::throw_error(gpurun_cu_result_, call_name, code, fmt::format(__VA_ARGS__),    \
                                  __FILE__, __LINE__);                                             \
  } while (0)
