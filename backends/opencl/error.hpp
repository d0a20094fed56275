#pragma once
// cl_int status codes → gpurun errors, as backends/cuda/error.hpp does for CUresult: the message
// is built only when a call fails, and the BackendError keeps the native code, the call and
// file:line.
#include "backends/opencl/api.hpp"

#include <fmt/format.h>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace gpurun::opencl {

/// "CL_OUT_OF_RESOURCES"; "cl_int -9999" for a code the standard does not name (a vendor's own).
[[nodiscard]] std::string status_name(cl_int status);

/// Throws BackendError(code, "opencl", call, status, name, "<what>: NAME").
[[noreturn]] void throw_error(cl_int status, const char* call, ExitCode code,
                              std::string_view what, const char* file, int line);

} // namespace gpurun::opencl

/// Checks an OpenCL call; on failure throws BackendError(device) "<call_name> failed: NAME".
#define GPURUN_CL_CHECK(call_name, expr)                                                           \
  do {                                                                                             \
    const cl_int gpurun_cl_status_ = (expr);                                                       \
    if (gpurun_cl_status_ != CL_SUCCESS)                                                           \
      ::gpurun::opencl::throw_error(gpurun_cl_status_, call_name, ::gpurun::ExitCode::device,      \
                                    std::string(call_name) + " failed", __FILE__, __LINE__);       \
  } while (0)

/// Like GPURUN_CL_CHECK with an exit code and a fmt message (formatted only on failure).
#define GPURUN_CL_CHECK_MSG(call_name, expr, code, ...)                                            \
  do {                                                                                             \
    const cl_int gpurun_cl_status_ = (expr);                                                       \
    if (gpurun_cl_status_ != CL_SUCCESS)                                                           \
      ::gpurun::opencl::throw_error(gpurun_cl_status_, call_name, code, fmt::format(__VA_ARGS__),  \
                                    __FILE__, __LINE__);                                           \
  } while (0)
