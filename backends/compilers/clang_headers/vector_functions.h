// make_float2, make_int4 … for every vector type of vector_types.h.
#pragma once
#include "vector_types.h"

#define __GPURUN_MAKE1(name, T)                                                                    \
  __GPURUN_HOST_DEVICE__ constexpr name make_##name(T x) {                                         \
    return name{x};                                                                                \
  }
#define __GPURUN_MAKE2(name, T)                                                                    \
  __GPURUN_HOST_DEVICE__ constexpr name make_##name(T x, T y) {                                    \
    return name{x, y};                                                                             \
  }
#define __GPURUN_MAKE3(name, T)                                                                    \
  __GPURUN_HOST_DEVICE__ constexpr name make_##name(T x, T y, T z) {                               \
    return name{x, y, z};                                                                          \
  }
#define __GPURUN_MAKE4(name, T)                                                                    \
  __GPURUN_HOST_DEVICE__ constexpr name make_##name(T x, T y, T z, T w) {                          \
    return name{x, y, z, w};                                                                       \
  }
#define __GPURUN_MAKE_ALL(prefix, T)                                                               \
  __GPURUN_MAKE1(prefix##1, T)                                                                     \
  __GPURUN_MAKE2(prefix##2, T)                                                                     \
  __GPURUN_MAKE3(prefix##3, T)                                                                     \
  __GPURUN_MAKE4(prefix##4, T)

__GPURUN_MAKE_ALL(char, signed char)
__GPURUN_MAKE_ALL(uchar, unsigned char)
__GPURUN_MAKE_ALL(short, short)
__GPURUN_MAKE_ALL(ushort, unsigned short)
__GPURUN_MAKE_ALL(int, int)
__GPURUN_MAKE_ALL(uint, unsigned int)
__GPURUN_MAKE_ALL(long, long)
__GPURUN_MAKE_ALL(ulong, unsigned long)
__GPURUN_MAKE_ALL(longlong, long long)
__GPURUN_MAKE_ALL(ulonglong, unsigned long long)
__GPURUN_MAKE_ALL(float, float)
__GPURUN_MAKE_ALL(double, double)

#undef __GPURUN_MAKE_ALL
#undef __GPURUN_MAKE1
#undef __GPURUN_MAKE2
#undef __GPURUN_MAKE3
#undef __GPURUN_MAKE4
