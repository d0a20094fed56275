// gpurun's HIP layer for NVIDIA targets: HIP's kernel-side API on top of CUDA's, so that a .hip
// kernel compiles with NVRTC (or clang) to PTX and runs on the CUDA and CPU backends. Included
// before every .hip kernel, as hipcc does; `#include <hip/hip_runtime.h>` finds this file.
// What runs on a 32-wide warp keeps HIP's meaning: warpSize is 32 here, and the lanes 32..63 of a
// 64-bit lane mask name threads that do not exist.
#pragma once
#include <cuda_runtime.h>

#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#ifndef __HIP_PLATFORM_NVIDIA__
#define __HIP_PLATFORM_NVIDIA__ 1
#endif
#ifndef __HIP_DEVICE_COMPILE__
#define __HIP_DEVICE_COMPILE__ 1
#endif
#define __GPURUN_HIP_LAYER__ 1

// ---- indices: HIP's old spellings ---------------------------------------------------------------
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z

// ---- kernels and shared memory ------------------------------------------------------------------
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(symbol) symbol
// __launch_bounds__(MAX_THREADS, MIN_WAVES_PER_EU) keeps CUDA's spelling; its second argument is
// read by CUDA as a minimum number of blocks per multiprocessor, a hint either way.

// ---- lane masks of 64 bits ----------------------------------------------------------------------
template <class M> struct __gpurun_hip_mask64 {};
template <> struct __gpurun_hip_mask64<unsigned long long> { typedef int type; };
template <> struct __gpurun_hip_mask64<unsigned long> { typedef int type; };
template <> struct __gpurun_hip_mask64<long long> { typedef int type; };
template <> struct __gpurun_hip_mask64<long> { typedef int type; };
#define __GPURUN_HIP_MASK64(M) typename __gpurun_hip_mask64<M>::type = 0
#define __GPURUN_HIP_FULL_WARP 0xffffffffu

__device__ __forceinline__ unsigned int __gpurun_hip_warp_mask(unsigned long long mask) {
  return static_cast<unsigned int>(mask);
}

// ---- warp functions: HIP's mask-free forms ------------------------------------------------------
template <class T> __device__ __forceinline__ T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(__GPURUN_HIP_FULL_WARP, var, src_lane, width);
}
template <class T>
__device__ __forceinline__ T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(__GPURUN_HIP_FULL_WARP, var, delta, width);
}
template <class T>
__device__ __forceinline__ T __shfl_down(T var, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(__GPURUN_HIP_FULL_WARP, var, delta, width);
}
template <class T>
__device__ __forceinline__ T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(__GPURUN_HIP_FULL_WARP, var, lane_mask, width);
}
// HIP's ballot is 64 bits wide (a wave64 mask); here only the low 32 bits can be set. CUDA still
// declares its own deprecated __ballot, __any and __all, so HIP's are reached through macros.
__device__ __forceinline__ unsigned long long __gpurun_hip_ballot(int predicate) {
  return __ballot_sync(__GPURUN_HIP_FULL_WARP, predicate);
}
__device__ __forceinline__ int __gpurun_hip_any(int predicate) {
  return __any_sync(__GPURUN_HIP_FULL_WARP, predicate);
}
__device__ __forceinline__ int __gpurun_hip_all(int predicate) {
  return __all_sync(__GPURUN_HIP_FULL_WARP, predicate);
}
#define __ballot(predicate) __gpurun_hip_ballot(predicate)
#define __ballot64(predicate) __gpurun_hip_ballot(predicate)
#define __any(predicate) __gpurun_hip_any(predicate)
#define __all(predicate) __gpurun_hip_all(predicate)
__device__ __forceinline__ unsigned int __lane_id() {
  unsigned int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// ---- warp functions: the *_sync forms with a 64-bit mask (the 32-bit ones are CUDA's) ------------
template <class M, class T, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ T __shfl_sync(M mask, T var, int src_lane, int width = warpSize) {
  return __shfl_sync(__gpurun_hip_warp_mask(mask), var, src_lane, width);
}
template <class M, class T, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ T __shfl_up_sync(M mask, T var, unsigned int delta,
                                            int width = warpSize) {
  return __shfl_up_sync(__gpurun_hip_warp_mask(mask), var, delta, width);
}
template <class M, class T, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ T __shfl_down_sync(M mask, T var, unsigned int delta,
                                              int width = warpSize) {
  return __shfl_down_sync(__gpurun_hip_warp_mask(mask), var, delta, width);
}
template <class M, class T, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ T __shfl_xor_sync(M mask, T var, int lane_mask, int width = warpSize) {
  return __shfl_xor_sync(__gpurun_hip_warp_mask(mask), var, lane_mask, width);
}
template <class M, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ unsigned long long __ballot_sync(M mask, int predicate) {
  return __ballot_sync(__gpurun_hip_warp_mask(mask), predicate);
}
template <class M, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ int __any_sync(M mask, int predicate) {
  return __any_sync(__gpurun_hip_warp_mask(mask), predicate);
}
template <class M, __GPURUN_HIP_MASK64(M)>
__device__ __forceinline__ int __all_sync(M mask, int predicate) {
  return __all_sync(__gpurun_hip_warp_mask(mask), predicate);
}
template <class M, __GPURUN_HIP_MASK64(M)> __device__ __forceinline__ void __syncwarp(M mask) {
  __syncwarp(__gpurun_hip_warp_mask(mask));
}

// ---- atomics: HIP's additions -------------------------------------------------------------------
template <class T> __device__ __forceinline__ void atomicAddNoRet(T* address, T value) {
  (void)atomicAdd(address, value);
}
template <class T> __device__ __forceinline__ T unsafeAtomicAdd(T* address, T value) {
  return atomicAdd(address, value);
}
template <class T> __device__ __forceinline__ T safeAtomicAdd(T* address, T value) {
  return atomicAdd(address, value);
}
// HIP has floating-point atomicMin/atomicMax; CUDA does not. A compare-and-swap loop on the bits;
// memory that holds NaN is left alone, as no value compares greater or less than it.
#define __GPURUN_HIP_FP_ATOMIC(name, T, B, to_bits, from_bits, pick)                               \
  __device__ __forceinline__ T name(T* address, T value) {                                         \
    B* bits = reinterpret_cast<B*>(address);                                                       \
    B old = *bits;                                                                                 \
    for (;;) {                                                                                     \
      const T current = from_bits(old);                                                            \
      if (!(value pick current))                                                                   \
        return current;                                                                            \
      const B seen = atomicCAS(bits, old, static_cast<B>(to_bits(value)));                         \
      if (seen == old)                                                                             \
        return current;                                                                            \
      old = seen;                                                                                  \
    }                                                                                              \
  }
__device__ __forceinline__ float __gpurun_hip_f32(unsigned int b) { return __uint_as_float(b); }
__device__ __forceinline__ double __gpurun_hip_f64(unsigned long long b) {
  return __longlong_as_double(static_cast<long long>(b));
}
__GPURUN_HIP_FP_ATOMIC(atomicMax, float, unsigned int, __float_as_uint, __gpurun_hip_f32, >)
__GPURUN_HIP_FP_ATOMIC(atomicMin, float, unsigned int, __float_as_uint, __gpurun_hip_f32, <)
__GPURUN_HIP_FP_ATOMIC(atomicMax, double, unsigned long long, __double_as_longlong,
                       __gpurun_hip_f64, >)
__GPURUN_HIP_FP_ATOMIC(atomicMin, double, unsigned long long, __double_as_longlong,
                       __gpurun_hip_f64, <)
#undef __GPURUN_HIP_FP_ATOMIC

// ---- timers ---------------------------------------------------------------------------------------
__device__ __forceinline__ long long __clock64() { return clock64(); }
__device__ __forceinline__ long long wall_clock64() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return static_cast<long long>(ns);
}
