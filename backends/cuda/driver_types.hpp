#pragma once
// The part of the CUDA driver API that gpurun calls, declared here so that the CUDA backend builds
// on machines without the toolkit: the handle types, the enumerators gpurun passes or names (with
// the driver's documented values), one function-pointer type per entry point, and the symbol
// libcuda exports it under. The driver's ABI is stable, so these never change for a given symbol;
// tests/unit/backends/cuda/driver_types_test.cpp compares every one of them with cuda.h whenever
// the toolkit is present at build time.
//
// Names follow cuda.h so that code reads like the driver's documentation. They live in
// gpurun::cuda, so a translation unit may include cuda.h as well without a clash.
#include <cstddef>

namespace gpurun::cuda {

// Opaque handles: pointers to the driver's incomplete structs.
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUdevice = int;
// 64 bits on every host gpurun builds for (cuda.h uses unsigned int only on 32-bit hosts).
using CUdeviceptr = unsigned long long;
static_assert(sizeof(void*) == 8, "the CUDA driver API is declared for 64-bit hosts only");

// X(name, value) for every CUresult gpurun names; error.cpp spells them when the driver cannot.
#define GPURUN_CU_RESULTS(X)                                                                       \
  X(CUDA_SUCCESS, 0)                                                                               \
  X(CUDA_ERROR_INVALID_VALUE, 1)                                                                   \
  X(CUDA_ERROR_OUT_OF_MEMORY, 2)                                                                   \
  X(CUDA_ERROR_NOT_INITIALIZED, 3)                                                                 \
  X(CUDA_ERROR_DEINITIALIZED, 4)                                                                   \
  X(CUDA_ERROR_STUB_LIBRARY, 34)                                                                   \
  X(CUDA_ERROR_DEVICE_UNAVAILABLE, 46)                                                             \
  X(CUDA_ERROR_NO_DEVICE, 100)                                                                     \
  X(CUDA_ERROR_INVALID_DEVICE, 101)                                                                \
  X(CUDA_ERROR_INVALID_IMAGE, 200)                                                                 \
  X(CUDA_ERROR_INVALID_CONTEXT, 201)                                                               \
  X(CUDA_ERROR_NO_BINARY_FOR_GPU, 209)                                                             \
  X(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, 217)                                                       \
  X(CUDA_ERROR_INVALID_PTX, 218)                                                                   \
  X(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, 221)                                                        \
  X(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222)                                                       \
  X(CUDA_ERROR_INVALID_SOURCE, 300)                                                                \
  X(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, 303)                                                     \
  X(CUDA_ERROR_OPERATING_SYSTEM, 304)                                                              \
  X(CUDA_ERROR_INVALID_HANDLE, 400)                                                                \
  X(CUDA_ERROR_NOT_FOUND, 500)                                                                     \
  X(CUDA_ERROR_NOT_READY, 600)                                                                     \
  X(CUDA_ERROR_ILLEGAL_ADDRESS, 700)                                                               \
  X(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701)                                                       \
  X(CUDA_ERROR_LAUNCH_TIMEOUT, 702)                                                                \
  X(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, 704)                                                   \
  X(CUDA_ERROR_ASSERT, 710)                                                                        \
  X(CUDA_ERROR_TOO_MANY_PEERS, 711)                                                                \
  X(CUDA_ERROR_HARDWARE_STACK_ERROR, 714)                                                          \
  X(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715)                                                           \
  X(CUDA_ERROR_MISALIGNED_ADDRESS, 716)                                                            \
  X(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717)                                                         \
  X(CUDA_ERROR_INVALID_PC, 718)                                                                    \
  X(CUDA_ERROR_LAUNCH_FAILED, 719)                                                                 \
  X(CUDA_ERROR_NOT_SUPPORTED, 801)                                                                 \
  X(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803)                                                        \
  X(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804)                                                \
  X(CUDA_ERROR_UNKNOWN, 999)

// X(name, value) for the device attributes gpurun reads.
#define GPURUN_CU_DEVICE_ATTRIBUTES(X)                                                             \
  X(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 1)                                                  \
  X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, 2)                                                        \
  X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, 3)                                                        \
  X(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, 4)                                                        \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, 5)                                                         \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, 6)                                                         \
  X(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, 7)                                                         \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, 8)                                            \
  X(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 10)                                                             \
  X(CU_DEVICE_ATTRIBUTE_CLOCK_RATE, 13)                                                            \
  X(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 16)                                                  \
  X(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, 36)                                                     \
  X(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, 37)                                               \
  X(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, 38)                                                         \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 75)                                              \
  X(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, 76)                                              \
  X(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, 97)

// X(name, value) for the function attributes gpurun reads or sets.
#define GPURUN_CU_FUNCTION_ATTRIBUTES(X)                                                           \
  X(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, 0)                                                    \
  X(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 1)                                                        \
  X(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, 2)                                                         \
  X(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 3)                                                         \
  X(CU_FUNC_ATTRIBUTE_NUM_REGS, 4)                                                                 \
  X(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 8)

// X(name, value) for the JIT options gpurun passes to cuModuleLoadDataEx.
#define GPURUN_CU_JIT_OPTIONS(X)                                                                   \
  X(CU_JIT_ERROR_LOG_BUFFER, 5)                                                                    \
  X(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 6)

// X(name, value) for the stream and event creation flags gpurun passes.
#define GPURUN_CU_STREAM_FLAGS(X)                                                                  \
  X(CU_STREAM_DEFAULT, 0x0)                                                                        \
  X(CU_STREAM_NON_BLOCKING, 0x1)
#define GPURUN_CU_EVENT_FLAGS(X) X(CU_EVENT_DEFAULT, 0x0)
// X(name, value) for the context limits gpurun sets.
#define GPURUN_CU_LIMITS(X)                                                                        \
  X(CU_LIMIT_PRINTF_FIFO_SIZE, 0x01)                                                               \
  X(CU_LIMIT_MALLOC_HEAP_SIZE, 0x02)

// cuMemHostAlloc's flags (cuda.h defines them as macros).
inline constexpr unsigned int CU_MEMHOSTALLOC_PORTABLE = 0x01;
inline constexpr unsigned int CU_MEMHOSTALLOC_DEVICEMAP = 0x02;

#define GPURUN_CU_ENUMERATOR(name, value) name = value,
// Fixed underlying types so that any value the driver returns (including codes newer than this
// list) is representable; the size matches cuda.h's enums, which is what the ABI depends on.
enum CUresult : int { GPURUN_CU_RESULTS(GPURUN_CU_ENUMERATOR) };
enum CUdevice_attribute : int { GPURUN_CU_DEVICE_ATTRIBUTES(GPURUN_CU_ENUMERATOR) };
enum CUfunction_attribute : int { GPURUN_CU_FUNCTION_ATTRIBUTES(GPURUN_CU_ENUMERATOR) };
enum CUjit_option : int { GPURUN_CU_JIT_OPTIONS(GPURUN_CU_ENUMERATOR) };
enum CUstream_flags : unsigned { GPURUN_CU_STREAM_FLAGS(GPURUN_CU_ENUMERATOR) };
enum CUevent_flags : unsigned { GPURUN_CU_EVENT_FLAGS(GPURUN_CU_ENUMERATOR) };
enum CUlimit : int { GPURUN_CU_LIMITS(GPURUN_CU_ENUMERATOR) };
#undef GPURUN_CU_ENUMERATOR

// Entry points, with cuda.h's parameter names.
using cuGetErrorName_fn = CUresult (*)(CUresult error, const char** pStr);
using cuGetErrorString_fn = CUresult (*)(CUresult error, const char** pStr);
using cuInit_fn = CUresult (*)(unsigned int Flags);
using cuDriverGetVersion_fn = CUresult (*)(int* driverVersion);
using cuDeviceGetCount_fn = CUresult (*)(int* count);
using cuDeviceGet_fn = CUresult (*)(CUdevice* device, int ordinal);
using cuDeviceGetName_fn = CUresult (*)(char* name, int len, CUdevice dev);
using cuDeviceGetPCIBusId_fn = CUresult (*)(char* pciBusId, int len, CUdevice dev);
using cuDeviceGetAttribute_fn = CUresult (*)(int* pi, CUdevice_attribute attrib, CUdevice dev);
using cuDeviceTotalMem_fn = CUresult (*)(std::size_t* bytes, CUdevice dev);
using cuDevicePrimaryCtxRetain_fn = CUresult (*)(CUcontext* pctx, CUdevice dev);
using cuDevicePrimaryCtxRelease_fn = CUresult (*)(CUdevice dev);
using cuCtxSetCurrent_fn = CUresult (*)(CUcontext ctx);
using cuCtxSetLimit_fn = CUresult (*)(CUlimit limit, std::size_t value);
using cuStreamCreate_fn = CUresult (*)(CUstream* phStream, unsigned int Flags);
using cuStreamDestroy_fn = CUresult (*)(CUstream hStream);
using cuStreamQuery_fn = CUresult (*)(CUstream hStream);
using cuStreamSynchronize_fn = CUresult (*)(CUstream hStream);
using cuMemAlloc_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t bytesize);
using cuMemFree_fn = CUresult (*)(CUdeviceptr dptr);
using cuMemcpyHtoDAsync_fn = CUresult (*)(CUdeviceptr dstDevice, const void* srcHost,
                                          std::size_t ByteCount, CUstream hStream);
using cuMemcpyDtoHAsync_fn = CUresult (*)(void* dstHost, CUdeviceptr srcDevice,
                                          std::size_t ByteCount, CUstream hStream);
using cuMemcpyDtoDAsync_fn = CUresult (*)(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                          std::size_t ByteCount, CUstream hStream);
using cuMemHostAlloc_fn = CUresult (*)(void** pp, std::size_t bytesize, unsigned int Flags);
using cuMemHostGetDevicePointer_fn = CUresult (*)(CUdeviceptr* pdptr, void* p, unsigned int Flags);
using cuMemFreeHost_fn = CUresult (*)(void* p);
using cuMemsetD8Async_fn = CUresult (*)(CUdeviceptr dstDevice, unsigned char uc, std::size_t N,
                                        CUstream hStream);
using cuModuleLoadDataEx_fn = CUresult (*)(CUmodule* module, const void* image,
                                           unsigned int numOptions, CUjit_option* options,
                                           void** optionValues);
using cuModuleUnload_fn = CUresult (*)(CUmodule hmod);
using cuModuleGetFunction_fn = CUresult (*)(CUfunction* hfunc, CUmodule hmod, const char* name);
using cuModuleGetGlobal_fn = CUresult (*)(CUdeviceptr* dptr, std::size_t* bytes, CUmodule hmod,
                                          const char* name);
using cuFuncGetAttribute_fn = CUresult (*)(int* pi, CUfunction_attribute attrib, CUfunction hfunc);
using cuFuncSetAttribute_fn = CUresult (*)(CUfunction hfunc, CUfunction_attribute attrib,
                                           int value);
using cuLaunchKernel_fn = CUresult (*)(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX,
                                       unsigned int blockDimY, unsigned int blockDimZ,
                                       unsigned int sharedMemBytes, CUstream hStream,
                                       void** kernelParams, void** extra);
using cuEventCreate_fn = CUresult (*)(CUevent* phEvent, unsigned int Flags);
using cuEventDestroy_fn = CUresult (*)(CUevent hEvent);
using cuEventRecord_fn = CUresult (*)(CUevent hEvent, CUstream hStream);
using cuEventSynchronize_fn = CUresult (*)(CUevent hEvent);
using cuEventElapsedTime_fn = CUresult (*)(float* pMilliseconds, CUevent hStart, CUevent hEnd);
using cuDeviceCanAccessPeer_fn = CUresult (*)(int* canAccessPeer, CUdevice dev, CUdevice peerDev);
using cuCtxEnablePeerAccess_fn = CUresult (*)(CUcontext peerContext, unsigned int Flags);
using cuMemcpyPeerAsync_fn = CUresult (*)(CUdeviceptr dstDevice, CUcontext dstContext,
                                          CUdeviceptr srcDevice, CUcontext srcContext,
                                          std::size_t ByteCount, CUstream hStream);
// Driver 12.4+.
using cuModuleGetFunctionCount_fn = CUresult (*)(unsigned int* count, CUmodule mod);
using cuModuleEnumerateFunctions_fn = CUresult (*)(CUfunction* functions, unsigned int numFunctions,
                                                   CUmodule mod);
using cuFuncGetName_fn = CUresult (*)(const char** name, CUfunction hfunc);
using cuFuncGetParamInfo_fn = CUresult (*)(CUfunction func, std::size_t paramIndex,
                                           std::size_t* paramOffset, std::size_t* paramSize);

// X(function, symbol): the name libcuda exports each entry point under, which is the versioned
// one where cuda.h #defines the function to it (cuMemAlloc → cuMemAlloc_v2): the _v2 entry points
// take 64-bit sizes and pointers, the unversioned ones are kept for old 32-bit binaries.
#define GPURUN_CU_FUNCTIONS(X)                                                                     \
  X(cuGetErrorName, "cuGetErrorName")                                                              \
  X(cuGetErrorString, "cuGetErrorString")                                                          \
  X(cuInit, "cuInit")                                                                              \
  X(cuDriverGetVersion, "cuDriverGetVersion")                                                      \
  X(cuDeviceGetCount, "cuDeviceGetCount")                                                          \
  X(cuDeviceGet, "cuDeviceGet")                                                                    \
  X(cuDeviceGetName, "cuDeviceGetName")                                                            \
  X(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId")                                                    \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                                                  \
  X(cuDeviceTotalMem, "cuDeviceTotalMem_v2")                                                       \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                                          \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")                                     \
  X(cuCtxSetCurrent, "cuCtxSetCurrent")                                                            \
  X(cuCtxSetLimit, "cuCtxSetLimit")                                                                \
  X(cuStreamCreate, "cuStreamCreate")                                                              \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                                                         \
  X(cuStreamQuery, "cuStreamQuery")                                                                \
  X(cuStreamSynchronize, "cuStreamSynchronize")                                                    \
  X(cuMemAlloc, "cuMemAlloc_v2")                                                                   \
  X(cuMemFree, "cuMemFree_v2")                                                                     \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")                                                     \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")                                                     \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                                                     \
  X(cuMemsetD8Async, "cuMemsetD8Async")                                                            \
  X(cuMemHostAlloc, "cuMemHostAlloc")                                                              \
  X(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2")                                     \
  X(cuMemFreeHost, "cuMemFreeHost")                                                                \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx")                                                      \
  X(cuModuleUnload, "cuModuleUnload")                                                              \
  X(cuModuleGetFunction, "cuModuleGetFunction")                                                    \
  X(cuModuleGetGlobal, "cuModuleGetGlobal_v2")                                                     \
  X(cuFuncGetAttribute, "cuFuncGetAttribute")                                                      \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                                                      \
  X(cuLaunchKernel, "cuLaunchKernel")                                                              \
  X(cuEventCreate, "cuEventCreate")                                                                \
  X(cuEventDestroy, "cuEventDestroy_v2")                                                           \
  X(cuEventRecord, "cuEventRecord")                                                                \
  X(cuEventSynchronize, "cuEventSynchronize")                                                      \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2")                                                   \
  X(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer")                                                \
  X(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess")                                                \
  X(cuMemcpyPeerAsync, "cuMemcpyPeerAsync")

// The entry points of driver 12.4+, bound when present.
#define GPURUN_CU_FUNCTIONS_12_4(X)                                                                \
  X(cuModuleGetFunctionCount, "cuModuleGetFunctionCount")                                          \
  X(cuModuleEnumerateFunctions, "cuModuleEnumerateFunctions")                                      \
  X(cuFuncGetName, "cuFuncGetName")                                                                \
  X(cuFuncGetParamInfo, "cuFuncGetParamInfo")

// cuMemAlloc_symbol = "cuMemAlloc_v2", …: what api.cpp passes to dlsym.
#define GPURUN_CU_SYMBOL_CONSTANT(function, symbol)                                                \
  inline constexpr char function##_symbol[] = symbol;
GPURUN_CU_FUNCTIONS(GPURUN_CU_SYMBOL_CONSTANT)
GPURUN_CU_FUNCTIONS_12_4(GPURUN_CU_SYMBOL_CONSTANT)
#undef GPURUN_CU_SYMBOL_CONSTANT

// Drivers before 12.8 export cuEventElapsedTime, with the same signature, under its plain name.
inline constexpr char cuEventElapsedTime_unversioned_symbol[] = "cuEventElapsedTime";

} // namespace gpurun::cuda
