#pragma once
// The NVRTC function table, filled by dlsym from the first libnvrtc that loads. Types come from
// the toolkit's nvrtc.h so a signature change is a compile error here, not a crash at run time.
#include <nvrtc.h>

#include <string>

#include "backends/compilers/nvrtc.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::nvrtc {

struct Api {
  decltype(&::nvrtcGetErrorString) get_error_string = nullptr;
  decltype(&::nvrtcVersion) version = nullptr;
  decltype(&::nvrtcCreateProgram) create_program = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy_program = nullptr;
  decltype(&::nvrtcCompileProgram) compile_program = nullptr;
  decltype(&::nvrtcGetPTXSize) get_ptx_size = nullptr;
  decltype(&::nvrtcGetPTX) get_ptx = nullptr;
  decltype(&::nvrtcGetCUBINSize) get_cubin_size = nullptr;
  decltype(&::nvrtcGetCUBIN) get_cubin = nullptr;
  decltype(&::nvrtcGetProgramLogSize) get_program_log_size = nullptr;
  decltype(&::nvrtcGetProgramLog) get_program_log = nullptr;
  decltype(&::nvrtcAddNameExpression) add_name_expression = nullptr;
  decltype(&::nvrtcGetLoweredName) get_lowered_name = nullptr;
  // Optional (NVRTC 11.2+): which --gpu-architecture values this NVRTC accepts.
  decltype(&::nvrtcGetNumSupportedArchs) get_num_supported_archs = nullptr;
  decltype(&::nvrtcGetSupportedArchs) get_supported_archs = nullptr;
};

/// The loaded library: stays mapped for the life of the process.
struct Library {
  dl::LibraryHandle handle;
  Api api;
  Availability availability;
  int major = 0;
  int minor = 0;
};

/// Loads NVRTC on first use (thread-safe); `availability.available` says whether `api` is usable.
/// Candidates: $GPURUN_NVRTC_LIBRARY when set, then libnvrtc.so.13, .12, .11.2, libnvrtc.so on
/// the loader path, then the same names under /usr/local/cuda/lib64 and /usr/local/cuda/lib.
[[nodiscard]] const Library& library();

/// "NVRTC_ERROR_COMPILATION" from the library (or the number when it cannot say).
[[nodiscard]] std::string result_name(nvrtcResult result);

} // namespace gpurun::nvrtc
