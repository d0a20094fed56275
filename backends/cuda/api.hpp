#pragma once
// The CUDA driver API table, filled by dlsym from libcuda.so.1 (then libcuda.so). Types and
// symbol names come from driver_types.hpp: the versioned symbols cuda.h maps to (cuMemAlloc →
// cuMemAlloc_v2), so the table calls exactly what a program linked against libcuda would.
#include <string>

#include "backends/cuda/driver_types.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::cuda {

struct DriverApi {
  cuGetErrorName_fn get_error_name = nullptr;
  cuGetErrorString_fn get_error_string = nullptr;
  cuInit_fn init = nullptr;
  cuDriverGetVersion_fn driver_get_version = nullptr;
  cuDeviceGetCount_fn device_get_count = nullptr;
  cuDeviceGet_fn device_get = nullptr;
  cuDeviceGetName_fn device_get_name = nullptr;
  cuDeviceGetPCIBusId_fn device_get_pci_bus_id = nullptr;
  cuDeviceGetAttribute_fn device_get_attribute = nullptr;
  cuDeviceTotalMem_fn device_total_mem = nullptr;
  cuDevicePrimaryCtxRetain_fn primary_ctx_retain = nullptr;
  cuDevicePrimaryCtxRelease_fn primary_ctx_release = nullptr;
  cuCtxSetCurrent_fn ctx_set_current = nullptr;
  cuCtxSetLimit_fn ctx_set_limit = nullptr;
  cuStreamCreate_fn stream_create = nullptr;
  cuStreamDestroy_fn stream_destroy = nullptr;
  cuStreamQuery_fn stream_query = nullptr;
  cuStreamSynchronize_fn stream_synchronize = nullptr;
  cuMemAlloc_fn mem_alloc = nullptr;
  cuMemFree_fn mem_free = nullptr;
  cuMemcpyHtoDAsync_fn memcpy_htod_async = nullptr;
  cuMemcpyDtoHAsync_fn memcpy_dtoh_async = nullptr;
  cuMemcpyDtoDAsync_fn memcpy_dtod_async = nullptr;
  cuMemsetD8Async_fn memset_d8_async = nullptr;
  cuMemHostAlloc_fn mem_host_alloc = nullptr;
  cuMemHostGetDevicePointer_fn mem_host_get_device_pointer = nullptr;
  cuMemFreeHost_fn mem_free_host = nullptr;
  cuModuleLoadDataEx_fn module_load_data_ex = nullptr;
  cuModuleUnload_fn module_unload = nullptr;
  cuModuleGetFunction_fn module_get_function = nullptr;
  cuModuleGetGlobal_fn module_get_global = nullptr;
  cuFuncGetAttribute_fn func_get_attribute = nullptr;
  cuFuncSetAttribute_fn func_set_attribute = nullptr;
  cuLaunchKernel_fn launch_kernel = nullptr;
  cuEventCreate_fn event_create = nullptr;
  cuEventDestroy_fn event_destroy = nullptr;
  cuEventRecord_fn event_record = nullptr;
  cuEventSynchronize_fn event_synchronize = nullptr;
  cuEventElapsedTime_fn event_elapsed_time = nullptr;
  // Peer access between devices (copy_to_peer, bench --p2p).
  cuDeviceCanAccessPeer_fn device_can_access_peer = nullptr;
  cuCtxEnablePeerAccess_fn ctx_enable_peer_access = nullptr;
  cuMemcpyPeerAsync_fn memcpy_peer_async = nullptr;
  // Optional (driver 12.4+): listing a module's kernels and a kernel's parameter layout without
  // PTX text, which is what makes cubin-only modules introspectable. nullptr when absent.
  cuModuleGetFunctionCount_fn module_get_function_count = nullptr;
  cuModuleEnumerateFunctions_fn module_enumerate_functions = nullptr;
  cuFuncGetName_fn func_get_name = nullptr;
  cuFuncGetParamInfo_fn func_get_param_info = nullptr;
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
