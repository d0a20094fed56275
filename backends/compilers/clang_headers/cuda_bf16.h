// <cuda_bf16.h> for gpurun's clang layer: __nv_bfloat16 and __nv_bfloat162 with CUDA's names.
// bfloat16 is the top half of a float: widening is a shift, narrowing rounds the float's low 16
// bits away (to nearest even, a NaN stays a NaN); arithmetic is done in float and rounded once
// (see below); __hfma is fma.rn.bf16 where the GPU has it (sm_80).
#pragma once
#include "__gpurun_atomic.h"
#include "__gpurun_defs.h"
#include "__gpurun_intrinsics.h"
#include "__gpurun_math.h"
#include "__gpurun_warp.h"
#include "cuda_fp16.h"
#include "vector_types.h"

__GPURUN_DEVICE__ float __gpurun_bf2f(unsigned short b) {
  return __builtin_bit_cast(float, static_cast<unsigned int>(b) << 16);
}
__GPURUN_DEVICE__ unsigned short __gpurun_f2bf(float f) {
  const unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff; // the GPU's canonical NaN
  return static_cast<unsigned short>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
__GPURUN_DEVICE__ unsigned short __gpurun_f2bf_rz(float f) {
  const unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff;
  return static_cast<unsigned short>(u >> 16);
}
// Toward -inf / +inf: truncation moves toward zero, so a dropped remainder steps the magnitude
// up when the direction is away from zero.
__GPURUN_DEVICE__ unsigned short __gpurun_f2bf_directed(float f, bool up) {
  const unsigned int u = __builtin_bit_cast(unsigned int, f);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    return 0x7fff;
  unsigned short t = static_cast<unsigned short>(u >> 16);
  const bool negative = (u >> 31) != 0;
  if ((u & 0xffffu) != 0 && up != negative)
    ++t;
  return t;
}
__GPURUN_DEVICE__ unsigned short __gpurun_f2bf_rd(float f) {
  return __gpurun_f2bf_directed(f, false);
}
__GPURUN_DEVICE__ unsigned short __gpurun_f2bf_ru(float f) {
  return __gpurun_f2bf_directed(f, true);
}
__GPURUN_DEVICE__ unsigned short __gpurun_d2bf_rn(double d) {
  // Round to float toward zero, keeping a sticky bit so the second rounding sees the remainder.
  float f = __nvvm_d2f_rz(d);
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  if (static_cast<double>(f) != d && (u & 0x7fffffffu) < 0x7f800000u)
    u |= 1u;
  return __gpurun_f2bf(__builtin_bit_cast(float, u));
}
// Directed roundings compose: rounding toward zero (or -inf, +inf) to float first loses nothing.
__GPURUN_DEVICE__ unsigned short __gpurun_d2bf_rz(double d) {
  return __gpurun_f2bf_rz(__nvvm_d2f_rz(d));
}
__GPURUN_DEVICE__ unsigned short __gpurun_d2bf_rd(double d) {
  return __gpurun_f2bf_rd(__nvvm_d2f_rm(d));
}
__GPURUN_DEVICE__ unsigned short __gpurun_d2bf_ru(double d) {
  return __gpurun_f2bf_ru(__nvvm_d2f_rp(d));
}
__GPURUN_DEVICE__ unsigned short __gpurun_bffma(unsigned short a, unsigned short b,
                                                unsigned short c) {
#ifdef __GPURUN_SM80__
  unsigned short d;
  asm("fma.rn.bf16 %0, %1, %2, %3;" : "=h"(d) : "h"(a), "h"(b), "h"(c));
  return d;
#else
  return __gpurun_d2bf_rn(static_cast<double>(__gpurun_bf2f(a)) * __gpurun_bf2f(b) +
                          __gpurun_bf2f(c));
#endif
}

// ---- the __nv_bfloat16 type
// -------------------------------------------------------------------------------
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};

struct __align__(2) __nv_bfloat16 {
  __nv_bfloat16() = default;
  __host__ __device__ constexpr __nv_bfloat16(const __nv_bfloat16_raw& raw) : __x(raw.x) {}
  __host__ __device__ __nv_bfloat16& operator=(const __nv_bfloat16_raw& raw) {
    __x = raw.x;
    return *this;
  }
  __host__ __device__ constexpr operator __nv_bfloat16_raw() const {
    return __nv_bfloat16_raw{__x};
  }
#ifndef __CUDA_NO_BFLOAT16_CONVERSIONS__
  __device__ __nv_bfloat16(float f) : __x(__gpurun_f2bf(f)) {}
  __device__ __nv_bfloat16(double d) : __x(__gpurun_d2bf_rn(d)) {}
  __device__ __nv_bfloat16(int i) : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16(unsigned int i) : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16(short i) : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16(unsigned short i) : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16(long long i) : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16(unsigned long long i)
      : __x(__gpurun_d2bf_rn(__gpurun_int_to_double(i))) {}
  __device__ __nv_bfloat16& operator=(float f) {
    __x = __gpurun_f2bf(f);
    return *this;
  }
  __device__ __nv_bfloat16& operator=(double d) {
    __x = __gpurun_d2bf_rn(d);
    return *this;
  }
  __device__ operator float() const {
    return __gpurun_bf2f(__x);
  }
#endif

  unsigned short __x; // the bits; named as in CUDA's header
};

struct __align__(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat16& a, const __nv_bfloat16& b)
      : x(a), y(b) {}
  __host__ __device__ constexpr __nv_bfloat162(const __nv_bfloat162_raw& raw)
      : x(__nv_bfloat16_raw{raw.x}), y(__nv_bfloat16_raw{raw.y}) {}
  __host__ __device__ constexpr operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{static_cast<__nv_bfloat16_raw>(x).x,
                              static_cast<__nv_bfloat16_raw>(y).x};
  }
};

__GPURUN_DEVICE__ __nv_bfloat16 __gpurun_bf_from_bits(unsigned short bits) {
  return __nv_bfloat16(__nv_bfloat16_raw{bits});
}
__GPURUN_DEVICE__ unsigned short __gpurun_bf_bits(__nv_bfloat16 h) {
  return static_cast<__nv_bfloat16_raw>(h).x;
}
__GPURUN_DEVICE__ float __gpurun_bf_f(__nv_bfloat16 h) {
  return __gpurun_bf2f(__gpurun_bf_bits(h));
}
__GPURUN_DEVICE__ __nv_bfloat16 __gpurun_bf_h(float f) {
  return __gpurun_bf_from_bits(__gpurun_f2bf(f));
}

// ---- conversions --------------------------------------------------------------------------------
__GPURUN_DEVICE__ float __bfloat162float(__nv_bfloat16 h) {
  return __gpurun_bf_f(h);
}
__GPURUN_DEVICE__ __nv_bfloat16 __float2bfloat16(float f) {
  return __gpurun_bf_h(f);
}
__GPURUN_DEVICE__ __nv_bfloat16 __float2bfloat16_rn(float f) {
  return __gpurun_bf_h(f);
}
__GPURUN_DEVICE__ __nv_bfloat16 __float2bfloat16_rz(float f) {
  return __gpurun_bf_from_bits(__gpurun_f2bf_rz(f));
}
__GPURUN_DEVICE__ __nv_bfloat16 __float2bfloat16_rd(float f) {
  return __gpurun_bf_from_bits(__gpurun_f2bf_rd(f));
}
__GPURUN_DEVICE__ __nv_bfloat16 __float2bfloat16_ru(float f) {
  return __gpurun_bf_from_bits(__gpurun_f2bf_ru(f));
}
__GPURUN_DEVICE__ __nv_bfloat16 __double2bfloat16(double d) {
  return __gpurun_bf_from_bits(__gpurun_d2bf_rn(d));
}
__GPURUN_DEVICE__ __nv_bfloat162 __float2bfloat162_rn(float f) {
  return __nv_bfloat162(__float2bfloat16(f), __float2bfloat16(f));
}
__GPURUN_DEVICE__ __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
__GPURUN_DEVICE__ __nv_bfloat162 __float22bfloat162_rn(float2 f) {
  return __nv_bfloat162(__float2bfloat16(f.x), __float2bfloat16(f.y));
}
__GPURUN_DEVICE__ float2 __bfloat1622float2(__nv_bfloat162 h) {
  return float2{__bfloat162float(h.x), __bfloat162float(h.y)};
}
__GPURUN_DEVICE__ float __low2float(__nv_bfloat162 h) {
  return __bfloat162float(h.x);
}
__GPURUN_DEVICE__ float __high2float(__nv_bfloat162 h) {
  return __bfloat162float(h.y);
}

// To integers: a __nv_bfloat16 is exact in float. From integers: exactly or rounded to odd in
// double
// (__gpurun_int_to_double), which the final rounding to __nv_bfloat16 then gets right in every
// mode.
#define __GPURUN_BF16_INT(to_name, from_name, T)                                                   \
  __GPURUN_DEVICE__ T __bfloat162##to_name##_rn(__nv_bfloat16 h) {                                 \
    return static_cast<T>(__builtin_rintf(__gpurun_bf_f(h)));                                      \
  }                                                                                                \
  __GPURUN_DEVICE__ T __bfloat162##to_name##_rz(__nv_bfloat16 h) {                                 \
    return static_cast<T>(__gpurun_bf_f(h));                                                       \
  }                                                                                                \
  __GPURUN_DEVICE__ T __bfloat162##to_name##_rd(__nv_bfloat16 h) {                                 \
    return static_cast<T>(__builtin_floorf(__gpurun_bf_f(h)));                                     \
  }                                                                                                \
  __GPURUN_DEVICE__ T __bfloat162##to_name##_ru(__nv_bfloat16 h) {                                 \
    return static_cast<T>(__builtin_ceilf(__gpurun_bf_f(h)));                                      \
  }                                                                                                \
  __GPURUN_DEVICE__ __nv_bfloat16 __##from_name##2bfloat16_rn(T i) {                               \
    return __gpurun_bf_from_bits(__gpurun_d2bf_rn(__gpurun_int_to_double(i)));                     \
  }                                                                                                \
  __GPURUN_DEVICE__ __nv_bfloat16 __##from_name##2bfloat16_rz(T i) {                               \
    return __gpurun_bf_from_bits(__gpurun_d2bf_rz(__gpurun_int_to_double(i)));                     \
  }                                                                                                \
  __GPURUN_DEVICE__ __nv_bfloat16 __##from_name##2bfloat16_rd(T i) {                               \
    return __gpurun_bf_from_bits(__gpurun_d2bf_rd(__gpurun_int_to_double(i)));                     \
  }                                                                                                \
  __GPURUN_DEVICE__ __nv_bfloat16 __##from_name##2bfloat16_ru(T i) {                               \
    return __gpurun_bf_from_bits(__gpurun_d2bf_ru(__gpurun_int_to_double(i)));                     \
  }
__GPURUN_BF16_INT(int, int, int)
__GPURUN_BF16_INT(uint, uint, unsigned int)
__GPURUN_BF16_INT(short, short, short)
__GPURUN_BF16_INT(ushort, ushort, unsigned short)
__GPURUN_BF16_INT(ll, ll, long long)
__GPURUN_BF16_INT(ull, ull, unsigned long long)
#undef __GPURUN_BF16_INT

__GPURUN_DEVICE__ short __bfloat16_as_short(__nv_bfloat16 h) {
  return static_cast<short>(__gpurun_bf_bits(h));
}
__GPURUN_DEVICE__ unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) {
  return __gpurun_bf_bits(h);
}
__GPURUN_DEVICE__ __nv_bfloat16 __short_as_bfloat16(short s) {
  return __gpurun_bf_from_bits(static_cast<unsigned short>(s));
}
__GPURUN_DEVICE__ __nv_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  return __gpurun_bf_from_bits(s);
}

// ---- arithmetic: in float, rounded once to __nv_bfloat16
// --------------------------------------------------- float has more than 2p+2 bits for
// __nv_bfloat16's p, so an exactly rounded float sum, product or quotient rounds to the same
// __nv_bfloat16 as the exact result would: these match the GPU's own __nv_bfloat16 instructions.
// The float operations carry .rn so that nothing is contracted into an fma between them.
__GPURUN_DEVICE__ __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__fadd_rn(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__fsub_rn(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__fmul_rn(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__fdiv_rn(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hadd_rn(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hadd(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 __hsub_rn(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hsub(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 __hmul_rn(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __hmul(a, b);
}
// A fused multiply-add is not a basic operation for that argument: the GPU's own fma.
__GPURUN_DEVICE__ __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __gpurun_bf_from_bits(
      __gpurun_bffma(__gpurun_bf_bits(a), __gpurun_bf_bits(b), __gpurun_bf_bits(c)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __gpurun_bf_sat(__nv_bfloat16 h) {
  return __gpurun_bf_h(__saturatef(__gpurun_bf_f(h)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_sat(__hadd(a, b));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_sat(__hsub(a, b));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_sat(__hmul(a, b));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) {
  return __gpurun_bf_sat(__hfma(a, b, c));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hneg(__nv_bfloat16 a) {
  return __gpurun_bf_from_bits(static_cast<unsigned short>(__gpurun_bf_bits(a) ^ 0x8000u));
}
__GPURUN_DEVICE__ __nv_bfloat16 __habs(__nv_bfloat16 a) {
  return __gpurun_bf_from_bits(static_cast<unsigned short>(__gpurun_bf_bits(a) & 0x7fffu));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__builtin_fminf(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}
__GPURUN_DEVICE__ __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __gpurun_bf_h(__builtin_fmaxf(__gpurun_bf_f(a), __gpurun_bf_f(b)));
}

// ---- comparisons: exact in float; the ...u forms are true for unordered operands ----------------
#define __GPURUN_BF16_CMP(name, expr)                                                              \
  __GPURUN_DEVICE__ bool name(__nv_bfloat16 ha, __nv_bfloat16 hb) {                                \
    const float a = __gpurun_bf_f(ha), b = __gpurun_bf_f(hb);                                      \
    return expr;                                                                                   \
  }
__GPURUN_BF16_CMP(__heq, a == b)
__GPURUN_BF16_CMP(__hne, a<b || a> b)
__GPURUN_BF16_CMP(__hlt, a < b)
__GPURUN_BF16_CMP(__hle, a <= b)
__GPURUN_BF16_CMP(__hgt, a > b)
__GPURUN_BF16_CMP(__hge, a >= b)
__GPURUN_BF16_CMP(__hequ, !(a < b || a > b))
__GPURUN_BF16_CMP(__hneu, !(a == b))
__GPURUN_BF16_CMP(__hltu, !(a >= b))
__GPURUN_BF16_CMP(__hleu, !(a > b))
__GPURUN_BF16_CMP(__hgtu, !(a <= b))
__GPURUN_BF16_CMP(__hgeu, !(a < b))
#undef __GPURUN_BF16_CMP
__GPURUN_DEVICE__ bool __hisnan(__nv_bfloat16 a) {
  return __builtin_isnan(__gpurun_bf_f(a));
}
__GPURUN_DEVICE__ int __hisinf(__nv_bfloat16 a) {
  const float f = __gpurun_bf_f(a);
  return __builtin_isinf(f) ? (f < 0 ? -1 : 1) : 0;
}

// ---- functions: the float function, rounded to __nv_bfloat16
// -----------------------------------------------
#define __GPURUN_BF16_FN(name, expr)                                                               \
  __GPURUN_DEVICE__ __nv_bfloat16 name(__nv_bfloat16 h) {                                          \
    const float x = __gpurun_bf_f(h);                                                              \
    return __gpurun_bf_h(expr);                                                                    \
  }
__GPURUN_BF16_FN(hsqrt, __fsqrt_rn(x))
__GPURUN_BF16_FN(hrsqrt, rsqrtf(x))
__GPURUN_BF16_FN(hrcp, __frcp_rn(x))
__GPURUN_BF16_FN(hexp, expf(x))
__GPURUN_BF16_FN(hexp2, exp2f(x))
__GPURUN_BF16_FN(hexp10, exp10f(x))
__GPURUN_BF16_FN(hlog, logf(x))
__GPURUN_BF16_FN(hlog2, log2f(x))
__GPURUN_BF16_FN(hlog10, log10f(x))
__GPURUN_BF16_FN(hsin, sinf(x))
__GPURUN_BF16_FN(hcos, cosf(x))
__GPURUN_BF16_FN(htanh, tanhf(x))
__GPURUN_BF16_FN(hfloor, __builtin_floorf(x))
__GPURUN_BF16_FN(hceil, __builtin_ceilf(x))
__GPURUN_BF16_FN(htrunc, __builtin_truncf(x))
__GPURUN_BF16_FN(hrint, __builtin_rintf(x))
#undef __GPURUN_BF16_FN

// ---- operators --------------------------------------------------------------------------------
#ifndef __CUDA_NO_BFLOAT16_OPERATORS__
__GPURUN_DEVICE__ __nv_bfloat16 operator+(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hadd(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 operator-(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hsub(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 operator*(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hmul(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 operator/(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hdiv(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16& operator+=(__nv_bfloat16& a, const __nv_bfloat16& b) {
  return a = __hadd(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16& operator-=(__nv_bfloat16& a, const __nv_bfloat16& b) {
  return a = __hsub(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16& operator*=(__nv_bfloat16& a, const __nv_bfloat16& b) {
  return a = __hmul(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16& operator/=(__nv_bfloat16& a, const __nv_bfloat16& b) {
  return a = __hdiv(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat16 operator+(const __nv_bfloat16& a) {
  return a;
}
__GPURUN_DEVICE__ __nv_bfloat16 operator-(const __nv_bfloat16& a) {
  return __hneg(a);
}
__GPURUN_DEVICE__ __nv_bfloat16& operator++(__nv_bfloat16& a) {
  return a = __hadd(a, __gpurun_bf_h(1.0f));
}
__GPURUN_DEVICE__ __nv_bfloat16& operator--(__nv_bfloat16& a) {
  return a = __hsub(a, __gpurun_bf_h(1.0f));
}
__GPURUN_DEVICE__ __nv_bfloat16 operator++(__nv_bfloat16& a, int) {
  __nv_bfloat16 old = a;
  ++a;
  return old;
}
__GPURUN_DEVICE__ __nv_bfloat16 operator--(__nv_bfloat16& a, int) {
  __nv_bfloat16 old = a;
  --a;
  return old;
}
__GPURUN_DEVICE__ bool operator==(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __heq(a, b);
}
__GPURUN_DEVICE__ bool operator!=(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hneu(a, b);
}
__GPURUN_DEVICE__ bool operator<(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hlt(a, b);
}
__GPURUN_DEVICE__ bool operator<=(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hle(a, b);
}
__GPURUN_DEVICE__ bool operator>(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hgt(a, b);
}
__GPURUN_DEVICE__ bool operator>=(const __nv_bfloat16& a, const __nv_bfloat16& b) {
  return __hge(a, b);
}
#endif

// ---- pairs --------------------------------------------------------------------------------------
__GPURUN_DEVICE__ __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) {
  return __nv_bfloat162(a, a);
}
__GPURUN_DEVICE__ __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) {
  return h.x;
}
__GPURUN_DEVICE__ __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) {
  return h.y;
}
__GPURUN_DEVICE__ __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.x, b.x);
}
__GPURUN_DEVICE__ __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) {
  return __nv_bfloat162(a.y, b.y);
}
__GPURUN_DEVICE__ __nv_bfloat162 __low2bfloat162(__nv_bfloat162 h) {
  return __nv_bfloat162(h.x, h.x);
}
__GPURUN_DEVICE__ __nv_bfloat162 __high2bfloat162(__nv_bfloat162 h) {
  return __nv_bfloat162(h.y, h.y);
}
__GPURUN_DEVICE__ __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 h) {
  return __nv_bfloat162(h.y, h.x);
}
__GPURUN_DEVICE__ __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) {
  return __nv_bfloat162(a, b);
}
#define __GPURUN_BF16_PAIR2(name, one)                                                             \
  __GPURUN_DEVICE__ __nv_bfloat162 name(__nv_bfloat162 a, __nv_bfloat162 b) {                      \
    return __nv_bfloat162(one(a.x, b.x), one(a.y, b.y));                                           \
  }
__GPURUN_BF16_PAIR2(__hadd2, __hadd)
__GPURUN_BF16_PAIR2(__hsub2, __hsub)
__GPURUN_BF16_PAIR2(__hmul2, __hmul)
__GPURUN_BF16_PAIR2(__h2div, __hdiv)
__GPURUN_BF16_PAIR2(__hadd2_sat, __hadd_sat)
__GPURUN_BF16_PAIR2(__hsub2_sat, __hsub_sat)
__GPURUN_BF16_PAIR2(__hmul2_sat, __hmul_sat)
__GPURUN_BF16_PAIR2(__hmin2, __hmin)
__GPURUN_BF16_PAIR2(__hmax2, __hmax)
#undef __GPURUN_BF16_PAIR2
__GPURUN_DEVICE__ __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c) {
  return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__GPURUN_DEVICE__ __nv_bfloat162 __hneg2(__nv_bfloat162 a) {
  return __nv_bfloat162(__hneg(a.x), __hneg(a.y));
}
__GPURUN_DEVICE__ __nv_bfloat162 __habs2(__nv_bfloat162 a) {
  return __nv_bfloat162(__habs(a.x), __habs(a.y));
}
#ifndef __CUDA_NO_BFLOAT16_OPERATORS__
__GPURUN_DEVICE__ __nv_bfloat162 operator+(const __nv_bfloat162& a, const __nv_bfloat162& b) {
  return __hadd2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162 operator-(const __nv_bfloat162& a, const __nv_bfloat162& b) {
  return __hsub2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162 operator*(const __nv_bfloat162& a, const __nv_bfloat162& b) {
  return __hmul2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162 operator/(const __nv_bfloat162& a, const __nv_bfloat162& b) {
  return __h2div(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162& operator+=(__nv_bfloat162& a, const __nv_bfloat162& b) {
  return a = __hadd2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162& operator-=(__nv_bfloat162& a, const __nv_bfloat162& b) {
  return a = __hsub2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162& operator*=(__nv_bfloat162& a, const __nv_bfloat162& b) {
  return a = __hmul2(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162& operator/=(__nv_bfloat162& a, const __nv_bfloat162& b) {
  return a = __h2div(a, b);
}
__GPURUN_DEVICE__ __nv_bfloat162 operator-(const __nv_bfloat162& a) {
  return __hneg2(a);
}
#endif

// ---- warp shuffles, loads and atomics -----------------------------------------------------------
#define __GPURUN_BF16_SHFL(name)                                                                   \
  __GPURUN_DEVICE__ __nv_bfloat16 name(unsigned int mask, __nv_bfloat16 var, int lane,             \
                                       int width = warpSize) {                                     \
    return __gpurun_bf_from_bits(static_cast<unsigned short>(                                      \
        name(mask, static_cast<unsigned int>(__gpurun_bf_bits(var)), lane, width)));               \
  }                                                                                                \
  __GPURUN_DEVICE__ __nv_bfloat162 name(unsigned int mask, __nv_bfloat162 var, int lane,           \
                                        int width = warpSize) {                                    \
    const __nv_bfloat162_raw raw = var;                                                            \
    const unsigned int bits =                                                                      \
        name(mask, raw.x | (static_cast<unsigned int>(raw.y) << 16), lane, width);                 \
    return __nv_bfloat162(__nv_bfloat162_raw{static_cast<unsigned short>(bits),                    \
                                             static_cast<unsigned short>(bits >> 16)});            \
  }
__GPURUN_BF16_SHFL(__shfl_sync)
__GPURUN_BF16_SHFL(__shfl_up_sync)
__GPURUN_BF16_SHFL(__shfl_down_sync)
__GPURUN_BF16_SHFL(__shfl_xor_sync)
#undef __GPURUN_BF16_SHFL

// A compare-and-swap loop: on the half itself from sm_70 (atom.cas.b16), before it on the
// aligned 32-bit word that holds it.
__GPURUN_DEVICE__ __nv_bfloat16 atomicAdd(__nv_bfloat16* address, __nv_bfloat16 value) {
#if __CUDA_ARCH__ >= 700
  unsigned short seen = __gpurun_bf_bits(*address), expected;
  do {
    expected = seen;
    const unsigned short next = __gpurun_bf_bits(__hadd(__gpurun_bf_from_bits(expected), value));
    asm volatile("atom.cas.b16 %0, [%1], %2, %3;"
                 : "=h"(seen)
                 : "l"(address), "h"(expected), "h"(next)
                 : "memory");
  } while (seen != expected);
  return __gpurun_bf_from_bits(seen);
#else
  const unsigned long long where = reinterpret_cast<unsigned long long>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(where & ~3ull);
  const unsigned int shift = (where & 2u) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const __nv_bfloat16 sum =
        __hadd(__gpurun_bf_from_bits(static_cast<unsigned short>(assumed >> shift)), value);
    const unsigned int next = (assumed & ~(0xffffu << shift)) |
                              (static_cast<unsigned int>(__gpurun_bf_bits(sum)) << shift);
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  return __gpurun_bf_from_bits(static_cast<unsigned short>(old >> shift));
#endif
}

// Both halves added in one compare-and-swap loop on their 32-bit word (sm_60's atomicAdd).
__GPURUN_DEVICE__ __nv_bfloat162 atomicAdd(__nv_bfloat162* address, __nv_bfloat162 value) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    __nv_bfloat162 current;
    __builtin_memcpy(&current, &assumed, sizeof current);
    const __nv_bfloat162 sum = __hadd2(current, value);
    unsigned int next;
    __builtin_memcpy(&next, &sum, sizeof next);
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  __nv_bfloat162 result;
  __builtin_memcpy(&result, &old, sizeof result);
  return result;
}

// CUDA's own spellings for the bfloat16 type.
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
