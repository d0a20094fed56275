// gpurun's CUDA layer for clang: the declaration specifiers and version macros that nvcc's
// host_defines.h provides. Kernels are compiled for the device only, so every macro is the
// device-side meaning.
#pragma once

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __thread__ __thread
#define __device_builtin__
#define __builtin_align__(n) __align__(n)
#define __cudart_builtin__
// Kernel parameters are already in the constant bank; clang has no attribute for the promise.
#define __grid_constant__
#define CUDARTAPI
#define __CUDA_ALIGN__(n) __align__(n)

// The CUDA API level the layer follows (warp intrinsics with masks, __half, cooperative names):
// kernels that test these see a CUDA 12 toolchain.
#define __CUDACC__ 1
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 12000
#define __CUDART_API_VERSION 12000
#define __GPURUN_CLANG_CUDA__ 1

// Everything in the layer is inlined into the kernel, as the CUDA headers' device functions are.
#define __GPURUN_DEVICE__ static __device__ __forceinline__
#define __GPURUN_HOST_DEVICE__ static __host__ __device__ __forceinline__

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
#define __GPURUN_SM60__ 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
#define __GPURUN_SM70__ 1
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define __GPURUN_SM80__ 1
#endif
