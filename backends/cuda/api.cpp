#include "backends/cuda/api.hpp"

#include <array>
#include <fmt/format.h>
#include <type_traits>

namespace gpurun::cuda {
namespace {

// Returns the first required symbol that is missing, or nullptr.
const char* bind_all(void* h, DriverApi& api) {
  // The static_assert ties each member to the entry point whose symbol it is bound to.
#define GPURUN_CU_BIND(member, fn)                                                                 \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  if (!dl::bind(h, api.member, fn##_symbol))                                                       \
  return fn##_symbol
  GPURUN_CU_BIND(get_error_name, cuGetErrorName);
  GPURUN_CU_BIND(get_error_string, cuGetErrorString);
  GPURUN_CU_BIND(init, cuInit);
  GPURUN_CU_BIND(driver_get_version, cuDriverGetVersion);
  GPURUN_CU_BIND(device_get_count, cuDeviceGetCount);
  GPURUN_CU_BIND(device_get, cuDeviceGet);
  GPURUN_CU_BIND(device_get_name, cuDeviceGetName);
  GPURUN_CU_BIND(device_get_pci_bus_id, cuDeviceGetPCIBusId);
  GPURUN_CU_BIND(device_get_attribute, cuDeviceGetAttribute);
  GPURUN_CU_BIND(device_total_mem, cuDeviceTotalMem);
  GPURUN_CU_BIND(primary_ctx_retain, cuDevicePrimaryCtxRetain);
  GPURUN_CU_BIND(primary_ctx_release, cuDevicePrimaryCtxRelease);
  GPURUN_CU_BIND(ctx_set_current, cuCtxSetCurrent);
  GPURUN_CU_BIND(ctx_set_limit, cuCtxSetLimit);
  GPURUN_CU_BIND(stream_create, cuStreamCreate);
  GPURUN_CU_BIND(stream_destroy, cuStreamDestroy);
  GPURUN_CU_BIND(stream_query, cuStreamQuery);
  GPURUN_CU_BIND(stream_synchronize, cuStreamSynchronize);
  GPURUN_CU_BIND(mem_alloc, cuMemAlloc);
  GPURUN_CU_BIND(mem_free, cuMemFree);
  GPURUN_CU_BIND(memcpy_htod_async, cuMemcpyHtoDAsync);
  GPURUN_CU_BIND(memcpy_dtoh_async, cuMemcpyDtoHAsync);
  GPURUN_CU_BIND(memcpy_dtod_async, cuMemcpyDtoDAsync);
  GPURUN_CU_BIND(memset_d8_async, cuMemsetD8Async);
  GPURUN_CU_BIND(mem_host_alloc, cuMemHostAlloc);
  GPURUN_CU_BIND(mem_host_get_device_pointer, cuMemHostGetDevicePointer);
  GPURUN_CU_BIND(mem_free_host, cuMemFreeHost);
  GPURUN_CU_BIND(module_load_data_ex, cuModuleLoadDataEx);
  GPURUN_CU_BIND(module_unload, cuModuleUnload);
  GPURUN_CU_BIND(module_get_function, cuModuleGetFunction);
  GPURUN_CU_BIND(module_get_global, cuModuleGetGlobal);
  GPURUN_CU_BIND(func_get_attribute, cuFuncGetAttribute);
  GPURUN_CU_BIND(func_set_attribute, cuFuncSetAttribute);
  GPURUN_CU_BIND(launch_kernel, cuLaunchKernel);
  GPURUN_CU_BIND(event_create, cuEventCreate);
  GPURUN_CU_BIND(event_destroy, cuEventDestroy);
  GPURUN_CU_BIND(event_record, cuEventRecord);
  GPURUN_CU_BIND(event_synchronize, cuEventSynchronize);
  GPURUN_CU_BIND(device_can_access_peer, cuDeviceCanAccessPeer);
  GPURUN_CU_BIND(ctx_enable_peer_access, cuCtxEnablePeerAccess);
  GPURUN_CU_BIND(memcpy_peer_async, cuMemcpyPeerAsync);
#undef GPURUN_CU_BIND
  static_assert(std::is_same_v<decltype(api.event_elapsed_time), cuEventElapsedTime_fn>);
  if (!dl::bind(h, api.event_elapsed_time, cuEventElapsedTime_symbol) &&
      !dl::bind(h, api.event_elapsed_time, cuEventElapsedTime_unversioned_symbol))
    return cuEventElapsedTime_symbol;
#define GPURUN_CU_BIND_OPTIONAL(member, fn)                                                        \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  (void)dl::bind(h, api.member, fn##_symbol)
  GPURUN_CU_BIND_OPTIONAL(module_get_function_count, cuModuleGetFunctionCount);
  GPURUN_CU_BIND_OPTIONAL(module_enumerate_functions, cuModuleEnumerateFunctions);
  GPURUN_CU_BIND_OPTIONAL(func_get_name, cuFuncGetName);
  GPURUN_CU_BIND_OPTIONAL(func_get_param_info, cuFuncGetParamInfo);
#undef GPURUN_CU_BIND_OPTIONAL
  return nullptr;
}

Driver load() {
  Driver d;
  static const std::array<std::string, 2> candidates{"libcuda.so.1", "libcuda.so"};
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    // The first attempt's dlerror is the informative one; libcuda.so is only a fallback.
    d.error =
        fmt::format("libcuda.so.1 not found: {}", opened.error.substr(0, opened.error.find(';')));
    return d;
  }
  if (const char* missing = bind_all(opened.handle.get(), d.api)) {
    d.error = fmt::format("{} lacks {}: the driver is too old", opened.path, missing);
    d.api = DriverApi{};
    return d;
  }
  d.handle = std::move(opened.handle);
  d.path = std::move(opened.path);
  return d;
}

} // namespace

const Driver& driver() {
  static const Driver d = load();
  return d;
}

} // namespace gpurun::cuda
