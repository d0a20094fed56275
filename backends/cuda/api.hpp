#pragma once
// The CUDA driver API table, filled by dlsym from libcuda.so.1 (then libcuda.so). Types come from
// the toolkit's cuda.h; symbol names are the versioned ones the header maps to (cuMemAlloc →
// cuMemAlloc_v2), so the table calls exactly what a program linked against libcuda would.
#include <cuda.h>

#include <string>

#include "backends/kit/dynamic_library.hpp"

namespace gpurun::cuda {

struct DriverApi {
  decltype(&::cuGetErrorName) get_error_name = nullptr;
  decltype(&::cuGetErrorString) get_error_string = nullptr;
  decltype(&::cuInit) init = nullptr;
  decltype(&::cuDriverGetVersion) driver_get_version = nullptr;
  decltype(&::cuDeviceGetCount) device_get_count = nullptr;
  decltype(&::cuDeviceGet) device_get = nullptr;
  decltype(&::cuDeviceGetName) device_get_name = nullptr;
  decltype(&::cuDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::cuDeviceTotalMem) device_total_mem = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) primary_ctx_release = nullptr;
  decltype(&::cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&::cuStreamCreate) stream_create = nullptr;
  decltype(&::cuStreamDestroy) stream_destroy = nullptr;
  decltype(&::cuStreamQuery) stream_query = nullptr;
  decltype(&::cuStreamSynchronize) stream_synchronize = nullptr;
  decltype(&::cuMemAlloc) mem_alloc = nullptr;
  decltype(&::cuMemFree) mem_free = nullptr;
  decltype(&::cuMemcpyHtoDAsync) memcpy_htod_async = nullptr;
  decltype(&::cuMemcpyDtoHAsync) memcpy_dtoh_async = nullptr;
  decltype(&::cuMemcpyDtoDAsync) memcpy_dtod_async = nullptr;
  decltype(&::cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&::cuModuleUnload) module_unload = nullptr;
  decltype(&::cuModuleGetFunction) module_get_function = nullptr;
  decltype(&::cuModuleGetGlobal) module_get_global = nullptr;
  decltype(&::cuFuncGetAttribute) func_get_attribute = nullptr;
  decltype(&::cuFuncSetAttribute) func_set_attribute = nullptr;
  decltype(&::cuLaunchKernel) launch_kernel = nullptr;
  decltype(&::cuEventCreate) event_create = nullptr;
  decltype(&::cuEventDestroy) event_destroy = nullptr;
  decltype(&::cuEventRecord) event_record = nullptr;
  decltype(&::cuEventSynchronize) event_synchronize = nullptr;
  decltype(&::cuEventElapsedTime) event_elapsed_time = nullptr;
  // Optional (driver 12.4+): listing a module's kernels and a kernel's parameter layout without
  // PTX text, which is what makes cubin-only modules introspectable. nullptr when absent.
  decltype(&::cuModuleGetFunctionCount) module_get_function_count = nullptr;
  decltype(&::cuModuleEnumerateFunctions) module_enumerate_functions = nullptr;
  decltype(&::cuFuncGetName) func_get_name = nullptr;
  decltype(&::cuFuncGetParamInfo) func_get_param_info = nullptr;
};

/// The loaded driver: `api` is complete when `error` is empty. Lives for the process; the library
/// is never unloaded while contexts could still exist.
struct Driver {
  dl::LibraryHandle handle;
  DriverApi api;
  std::string path;
  std::string error; ///< "libcuda.so.1 not found: <dlerror>", "… lacks cuFuncSetAttribute"
};

/// Opens and binds the driver on first use (thread-safe). Does not call cuInit.
[[nodiscard]] const Driver& driver();

} // namespace gpurun::cuda
