#pragma once
// libgpurun-capture.so: loaded into a CUDA program by LD_PRELOAD (`gpurun capture -- PROGRAM`, or
// GPURUN_CAPTURE set by whatever starts it), it stands in for the driver entry points that load
// modules, allocate memory and launch kernels, and passes every call on unchanged. It keeps a map
// of the program's allocations and of its modules' images (program_state), and at each launch the
// capture selects it synchronizes, saves every allocation a pointer in the parameter bytes points
// into, launches, synchronizes and saves them again, then writes the capture folder
// (launch_capture, capture/launch_record). A program reaches the driver three ways, and all three
// end here: by linking libcuda (these exported symbols win over libcuda's), by dlsym on libcuda
// (dlsym is exported here too: dlsym_stub.cpp) and through cuGetProcAddress (CUDA 12+'s runtime,
// PyTorch: proc_address).
//
// These are the stand-ins, under the names libcuda exports them by (exports.map lets out nothing
// else but dlsym). GPURUN_CAPTURE="out=DIR,kernel=GLOB,nth=K|all,max-bytes=N,quiet"
// (settings, docs/capture.md).
#include <cstddef>
#include <cstdint>

#include "capture/preload/driver_entry_points.hpp"

#define GPURUN_EXPORT __attribute__((visibility("default")))

extern "C" {

using gpurun::capture::cu::CUdeviceptr;
using gpurun::capture::cu::CUfunction;
using gpurun::capture::cu::CUjit_option;
using gpurun::capture::cu::CUkernel;
using gpurun::capture::cu::CUlaunchConfig;
using gpurun::capture::cu::CUlibrary;
using gpurun::capture::cu::CUlibraryOption;
using gpurun::capture::cu::CUmemGenericAllocationHandle;
using gpurun::capture::cu::CUmemoryPool;
using gpurun::capture::cu::CUmodule;
using gpurun::capture::cu::CUresult;
using gpurun::capture::cu::CUstream;

// Module and library loading (stand_ins.cpp).
GPURUN_EXPORT CUresult cuModuleLoadData(CUmodule* module, const void* image);
GPURUN_EXPORT CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int n,
                                          CUjit_option* options, void** values);
GPURUN_EXPORT CUresult cuModuleLoadFatBinary(CUmodule* module, const void* fatbin);
GPURUN_EXPORT CUresult cuModuleLoad(CUmodule* module, const char* path);
GPURUN_EXPORT CUresult cuModuleGetFunction(CUfunction* f, CUmodule module, const char* name);
GPURUN_EXPORT CUresult cuLibraryLoadData(CUlibrary* library, const void* code,
                                         CUjit_option* jit_options, void** jit_values,
                                         unsigned int n_jit, CUlibraryOption* options,
                                         void** values, unsigned int n);
GPURUN_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary* library, const char* path,
                                             CUjit_option* jit_options, void** jit_values,
                                             unsigned int n_jit, CUlibraryOption* options,
                                             void** values, unsigned int n);
GPURUN_EXPORT CUresult cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name);
GPURUN_EXPORT CUresult cuKernelGetFunction(CUfunction* f, CUkernel kernel);

// Allocation (stand_ins.cpp).
GPURUN_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t size);
GPURUN_EXPORT CUresult cuMemAllocPitch_v2(CUdeviceptr* p, std::size_t* pitch, std::size_t width,
                                          std::size_t height, unsigned int element);
GPURUN_EXPORT CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t size, unsigned int flags);
GPURUN_EXPORT CUresult cuMemAllocAsync(CUdeviceptr* p, std::size_t size, CUstream stream);
GPURUN_EXPORT CUresult cuMemAllocFromPoolAsync(CUdeviceptr* p, std::size_t size, CUmemoryPool pool,
                                               CUstream stream);
GPURUN_EXPORT CUresult cuMemFree_v2(CUdeviceptr p);
GPURUN_EXPORT CUresult cuMemFreeAsync(CUdeviceptr p, CUstream stream);
GPURUN_EXPORT CUresult cuMemMap(CUdeviceptr p, std::size_t size, std::size_t offset,
                                CUmemGenericAllocationHandle handle, unsigned long long flags);
GPURUN_EXPORT CUresult cuMemUnmap(CUdeviceptr p, std::size_t size);

// Launches (stand_ins.cpp).
GPURUN_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
                                      unsigned int gz, unsigned int bx, unsigned int by,
                                      unsigned int bz, unsigned int shared, CUstream stream,
                                      void** params, void** extra);
GPURUN_EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
                                           unsigned int gz, unsigned int bx, unsigned int by,
                                           unsigned int bz, unsigned int shared, CUstream stream,
                                           void** params, void** extra);
GPURUN_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig* c, CUfunction f, void** params,
                                        void** extra);
GPURUN_EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig* c, CUfunction f, void** params,
                                             void** extra);

// The driver's own lookup (proc_address.cpp).
GPURUN_EXPORT CUresult cuGetProcAddress(const char* symbol, void** pfn, int cuda_version,
                                        std::uint64_t flags);
GPURUN_EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cuda_version,
                                           std::uint64_t flags, int* status);

} // extern "C"
