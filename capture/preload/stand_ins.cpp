// The stand-ins for module loading, allocation and launches: each passes its call on to libcuda
// unchanged and records what the call made (program_state) or captures the launch
// (launch_capture).
#include "capture/preload/stand_ins.hpp"

#include <mutex>

#include "capture/preload/launch_capture.hpp"
#include "capture/preload/program_state.hpp"
#include "capture/preload/real_driver.hpp"

using namespace gpurun::capture;
using namespace gpurun::capture::cu;
using namespace gpurun::capture::preload;

extern "C" {

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
  GPURUN_REAL(cuModuleLoadData_fn, "cuModuleLoadData");
  const CUresult r = real_fn(module, image);
  if (r == k_success)
    remember_image(*module, copy_image(image));
  return r;
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int n,
                            CUjit_option* options, void** values) {
  GPURUN_REAL(gpurun::cuda::cuModuleLoadDataEx_fn, "cuModuleLoadDataEx");
  const CUresult r = real_fn(module, image, n, options, values);
  if (r == k_success)
    remember_image(*module, copy_image(image));
  return r;
}

CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatbin) {
  GPURUN_REAL(cuModuleLoadFatBinary_fn, "cuModuleLoadFatBinary");
  const CUresult r = real_fn(module, fatbin);
  if (r == k_success)
    remember_image(*module, copy_image(fatbin));
  return r;
}

CUresult cuModuleLoad(CUmodule* module, const char* path) {
  GPURUN_REAL(cuModuleLoad_fn, "cuModuleLoad");
  const CUresult r = real_fn(module, path);
  if (r == k_success)
    remember_image(*module, read_image_file(path));
  return r;
}

CUresult cuModuleGetFunction(CUfunction* f, CUmodule module, const char* name) {
  GPURUN_REAL(gpurun::cuda::cuModuleGetFunction_fn, "cuModuleGetFunction");
  const CUresult r = real_fn(f, module, name);
  if (r == k_success)
    remember_kernel(*f, module, name, false);
  return r;
}

CUresult cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                           void** jit_values, unsigned int n_jit, CUlibraryOption* options,
                           void** values, unsigned int n) {
  GPURUN_REAL(cuLibraryLoadData_fn, "cuLibraryLoadData");
  const CUresult r = real_fn(library, code, jit_options, jit_values, n_jit, options, values, n);
  if (r == k_success)
    remember_image(*library, copy_image(code));
  return r;
}

CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option* jit_options,
                               void** jit_values, unsigned int n_jit, CUlibraryOption* options,
                               void** values, unsigned int n) {
  GPURUN_REAL(cuLibraryLoadFromFile_fn, "cuLibraryLoadFromFile");
  const CUresult r = real_fn(library, path, jit_options, jit_values, n_jit, options, values, n);
  if (r == k_success)
    remember_image(*library, read_image_file(path));
  return r;
}

CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  GPURUN_REAL(cuLibraryGetKernel_fn, "cuLibraryGetKernel");
  const CUresult r = real_fn(kernel, library, name);
  if (r == k_success)
    remember_kernel(*kernel, library, name, true);
  return r;
}

CUresult cuKernelGetFunction(CUfunction* f, CUkernel kernel) {
  GPURUN_REAL(cuKernelGetFunction_fn, "cuKernelGetFunction");
  const CUresult r = real_fn(f, kernel);
  if (r == k_success) {
    std::lock_guard lock(state().mutex);
    if (const auto it = state().kernels.find(kernel); it != state().kernels.end()) {
      KernelInfo info = it->second;
      info.library_kernel = false;
      state().kernels[*f] = info;
    }
  }
  return r;
}

CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t size) {
  GPURUN_REAL(gpurun::cuda::cuMemAlloc_fn, "cuMemAlloc_v2");
  const CUresult r = real_fn(p, size);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::device);
  return r;
}

CUresult cuMemAllocPitch_v2(CUdeviceptr* p, std::size_t* pitch, std::size_t width,
                            std::size_t height, unsigned int element) {
  GPURUN_REAL(cuMemAllocPitch_fn, "cuMemAllocPitch_v2");
  const CUresult r = real_fn(p, pitch, width, height, element);
  if (r == k_success)
    remember_allocation(*p, *pitch * height, MemoryKind::device);
  return r;
}

CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t size, unsigned int flags) {
  GPURUN_REAL(cuMemAllocManaged_fn, "cuMemAllocManaged");
  const CUresult r = real_fn(p, size, flags);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::managed);
  return r;
}

CUresult cuMemAllocAsync(CUdeviceptr* p, std::size_t size, CUstream stream) {
  GPURUN_REAL(cuMemAllocAsync_fn, "cuMemAllocAsync");
  const CUresult r = real_fn(p, size, stream);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::pool);
  return r;
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr* p, std::size_t size, CUmemoryPool pool,
                                 CUstream stream) {
  GPURUN_REAL(cuMemAllocFromPoolAsync_fn, "cuMemAllocFromPoolAsync");
  const CUresult r = real_fn(p, size, pool, stream);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::pool);
  return r;
}

CUresult cuMemFree_v2(CUdeviceptr p) {
  GPURUN_REAL(gpurun::cuda::cuMemFree_fn, "cuMemFree_v2");
  forget_allocation(p);
  return real_fn(p);
}

CUresult cuMemFreeAsync(CUdeviceptr p, CUstream stream) {
  GPURUN_REAL(cuMemFreeAsync_fn, "cuMemFreeAsync");
  forget_allocation(p);
  return real_fn(p, stream);
}

CUresult cuMemMap(CUdeviceptr p, std::size_t size, std::size_t offset,
                  CUmemGenericAllocationHandle handle, unsigned long long flags) {
  GPURUN_REAL(cuMemMap_fn, "cuMemMap");
  const CUresult r = real_fn(p, size, offset, handle, flags);
  if (r == k_success)
    remember_allocation(p, size, MemoryKind::mapped);
  return r;
}

CUresult cuMemUnmap(CUdeviceptr p, std::size_t size) {
  GPURUN_REAL(cuMemUnmap_fn, "cuMemUnmap");
  forget_allocation(p);
  return real_fn(p, size);
}

#define GPURUN_LAUNCH_KERNEL(export_name, symbol)                                                  \
  CUresult export_name(CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz,            \
                       unsigned int bx, unsigned int by, unsigned int bz, unsigned int shared,     \
                       CUstream stream, void** params, void** extra) {                             \
    GPURUN_REAL(gpurun::cuda::cuLaunchKernel_fn, symbol);                                          \
    const Launch l{f, {gx, gy, gz}, {bx, by, bz}, shared, stream, params, extra};                  \
    return launch(                                                                                 \
        l, [&] { return real_fn(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra); });     \
  }
GPURUN_LAUNCH_KERNEL(cuLaunchKernel, "cuLaunchKernel")
GPURUN_LAUNCH_KERNEL(cuLaunchKernel_ptsz, "cuLaunchKernel_ptsz")

#define GPURUN_LAUNCH_KERNEL_EX(export_name, symbol)                                               \
  CUresult export_name(const CUlaunchConfig* c, CUfunction f, void** params, void** extra) {       \
    GPURUN_REAL(cuLaunchKernelEx_fn, symbol);                                                      \
    const Launch l{f,                                                                              \
                   {c->gridDimX, c->gridDimY, c->gridDimZ},                                        \
                   {c->blockDimX, c->blockDimY, c->blockDimZ},                                     \
                   c->sharedMemBytes,                                                              \
                   c->hStream,                                                                     \
                   params,                                                                         \
                   extra};                                                                         \
    return launch(l, [&] { return real_fn(c, f, params, extra); });                                \
  }
GPURUN_LAUNCH_KERNEL_EX(cuLaunchKernelEx, "cuLaunchKernelEx")
GPURUN_LAUNCH_KERNEL_EX(cuLaunchKernelEx_ptsz, "cuLaunchKernelEx_ptsz")

} // extern "C"
