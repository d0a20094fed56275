#pragma once
// The hipRTC function table, filled by dlsym. hipRTC lives inside libamdhip64 up to ROCm 5 and in
// its own libhiprtc.so.N from ROCm 6 on; both places are probed, libhiprtc first
// (rocm_locate.hpp). Types come from hiprtc_types.hpp, gpurun's own declarations of the API.
#include <string>

#include "backends/compilers/hiprtc_types.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::hiprtc {

struct Api {
  hiprtcGetErrorString_fn get_error_string = nullptr;
  hiprtcVersion_fn version = nullptr;
  hiprtcCreateProgram_fn create_program = nullptr;
  hiprtcDestroyProgram_fn destroy_program = nullptr;
  hiprtcAddNameExpression_fn add_name_expression = nullptr;
  hiprtcCompileProgram_fn compile_program = nullptr;
  hiprtcGetProgramLogSize_fn get_program_log_size = nullptr;
  hiprtcGetProgramLog_fn get_program_log = nullptr;
  hiprtcGetCodeSize_fn get_code_size = nullptr;
  hiprtcGetCode_fn get_code = nullptr;
  hiprtcGetLoweredName_fn get_lowered_name = nullptr;
};

/// The loaded hipRTC: `api` is complete when `error` is empty. Stays mapped for the process.
struct Library {
  dl::LibraryHandle handle;
  Api api;
  std::string path;
  std::string version; ///< "5.2" (hiprtcVersion's major.minor is HIP's)
  std::string error;
};

/// Opens hipRTC on first use (thread-safe): $GPURUN_HIPRTC_LIBRARY when set (the only
/// candidate), else libhiprtc.so.7/.6/.so, then the runtime libraries (ROCm 5 keeps hipRTC inside
/// libamdhip64).
[[nodiscard]] const Library& library();

} // namespace gpurun::hiprtc
