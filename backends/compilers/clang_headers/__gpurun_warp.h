// Warp-level primitives: shuffles, votes, match and reduce, with CUDA's width semantics. The
// shuffle control word is built as nvcc's sm_30_intrinsics.hpp builds it: the segment mask
// ((warpSize - width) << 8) in bits 8-12 and the clamp value in bits 0-4.
#pragma once
#include "__gpurun_defs.h"

__GPURUN_DEVICE__ unsigned int __activemask() {
  unsigned int mask;
  asm volatile("activemask.b32 %0;" : "=r"(mask));
  return mask;
}

__GPURUN_DEVICE__ unsigned int __ballot_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_ballot_sync(mask, predicate != 0);
}
__GPURUN_DEVICE__ int __all_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_all_sync(mask, predicate != 0);
}
__GPURUN_DEVICE__ int __any_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_any_sync(mask, predicate != 0);
}
__GPURUN_DEVICE__ int __uni_sync(unsigned int mask, int predicate) {
  return __nvvm_vote_uni_sync(mask, predicate != 0);
}

#define __GPURUN_SHFL_32(name, kind, clamp)                                                        \
  __GPURUN_DEVICE__ int name(unsigned int mask, int var, int lane, int width = warpSize) {         \
    return __nvvm_shfl_sync_##kind##_i32(mask, var, lane, ((warpSize - width) << 8) | (clamp));    \
  }                                                                                                \
  __GPURUN_DEVICE__ unsigned int name(unsigned int mask, unsigned int var, int lane,               \
                                      int width = warpSize) {                                      \
    return static_cast<unsigned int>(name(mask, static_cast<int>(var), lane, width));              \
  }                                                                                                \
  __GPURUN_DEVICE__ float name(unsigned int mask, float var, int lane, int width = warpSize) {     \
    return __nvvm_shfl_sync_##kind##_f32(mask, var, lane, ((warpSize - width) << 8) | (clamp));    \
  }                                                                                                \
  __GPURUN_DEVICE__ long long name(unsigned int mask, long long var, int lane,                     \
                                   int width = warpSize) {                                         \
    const int lo = name(mask, static_cast<int>(var), lane, width);                                 \
    const int hi = name(mask, static_cast<int>(var >> 32), lane, width);                           \
    return static_cast<long long>(                                                                 \
        (static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |                   \
        static_cast<unsigned int>(lo));                                                            \
  }                                                                                                \
  __GPURUN_DEVICE__ unsigned long long name(unsigned int mask, unsigned long long var, int lane,   \
                                            int width = warpSize) {                                \
    return static_cast<unsigned long long>(name(mask, static_cast<long long>(var), lane, width));  \
  }                                                                                                \
  __GPURUN_DEVICE__ long name(unsigned int mask, long var, int lane, int width = warpSize) {       \
    return static_cast<long>(name(mask, static_cast<long long>(var), lane, width));                \
  }                                                                                                \
  __GPURUN_DEVICE__ unsigned long name(unsigned int mask, unsigned long var, int lane,             \
                                       int width = warpSize) {                                     \
    return static_cast<unsigned long>(name(mask, static_cast<long long>(var), lane, width));       \
  }                                                                                                \
  __GPURUN_DEVICE__ double name(unsigned int mask, double var, int lane, int width = warpSize) {   \
    return __builtin_bit_cast(double,                                                              \
                              name(mask, __builtin_bit_cast(long long, var), lane, width));        \
  }

__GPURUN_SHFL_32(__shfl_sync, idx, 0x1f)
__GPURUN_SHFL_32(__shfl_up_sync, up, 0)
__GPURUN_SHFL_32(__shfl_down_sync, down, 0x1f)
__GPURUN_SHFL_32(__shfl_xor_sync, bfly, 0x1f)
#undef __GPURUN_SHFL_32

#ifdef __GPURUN_SM70__
__GPURUN_DEVICE__ unsigned int __match_any_sync(unsigned int mask, int value) {
  return __nvvm_match_any_sync_i32(mask, value);
}
__GPURUN_DEVICE__ unsigned int __match_any_sync(unsigned int mask, unsigned int value) {
  return __nvvm_match_any_sync_i32(mask, static_cast<int>(value));
}
__GPURUN_DEVICE__ unsigned int __match_any_sync(unsigned int mask, long long value) {
  return __nvvm_match_any_sync_i64(mask, value);
}
__GPURUN_DEVICE__ unsigned int __match_any_sync(unsigned int mask, unsigned long long value) {
  return __nvvm_match_any_sync_i64(mask, static_cast<long long>(value));
}
__GPURUN_DEVICE__ unsigned int __match_any_sync(unsigned int mask, float value) {
  return __nvvm_match_any_sync_i32(mask, __builtin_bit_cast(int, value));
}
__GPURUN_DEVICE__ unsigned int __match_all_sync(unsigned int mask, int value, int* pred) {
  return __nvvm_match_all_sync_i32p(mask, value, pred);
}
__GPURUN_DEVICE__ unsigned int __match_all_sync(unsigned int mask, unsigned int value, int* pred) {
  return __nvvm_match_all_sync_i32p(mask, static_cast<int>(value), pred);
}
__GPURUN_DEVICE__ unsigned int __match_all_sync(unsigned int mask, long long value, int* pred) {
  return __nvvm_match_all_sync_i64p(mask, value, pred);
}
__GPURUN_DEVICE__ unsigned int __match_all_sync(unsigned int mask, unsigned long long value,
                                                int* pred) {
  return __nvvm_match_all_sync_i64p(mask, static_cast<long long>(value), pred);
}
#endif

#ifdef __GPURUN_SM80__
// redux.sync (sm_80): clang 14 has no builtin for it, so inline PTX as cuda's headers use.
#define __GPURUN_REDUX(name, op, type, T)                                                          \
  __GPURUN_DEVICE__ T name(unsigned int mask, T value) {                                           \
    T result;                                                                                      \
    asm volatile("redux.sync." op "." type " %0, %1, %2;" : "=r"(result) : "r"(value), "r"(mask)); \
    return result;                                                                                 \
  }
__GPURUN_REDUX(__reduce_add_sync, "add", "s32", int)
__GPURUN_REDUX(__reduce_add_sync, "add", "u32", unsigned int)
__GPURUN_REDUX(__reduce_min_sync, "min", "s32", int)
__GPURUN_REDUX(__reduce_min_sync, "min", "u32", unsigned int)
__GPURUN_REDUX(__reduce_max_sync, "max", "s32", int)
__GPURUN_REDUX(__reduce_max_sync, "max", "u32", unsigned int)
__GPURUN_REDUX(__reduce_and_sync, "and", "b32", unsigned int)
__GPURUN_REDUX(__reduce_or_sync, "or", "b32", unsigned int)
__GPURUN_REDUX(__reduce_xor_sync, "xor", "b32", unsigned int)
#undef __GPURUN_REDUX
#endif
