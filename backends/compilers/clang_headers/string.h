// <string.h> for device code: memcpy and memset, as the LLVM intrinsics that the NVPTX back end
// expands inline (nvcc's device memcpy/memset are builtins too).
#pragma once
#include <stddef.h>
extern "C" __device__ __forceinline__ void* memcpy(void* to, const void* from, size_t n) {
  return __builtin_memcpy(to, from, n);
}
extern "C" __device__ __forceinline__ void* memset(void* to, int value, size_t n) {
  return __builtin_memset(to, value, n);
}
