#pragma once
// The driver entry points the fake libcuda (fake_cuda.cpp) defines and the test program
// (fake_cuda_app.cpp) calls, under the names libcuda exports them by, with gpurun's own
// declarations of the driver's types (backends/cuda/driver_types.hpp,
// capture/preload/driver_entry_points.hpp). One declaration for both sides, so that the fake's
// definitions and the program's calls cannot disagree on a signature.
#include <cstddef>
#include <cstdint>

#include "backends/cuda/driver_types.hpp"
#include "capture/preload/driver_entry_points.hpp"

namespace gpurun::test::fake_cuda {
using capture::cu::CUkernel;
using capture::cu::CUlaunchConfig;
using capture::cu::CUlibrary;
using capture::cu::CUlibraryOption;
using cuda::CUcontext;
using cuda::CUdevice;
using cuda::CUdevice_attribute;
using cuda::CUdeviceptr;
using cuda::CUfunction;
using cuda::CUjit_option;
using cuda::CUmodule;
using cuda::CUresult;
using cuda::CUstream;
} // namespace gpurun::test::fake_cuda

#define FAKE_CUDA_API __attribute__((visibility("default")))

namespace fc = gpurun::test::fake_cuda;

extern "C" {

FAKE_CUDA_API fc::CUresult cuGetErrorName(fc::CUresult error, const char** text);
FAKE_CUDA_API fc::CUresult cuGetErrorString(fc::CUresult error, const char** text);
FAKE_CUDA_API fc::CUresult cuInit(unsigned int flags);
FAKE_CUDA_API fc::CUresult cuDriverGetVersion(int* version);
FAKE_CUDA_API fc::CUresult cuDeviceGetCount(int* count);
FAKE_CUDA_API fc::CUresult cuDeviceGet(fc::CUdevice* device, int ordinal);
FAKE_CUDA_API fc::CUresult cuDeviceGetName(char* name, int length, fc::CUdevice device);
FAKE_CUDA_API fc::CUresult cuDeviceGetAttribute(int* value, fc::CUdevice_attribute attribute,
                                                fc::CUdevice device);
FAKE_CUDA_API fc::CUresult cuCtxCreate_v2(fc::CUcontext* context, unsigned int flags,
                                          fc::CUdevice device);
FAKE_CUDA_API fc::CUresult cuCtxDestroy_v2(fc::CUcontext context);
FAKE_CUDA_API fc::CUresult cuDevicePrimaryCtxRetain(fc::CUcontext* context, fc::CUdevice device);
FAKE_CUDA_API fc::CUresult cuDevicePrimaryCtxRelease_v2(fc::CUdevice device);
FAKE_CUDA_API fc::CUresult cuCtxSetCurrent(fc::CUcontext context);
FAKE_CUDA_API fc::CUresult cuCtxGetCurrent(fc::CUcontext* context);
FAKE_CUDA_API fc::CUresult cuCtxGetDevice(fc::CUdevice* device);
FAKE_CUDA_API fc::CUresult cuCtxSynchronize();
FAKE_CUDA_API fc::CUresult cuModuleLoadData(fc::CUmodule* module, const void* image);
FAKE_CUDA_API fc::CUresult cuModuleLoadDataEx(fc::CUmodule* module, const void* image,
                                              unsigned int count, fc::CUjit_option* options,
                                              void** values);
FAKE_CUDA_API fc::CUresult cuModuleGetFunction(fc::CUfunction* function, fc::CUmodule module,
                                               const char* name);
FAKE_CUDA_API fc::CUresult cuModuleUnload(fc::CUmodule module);
FAKE_CUDA_API fc::CUresult cuLibraryLoadData(fc::CUlibrary* library, const void* code,
                                             fc::CUjit_option* jit_options, void** jit_values,
                                             unsigned int jit_count, fc::CUlibraryOption* options,
                                             void** values, unsigned int count);
FAKE_CUDA_API fc::CUresult cuLibraryGetKernel(fc::CUkernel* kernel, fc::CUlibrary library,
                                              const char* name);
FAKE_CUDA_API fc::CUresult cuLibraryUnload(fc::CUlibrary library);
FAKE_CUDA_API fc::CUresult cuKernelGetFunction(fc::CUfunction* function, fc::CUkernel kernel);
FAKE_CUDA_API fc::CUresult cuMemAlloc_v2(fc::CUdeviceptr* pointer, std::size_t size);
FAKE_CUDA_API fc::CUresult cuMemAllocManaged(fc::CUdeviceptr* pointer, std::size_t size,
                                             unsigned int flags);
FAKE_CUDA_API fc::CUresult cuMemAllocAsync(fc::CUdeviceptr* pointer, std::size_t size,
                                           fc::CUstream stream);
FAKE_CUDA_API fc::CUresult cuMemFree_v2(fc::CUdeviceptr pointer);
FAKE_CUDA_API fc::CUresult cuMemFreeAsync(fc::CUdeviceptr pointer, fc::CUstream stream);
FAKE_CUDA_API fc::CUresult cuMemcpyHtoD_v2(fc::CUdeviceptr destination, const void* source,
                                           std::size_t size);
FAKE_CUDA_API fc::CUresult cuMemcpyDtoH_v2(void* destination, fc::CUdeviceptr source,
                                           std::size_t size);
FAKE_CUDA_API fc::CUresult cuStreamIsCapturing(fc::CUstream stream, int* status);
// Driver 12.4+: the fake built as a 12.3 driver (FAKE_CUDA_WITHOUT_PARAM_INFO) has neither.
FAKE_CUDA_API fc::CUresult cuFuncGetParamInfo(fc::CUfunction function, std::size_t index,
                                              std::size_t* offset, std::size_t* size);
FAKE_CUDA_API fc::CUresult cuKernelGetParamInfo(fc::CUkernel kernel, std::size_t index,
                                                std::size_t* offset, std::size_t* size);
FAKE_CUDA_API fc::CUresult cuLaunchKernel(fc::CUfunction function, unsigned int grid_x,
                                          unsigned int grid_y, unsigned int grid_z,
                                          unsigned int block_x, unsigned int block_y,
                                          unsigned int block_z, unsigned int shared_bytes,
                                          fc::CUstream stream, void** params, void** extra);
FAKE_CUDA_API fc::CUresult cuLaunchKernel_ptsz(fc::CUfunction function, unsigned int grid_x,
                                               unsigned int grid_y, unsigned int grid_z,
                                               unsigned int block_x, unsigned int block_y,
                                               unsigned int block_z, unsigned int shared_bytes,
                                               fc::CUstream stream, void** params, void** extra);
FAKE_CUDA_API fc::CUresult cuLaunchKernelEx(const fc::CUlaunchConfig* config,
                                            fc::CUfunction function, void** params, void** extra);
FAKE_CUDA_API fc::CUresult cuLaunchKernelEx_ptsz(const fc::CUlaunchConfig* config,
                                                 fc::CUfunction function, void** params,
                                                 void** extra);
FAKE_CUDA_API fc::CUresult cuGetProcAddress(const char* symbol, void** function, int cuda_version,
                                            std::uint64_t flags);
FAKE_CUDA_API fc::CUresult cuGetProcAddress_v2(const char* symbol, void** function,
                                               int cuda_version, std::uint64_t flags, int* status);

} // extern "C"
