#include "backends/hip/api.hpp"

#include <fmt/format.h>

#include "backends/compilers/rocm_locate.hpp"

namespace gpurun::hip {
namespace {

const char* bind_runtime(void* h, RuntimeApi& api) {
#define GPURUN_HIP_BIND(member, symbol)                                                            \
  if (!dl::bind(h, api.member, #symbol))                                                           \
  return #symbol
  GPURUN_HIP_BIND(get_error_name, hipGetErrorName);
  GPURUN_HIP_BIND(get_error_string, hipGetErrorString);
  GPURUN_HIP_BIND(init, hipInit);
  GPURUN_HIP_BIND(runtime_get_version, hipRuntimeGetVersion);
  GPURUN_HIP_BIND(driver_get_version, hipDriverGetVersion);
  GPURUN_HIP_BIND(get_device_count, hipGetDeviceCount);
  // ROCm 6 renamed the call that fills the new hipDeviceProp_t (hipGetDevicePropertiesR0600) and
  // kept this name for the layout of ROCm 5's struct, which is the one these headers declare.
  GPURUN_HIP_BIND(get_device_properties, hipGetDeviceProperties);
  GPURUN_HIP_BIND(device_get_attribute, hipDeviceGetAttribute);
  GPURUN_HIP_BIND(device_get_pci_bus_id, hipDeviceGetPCIBusId);
  GPURUN_HIP_BIND(set_device, hipSetDevice);
  GPURUN_HIP_BIND(stream_create_with_flags, hipStreamCreateWithFlags);
  GPURUN_HIP_BIND(stream_destroy, hipStreamDestroy);
  GPURUN_HIP_BIND(stream_query, hipStreamQuery);
  GPURUN_HIP_BIND(stream_synchronize, hipStreamSynchronize);
  GPURUN_HIP_BIND(malloc, hipMalloc);
  GPURUN_HIP_BIND(free, hipFree);
  GPURUN_HIP_BIND(memcpy_async, hipMemcpyAsync);
  GPURUN_HIP_BIND(memset_d8_async, hipMemsetD8Async);
  GPURUN_HIP_BIND(module_load_data, hipModuleLoadData);
  GPURUN_HIP_BIND(module_unload, hipModuleUnload);
  GPURUN_HIP_BIND(module_get_function, hipModuleGetFunction);
  GPURUN_HIP_BIND(module_get_global, hipModuleGetGlobal);
  GPURUN_HIP_BIND(module_launch_kernel, hipModuleLaunchKernel);
  GPURUN_HIP_BIND(event_create, hipEventCreate);
  GPURUN_HIP_BIND(event_destroy, hipEventDestroy);
  GPURUN_HIP_BIND(event_record, hipEventRecord);
  GPURUN_HIP_BIND(event_synchronize, hipEventSynchronize);
  GPURUN_HIP_BIND(event_elapsed_time, hipEventElapsedTime);
  (void)dl::bind(h, api.device_set_limit, "hipDeviceSetLimit");
#undef GPURUN_HIP_BIND
  return nullptr;
}

Runtime load_runtime() {
  Runtime r;
  const auto candidates = rocm::runtime_candidates();
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    if (candidates.size() == 1)
      r.error =
          fmt::format("{} not found: {}", candidates.front(), rocm::first_reason(opened.error));
    else
      r.error = fmt::format("libamdhip64 not found (libamdhip64.so.7, .6, .5 or libamdhip64.so, by "
                            "soname, in $ROCM_PATH/lib and /opt/rocm/lib): {}",
                            rocm::first_reason(opened.error));
    return r;
  }
  const std::string file = dl::file_of(opened.handle.get());
  const std::string where = file.empty() ? opened.path : file;
  if (const char* missing = bind_runtime(opened.handle.get(), r.api)) {
    r.error = fmt::format("{} lacks {}: not a HIP runtime gpurun can use", where, missing);
    r.api = RuntimeApi{};
    return r;
  }
  r.handle = std::move(opened.handle);
  r.path = where;
  return r;
}

} // namespace

const Runtime& runtime() {
  static const Runtime r = load_runtime();
  return r;
}

} // namespace gpurun::hip
