// A fake libcuda.so.1 over host memory, for the end-to-end test of `gpurun capture` where there
// is no GPU: the capture interposer passes every call on to it as it would to the real driver.
// It implements the entry points the interposer and the test program (fake_cuda_app.cpp) use,
// strictly enough that a wrong call fails: handles are checked, every kernel access must lie
// inside an allocation, and a launch needs a current context.
//
//   device        one, "gpurun fake CUDA device", compute capability 9.0
//   memory        device pointers are host addresses (aligned_alloc), never 0; managed memory
//                 likewise (driver_state.cpp)
//   modules       PTX, a cubin or a fat binary; each kernel's parameter layout is read from the
//                 image (backends/kit), which is what cuFuncGetParamInfo reports
//   kernels       run on the host as a fixed function chosen by the kernel's name (kernels.cpp,
//                 fake_module.hpp), over grid × block threads; a kernel of another name does
//                 nothing
//
// Built twice: as a 12.4 driver, and with FAKE_CUDA_WITHOUT_PARAM_INFO as a 12.3 one, which has
// no cuFuncGetParamInfo or cuKernelGetParamInfo. FAKE_CUDA_PARAM_INFO=unsupported in the
// environment makes those two fail with CUDA_ERROR_NOT_SUPPORTED.
//
// This file holds the exported entry points and cuGetProcAddress's table of them.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "driver_api.hpp"
#include "driver_state.hpp"

namespace gpurun::test::fake_cuda {
namespace {

using namespace gpurun::cuda;

#ifdef FAKE_CUDA_WITHOUT_PARAM_INFO
constexpr int driver_version = 12030;
#else
constexpr int driver_version = 12040;
#endif

#ifndef FAKE_CUDA_WITHOUT_PARAM_INFO
CUresult param_info(const Function* f, std::size_t index, std::size_t* offset, std::size_t* size) {
  if (const char* env = std::getenv("FAKE_CUDA_PARAM_INFO");
      env != nullptr && std::string_view(env) == "unsupported")
    return CUDA_ERROR_NOT_SUPPORTED;
  if (f == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  if (index >= f->slots.size() || offset == nullptr || size == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *offset = f->slots[index].offset;
  *size = f->slots[index].size;
  return CUDA_SUCCESS;
}
#endif

CUresult launch_config(const CUlaunchConfig* c, const void* f, void** params, void** extra) {
  if (c == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
  const unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
  return launch(f, grid, block, c->sharedMemBytes, params, extra);
}

/// cuGetProcAddress: the entry point `symbol` (named without its version suffix) for the ABI of
/// `cuda_version`, its per-thread-default-stream form where `flags` asks for it.
void* proc_address(std::string_view symbol, int cuda_version, std::uint64_t flags) {
  struct Entry {
    std::string_view name;
    void* function;
    void* per_thread = nullptr;
  };
  const auto fn = [](auto* f) { return reinterpret_cast<void*>(f); };
  static const Entry entries[] = {
      {"cuGetErrorName", fn(&cuGetErrorName)},
      {"cuGetErrorString", fn(&cuGetErrorString)},
      {"cuInit", fn(&cuInit)},
      {"cuDriverGetVersion", fn(&cuDriverGetVersion)},
      {"cuDeviceGetCount", fn(&cuDeviceGetCount)},
      {"cuDeviceGet", fn(&cuDeviceGet)},
      {"cuDeviceGetName", fn(&cuDeviceGetName)},
      {"cuDeviceGetAttribute", fn(&cuDeviceGetAttribute)},
      {"cuCtxCreate", fn(&cuCtxCreate_v2)},
      {"cuCtxDestroy", fn(&cuCtxDestroy_v2)},
      {"cuDevicePrimaryCtxRetain", fn(&cuDevicePrimaryCtxRetain)},
      {"cuDevicePrimaryCtxRelease", fn(&cuDevicePrimaryCtxRelease_v2)},
      {"cuCtxSetCurrent", fn(&cuCtxSetCurrent)},
      {"cuCtxGetCurrent", fn(&cuCtxGetCurrent)},
      {"cuCtxGetDevice", fn(&cuCtxGetDevice)},
      {"cuCtxSynchronize", fn(&cuCtxSynchronize)},
      {"cuModuleLoadData", fn(&cuModuleLoadData)},
      {"cuModuleLoadDataEx", fn(&cuModuleLoadDataEx)},
      {"cuModuleGetFunction", fn(&cuModuleGetFunction)},
      {"cuModuleUnload", fn(&cuModuleUnload)},
      {"cuLibraryLoadData", fn(&cuLibraryLoadData)},
      {"cuLibraryGetKernel", fn(&cuLibraryGetKernel)},
      {"cuLibraryUnload", fn(&cuLibraryUnload)},
      {"cuKernelGetFunction", fn(&cuKernelGetFunction)},
      {"cuMemAlloc", fn(&cuMemAlloc_v2)},
      {"cuMemAllocManaged", fn(&cuMemAllocManaged)},
      {"cuMemAllocAsync", fn(&cuMemAllocAsync)},
      {"cuMemFree", fn(&cuMemFree_v2)},
      {"cuMemFreeAsync", fn(&cuMemFreeAsync)},
      {"cuMemcpyHtoD", fn(&cuMemcpyHtoD_v2)},
      {"cuMemcpyDtoH", fn(&cuMemcpyDtoH_v2)},
      {"cuStreamIsCapturing", fn(&cuStreamIsCapturing)},
#ifndef FAKE_CUDA_WITHOUT_PARAM_INFO
      {"cuFuncGetParamInfo", fn(&cuFuncGetParamInfo)},
      {"cuKernelGetParamInfo", fn(&cuKernelGetParamInfo)},
#endif
      {"cuLaunchKernel", fn(&cuLaunchKernel), fn(&cuLaunchKernel_ptsz)},
      {"cuLaunchKernelEx", fn(&cuLaunchKernelEx), fn(&cuLaunchKernelEx_ptsz)},
  };
  if (symbol == "cuGetProcAddress")
    return cuda_version >= 12000 ? fn(&cuGetProcAddress_v2) : fn(&cuGetProcAddress);
  const bool per_thread = (flags & capture::cu::k_proc_per_thread_stream) != 0;
  for (const Entry& e : entries)
    if (e.name == symbol)
      return per_thread && e.per_thread != nullptr ? e.per_thread : e.function;
  return nullptr;
}

} // namespace
} // namespace gpurun::test::fake_cuda

using namespace gpurun::cuda;
using namespace gpurun::test::fake_cuda;

extern "C" {

CUresult cuGetErrorName(CUresult error, const char** text) {
  if (text == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
#define FAKE_CUDA_NAME(name, value)                                                                \
  case name:                                                                                       \
    *text = #name;                                                                                 \
    return CUDA_SUCCESS;
    GPURUN_CU_RESULTS(FAKE_CUDA_NAME)
#undef FAKE_CUDA_NAME
  }
  *text = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  return cuGetErrorName(error, text);
}

CUresult cuInit(unsigned int flags) {
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  driver().initialized = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int* version) {
  if (version == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *version = driver_version;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (count == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (!driver().initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  *count = 1;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (device == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (!driver().initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (name == nullptr || length <= 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  constexpr std::string_view model = "gpurun fake CUDA device";
  const std::size_t n = std::min<std::size_t>(model.size(), static_cast<std::size_t>(length) - 1);
  std::memcpy(name, model.data(), n);
  name[n] = '\0';
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (value == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    *value = static_cast<int>(max_threads_per_block);
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
    *value = 64;
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *value = static_cast<int>(max_shared_bytes);
    return CUDA_SUCCESS;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *value = 32;
    return CUDA_SUCCESS;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult cuCtxCreate_v2(CUcontext* context, unsigned int flags, CUdevice device) {
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (!driver().initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  driver().created.push_back(std::make_unique<Context>());
  current_context() = driver().created.back().get();
  *context = reinterpret_cast<CUcontext>(current_context());
  return CUDA_SUCCESS;
}

CUresult cuCtxDestroy_v2(CUcontext context) {
  std::lock_guard lock(driver().mutex);
  auto& created = driver().created;
  const auto it = std::find_if(created.begin(), created.end(), [&](const auto& c) {
    return reinterpret_cast<CUcontext>(c.get()) == context;
  });
  if (it == created.end())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (current_context() == it->get())
    current_context() = nullptr;
  created.erase(it);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (!driver().initialized)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (device != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *context = reinterpret_cast<CUcontext>(&driver().primary);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  return device == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuCtxSetCurrent(CUcontext context) {
  std::lock_guard lock(driver().mutex);
  auto* c = reinterpret_cast<Context*>(context);
  const bool known = c == nullptr || c == &driver().primary ||
                     std::any_of(driver().created.begin(), driver().created.end(),
                                 [&](const auto& made) { return made.get() == c; });
  if (!known)
    return CUDA_ERROR_INVALID_CONTEXT;
  current_context() = c;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
  if (context == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *context = reinterpret_cast<CUcontext>(current_context());
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice* device) {
  if (device == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  if (current_context() == nullptr)
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = current_context()->device;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  return current_context() != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  if (module == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  const void* handle = nullptr;
  const CUresult r = load(handle, image);
  if (r == CUDA_SUCCESS)
    *module = static_cast<CUmodule>(const_cast<void*>(handle));
  return r;
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int count,
                            CUjit_option* options, void** values) {
  if (count > 0 && (options == nullptr || values == nullptr))
    return CUDA_ERROR_INVALID_VALUE;
  return cuModuleLoadData(module, image);
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  if (function == nullptr || name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  const auto it = driver().modules.find(module);
  if (it == driver().modules.end())
    return CUDA_ERROR_INVALID_HANDLE;
  Function* f = function_named(*it->second, name);
  if (f == nullptr)
    return CUDA_ERROR_NOT_FOUND;
  *function = reinterpret_cast<CUfunction>(f);
  return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
  return unload(module);
}

CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                           void** jit_values, unsigned int jit_count, CUlibraryOption* options,
                           void** values, unsigned int count) {
  if (library == nullptr || (jit_count > 0 && (jit_options == nullptr || jit_values == nullptr)) ||
      (count > 0 && (options == nullptr || values == nullptr)))
    return CUDA_ERROR_INVALID_VALUE;
  const void* handle = nullptr;
  const CUresult r = load(handle, code);
  if (r == CUDA_SUCCESS)
    *library = static_cast<CUlibrary>(const_cast<void*>(handle));
  return r;
}

CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  if (kernel == nullptr || name == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  const auto it = driver().modules.find(library);
  if (it == driver().modules.end())
    return CUDA_ERROR_INVALID_HANDLE;
  Module& m = *it->second;
  Function* f = function_named(m, name);
  if (f == nullptr)
    return CUDA_ERROR_NOT_FOUND;
  auto& k = m.kernels[name];
  if (k == nullptr) {
    k = std::make_unique<LibraryKernel>(LibraryKernel{f});
    driver().kernels.insert(k.get());
  }
  *kernel = reinterpret_cast<CUkernel>(k.get());
  return CUDA_SUCCESS;
}

CUresult cuLibraryUnload(CUlibrary library) {
  return unload(library);
}

CUresult cuKernelGetFunction(CUfunction* function, CUkernel kernel) {
  if (function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (driver().kernels.count(kernel) == 0)
    return CUDA_ERROR_INVALID_HANDLE;
  *function =
      reinterpret_cast<CUfunction>(reinterpret_cast<const LibraryKernel*>(kernel)->function);
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr* pointer, std::size_t size) {
  return allocate(pointer, size, false);
}

CUresult cuMemAllocManaged(CUdeviceptr* pointer, std::size_t size, unsigned int flags) {
  return allocate(pointer, size, true);
}

CUresult cuMemAllocAsync(CUdeviceptr* pointer, std::size_t size, CUstream stream) {
  return allocate(pointer, size, false);
}

CUresult cuMemFree_v2(CUdeviceptr pointer) {
  return release(pointer);
}

CUresult cuMemFreeAsync(CUdeviceptr pointer, CUstream stream) {
  return release(pointer);
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr destination, const void* source, std::size_t size) {
  std::lock_guard lock(driver().mutex);
  if (source == nullptr || !inside_allocation(destination, size))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void*>(destination), source, size);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoH_v2(void* destination, CUdeviceptr source, std::size_t size) {
  std::lock_guard lock(driver().mutex);
  if (destination == nullptr || !inside_allocation(source, size))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(destination, reinterpret_cast<const void*>(source), size);
  return CUDA_SUCCESS;
}

CUresult cuStreamIsCapturing(CUstream stream, int* status) {
  if (status == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *status = gpurun::capture::cu::k_stream_capture_none;
  return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_WITHOUT_PARAM_INFO
CUresult cuFuncGetParamInfo(CUfunction function, std::size_t index, std::size_t* offset,
                            std::size_t* size) {
  std::lock_guard lock(driver().mutex);
  const bool known = driver().functions.count(function) != 0;
  return param_info(known ? reinterpret_cast<const Function*>(function) : nullptr, index, offset,
                    size);
}

CUresult cuKernelGetParamInfo(CUkernel kernel, std::size_t index, std::size_t* offset,
                              std::size_t* size) {
  std::lock_guard lock(driver().mutex);
  const bool known = driver().kernels.count(kernel) != 0;
  return param_info(known ? reinterpret_cast<const LibraryKernel*>(kernel)->function : nullptr,
                    index, offset, size);
}
#endif

CUresult cuLaunchKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                        unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                        unsigned int block_z, unsigned int shared_bytes, CUstream stream,
                        void** params, void** extra) {
  const unsigned grid[3] = {grid_x, grid_y, grid_z};
  const unsigned block[3] = {block_x, block_y, block_z};
  return launch(function, grid, block, shared_bytes, params, extra);
}

CUresult cuLaunchKernel_ptsz(CUfunction function, unsigned int grid_x, unsigned int grid_y,
                             unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                             unsigned int block_z, unsigned int shared_bytes, CUstream stream,
                             void** params, void** extra) {
  return cuLaunchKernel(function, grid_x, grid_y, grid_z, block_x, block_y, block_z, shared_bytes,
                        stream, params, extra);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction function, void** params,
                          void** extra) {
  return launch_config(config, function, params, extra);
}

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction function, void** params,
                               void** extra) {
  return launch_config(config, function, params, extra);
}

CUresult cuGetProcAddress_v2(const char* symbol, void** function, int cuda_version,
                             std::uint64_t flags, int* status) {
  if (symbol == nullptr || function == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  *function = proc_address(symbol, cuda_version, flags);
  if (status != nullptr)
    *status = *function != nullptr ? 0 /* CU_GET_PROC_ADDRESS_SUCCESS */
                                   : 1 /* CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND */;
  return *function != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuGetProcAddress(const char* symbol, void** function, int cuda_version,
                          std::uint64_t flags) {
  return cuGetProcAddress_v2(symbol, function, cuda_version, flags, nullptr);
}

} // extern "C"
