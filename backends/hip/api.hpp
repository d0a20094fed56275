#pragma once
// The HIP runtime table, filled by dlsym from libamdhip64.so.N (compilers/rocm_locate.hpp says
// where it is looked for). Types come from ROCm's own headers (libamdhip64-dev); the library is
// opened at run time, so one gpurun binary runs with or without ROCm and says what it could not
// load. hipRTC, which compiles for this backend, is with the other compilers
// (compilers/hiprtc.hpp).
#include "backends/hip/rocm_types.hpp"

#include <cstddef>
#include <string>

#include "backends/kit/dynamic_library.hpp"

namespace gpurun::hip {

/// The runtime calls gpurun makes.
struct RuntimeApi {
  decltype(&::hipGetErrorName) get_error_name = nullptr;
  decltype(&::hipGetErrorString) get_error_string = nullptr;
  decltype(&::hipInit) init = nullptr;
  decltype(&::hipRuntimeGetVersion) runtime_get_version = nullptr;
  decltype(&::hipDriverGetVersion) driver_get_version = nullptr;
  decltype(&::hipGetDeviceCount) get_device_count = nullptr;
  decltype(&::hipGetDeviceProperties) get_device_properties = nullptr;
  decltype(&::hipDeviceGetAttribute) device_get_attribute = nullptr;
  decltype(&::hipDeviceGetPCIBusId) device_get_pci_bus_id = nullptr;
  /// Optional (ROCm 5.3 and later): nullptr when the runtime lacks it.
  hipError_t (*device_set_limit)(hipLimit_t limit, std::size_t value) = nullptr;
  decltype(&::hipSetDevice) set_device = nullptr;
  decltype(&::hipStreamCreateWithFlags) stream_create_with_flags = nullptr;
  decltype(&::hipStreamDestroy) stream_destroy = nullptr;
  decltype(&::hipStreamQuery) stream_query = nullptr;
  decltype(&::hipStreamSynchronize) stream_synchronize = nullptr;
  hipError_t (*malloc)(void** ptr, std::size_t bytes) = nullptr; // a template overloads it in C++
  decltype(&::hipFree) free = nullptr;
  decltype(&::hipMemcpyAsync) memcpy_async = nullptr;
  decltype(&::hipMemsetD8Async) memset_d8_async = nullptr;
  decltype(&::hipModuleLoadData) module_load_data = nullptr;
  decltype(&::hipModuleUnload) module_unload = nullptr;
  decltype(&::hipModuleGetFunction) module_get_function = nullptr;
  decltype(&::hipModuleGetGlobal) module_get_global = nullptr;
  decltype(&::hipModuleLaunchKernel) module_launch_kernel = nullptr;
  decltype(&::hipEventCreate) event_create = nullptr;
  decltype(&::hipEventDestroy) event_destroy = nullptr;
  decltype(&::hipEventRecord) event_record = nullptr;
  decltype(&::hipEventSynchronize) event_synchronize = nullptr;
  decltype(&::hipEventElapsedTime) event_elapsed_time = nullptr;
};

/// The loaded runtime: `api` is complete when `error` is empty. Lives for the process.
struct Runtime {
  dl::LibraryHandle handle;
  RuntimeApi api;
  std::string path;  ///< the file the loader opened
  std::string error; ///< "libamdhip64.so not found (…)", "… lacks hipModuleLaunchKernel"
};

/// Opens and binds the runtime on first use (thread-safe). Does not call hipInit.
[[nodiscard]] const Runtime& runtime();

} // namespace gpurun::hip
