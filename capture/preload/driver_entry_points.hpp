#pragma once
// The CUDA driver entry points the capture interposer stands in for, beyond those the CUDA
// backend declares (backends/cuda/driver_types.hpp): module and library loading, allocation in
// every form a program uses, kernel handles of the library API, the launch calls, and
// cuGetProcAddress, through which CUDA 12+'s runtime finds every other entry point. Signatures
// and values as cuda.h has them (driver ABI, stable per symbol).
#include <cstddef>
#include <cstdint>

#include "backends/cuda/driver_types.hpp"

namespace gpurun::capture::cu {

using cuda::CUcontext;
using cuda::CUdevice;
using cuda::CUdeviceptr;
using cuda::CUfunction;
using cuda::CUjit_option;
using cuda::CUmodule;
using cuda::CUresult;
using cuda::CUstream;

struct CUlib_st;
struct CUkern_st;
struct CUmemPoolHandle_st;
using CUlibrary = CUlib_st*;
using CUkernel = CUkern_st*;
using CUmemoryPool = CUmemPoolHandle_st*;
using CUmemGenericAllocationHandle = unsigned long long;
using CUlibraryOption = int;

inline constexpr CUresult k_success = static_cast<CUresult>(0);
inline constexpr CUresult k_error_invalid_value = static_cast<CUresult>(1);

// cuLaunchKernel's `extra`: CU_LAUNCH_PARAM_END, _BUFFER_POINTER, _BUFFER_SIZE.
inline void* const k_launch_param_end = reinterpret_cast<void*>(0x00);
inline void* const k_launch_param_buffer_pointer = reinterpret_cast<void*>(0x01);
inline void* const k_launch_param_buffer_size = reinterpret_cast<void*>(0x02);

// cuGetProcAddress's flags: CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM.
inline constexpr std::uint64_t k_proc_per_thread_stream = 2;

// cuStreamIsCapturing: CU_STREAM_CAPTURE_STATUS_NONE.
inline constexpr int k_stream_capture_none = 0;

// CUlaunchConfig (cuLaunchKernelEx).
struct CUlaunchAttribute;
struct CUlaunchConfig {
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  CUstream hStream;
  CUlaunchAttribute* attrs;
  unsigned int numAttrs;
};

using cuGetProcAddress_fn = CUresult (*)(const char* symbol, void** pfn, int cudaVersion,
                                         std::uint64_t flags);
using cuGetProcAddress_v2_fn = CUresult (*)(const char* symbol, void** pfn, int cudaVersion,
                                            std::uint64_t flags, int* symbolStatus);
using cuModuleLoad_fn = CUresult (*)(CUmodule* module, const char* fname);
using cuModuleLoadData_fn = CUresult (*)(CUmodule* module, const void* image);
using cuModuleLoadFatBinary_fn = CUresult (*)(CUmodule* module, const void* fatCubin);
using cuLibraryLoadData_fn = CUresult (*)(CUlibrary* library, const void* code,
                                          CUjit_option* jitOptions, void** jitOptionsValues,
                                          unsigned int numJitOptions,
                                          CUlibraryOption* libraryOptions,
                                          void** libraryOptionValues,
                                          unsigned int numLibraryOptions);
using cuLibraryLoadFromFile_fn = CUresult (*)(CUlibrary* library, const char* fileName,
                                              CUjit_option* jitOptions, void** jitOptionsValues,
                                              unsigned int numJitOptions,
                                              CUlibraryOption* libraryOptions,
                                              void** libraryOptionValues,
                                              unsigned int numLibraryOptions);
using cuLibraryGetKernel_fn = CUresult (*)(CUkernel* kernel, CUlibrary library, const char* name);
using cuLibraryGetModule_fn = CUresult (*)(CUmodule* module, CUlibrary library);
using cuKernelGetFunction_fn = CUresult (*)(CUfunction* func, CUkernel kernel);
// Driver 12.4+ (cuFuncGetParamInfo is the CUDA backend's: cuda::cuFuncGetParamInfo_fn).
using cuKernelGetParamInfo_fn = CUresult (*)(CUkernel kernel, std::size_t paramIndex,
                                             std::size_t* paramOffset, std::size_t* paramSize);
using cuMemAllocPitch_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t* pitch,
                                        std::size_t widthInBytes, std::size_t height,
                                        unsigned int elementSizeBytes);
using cuMemAllocManaged_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t bytesize,
                                          unsigned int flags);
using cuMemAllocAsync_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t bytesize, CUstream hStream);
using cuMemAllocFromPoolAsync_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t bytesize,
                                                CUmemoryPool pool, CUstream hStream);
using cuMemFreeAsync_fn = CUresult (*)(CUdeviceptr dptr, CUstream hStream);
using cuMemMap_fn = CUresult (*)(CUdeviceptr ptr, std::size_t size, std::size_t offset,
                                 CUmemGenericAllocationHandle handle, unsigned long long flags);
using cuMemUnmap_fn = CUresult (*)(CUdeviceptr ptr, std::size_t size);
using cuMemcpyDtoH_fn = CUresult (*)(void* dstHost, CUdeviceptr srcDevice, std::size_t ByteCount);
using cuCtxSynchronize_fn = CUresult (*)();
using cuCtxGetDevice_fn = CUresult (*)(CUdevice* device);
using cuStreamIsCapturing_fn = CUresult (*)(CUstream hStream, int* captureStatus);
using cuLaunchKernelEx_fn = CUresult (*)(const CUlaunchConfig* config, CUfunction f,
                                         void** kernelParams, void** extra);

} // namespace gpurun::capture::cu
