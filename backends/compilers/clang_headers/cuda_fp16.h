// <cuda_fp16.h> for gpurun's clang layer: __half and __half2 with CUDA's names. Conversions are
// the GPU's cvt instructions; arithmetic is done in float and rounded once (see below), which
// gives the results of the GPU's f16 instructions; __hfma is fma.rn.f16.
#pragma once
#include "__gpurun_atomic.h"
#include "__gpurun_defs.h"
#include "__gpurun_intrinsics.h"
#include "__gpurun_math.h"
#include "__gpurun_warp.h"
#include "vector_types.h"

#define __GPURUN_F16_CVT(name, mode)                                                               \
  __GPURUN_DEVICE__ unsigned short name(float f) {                                                 \
    unsigned short h;                                                                              \
    asm("cvt." mode ".f16.f32 %0, %1;" : "=h"(h) : "f"(f));                                        \
    return h;                                                                                      \
  }
__GPURUN_F16_CVT(__gpurun_f2h, "rn")
__GPURUN_F16_CVT(__gpurun_f2h_rz, "rz")
__GPURUN_F16_CVT(__gpurun_f2h_rd, "rm")
__GPURUN_F16_CVT(__gpurun_f2h_ru, "rp")
#undef __GPURUN_F16_CVT
#define __GPURUN_F16_CVT_D(name, mode)                                                             \
  __GPURUN_DEVICE__ unsigned short name(double d) {                                                \
    unsigned short h;                                                                              \
    asm("cvt." mode ".f16.f64 %0, %1;" : "=h"(h) : "d"(d));                                        \
    return h;                                                                                      \
  }
__GPURUN_F16_CVT_D(__gpurun_d2h_rn, "rn")
__GPURUN_F16_CVT_D(__gpurun_d2h_rz, "rz")
__GPURUN_F16_CVT_D(__gpurun_d2h_rd, "rm")
__GPURUN_F16_CVT_D(__gpurun_d2h_ru, "rp")
#undef __GPURUN_F16_CVT_D
// Integers up to 32 bits are exact in double; wider ones are truncated and their lowest bit set
// when anything was dropped (rounding to odd), so that rounding the double to a 16-bit format
// gives the same result as rounding the integer itself.
__GPURUN_DEVICE__ double __gpurun_int_to_double(int i) {
  return i;
}
__GPURUN_DEVICE__ double __gpurun_int_to_double(unsigned int i) {
  return i;
}
__GPURUN_DEVICE__ double __gpurun_int_to_double(short i) {
  return i;
}
__GPURUN_DEVICE__ double __gpurun_int_to_double(unsigned short i) {
  return i;
}
__GPURUN_DEVICE__ double __gpurun_int_to_double(long long i) {
  const double d = __nvvm_ll2d_rz(i);
  if (static_cast<long long>(d) == i)
    return d;
  return __builtin_bit_cast(double, __builtin_bit_cast(unsigned long long, d) | 1ull);
}
__GPURUN_DEVICE__ double __gpurun_int_to_double(unsigned long long i) {
  const double d = __nvvm_ull2d_rz(i);
  if (static_cast<unsigned long long>(d) == i)
    return d;
  return __builtin_bit_cast(double, __builtin_bit_cast(unsigned long long, d) | 1ull);
}
__GPURUN_DEVICE__ float __gpurun_h2f(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
__GPURUN_DEVICE__ unsigned short __gpurun_hfma(unsigned short a, unsigned short b,
                                               unsigned short c) {
  unsigned short d;
  asm("fma.rn.f16 %0, %1, %2, %3;" : "=h"(d) : "h"(a), "h"(b), "h"(c));
  return d;
}

// ---- the __half type
// -------------------------------------------------------------------------------
struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};

struct __align__(2) __half {
  __half() = default;
  __host__ __device__ constexpr __half(const __half_raw& raw) : __x(raw.x) {}
  __host__ __device__ __half& operator=(const __half_raw& raw) {
    __x = raw.x;
    return *this;
  }
  __host__ __device__ constexpr operator __half_raw() const {
    return __half_raw{__x};
  }
#ifndef __CUDA_NO_HALF_CONVERSIONS__
  __device__ __half(float f) : __x(__gpurun_f2h(f)) {}
  __device__ __half(double d) : __x(__gpurun_d2h_rn(d)) {}
  __device__ __half(int i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half(unsigned int i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half(short i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half(unsigned short i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half(long long i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half(unsigned long long i) : __x(__gpurun_d2h_rn(__gpurun_int_to_double(i))) {}
  __device__ __half& operator=(float f) {
    __x = __gpurun_f2h(f);
    return *this;
  }
  __device__ __half& operator=(double d) {
    __x = __gpurun_d2h_rn(d);
    return *this;
  }
  __device__ operator float() const {
    return __gpurun_h2f(__x);
  }
#endif

  unsigned short __x; // the bits; named as in CUDA's header
};

struct __align__(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __host__ __device__ constexpr __half2(const __half2_raw& raw)
      : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  __host__ __device__ constexpr operator __half2_raw() const {
    return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x};
  }
};

__GPURUN_DEVICE__ __half __gpurun_h_from_bits(unsigned short bits) {
  return __half(__half_raw{bits});
}
__GPURUN_DEVICE__ unsigned short __gpurun_h_bits(__half h) {
  return static_cast<__half_raw>(h).x;
}
__GPURUN_DEVICE__ float __gpurun_h_f(__half h) {
  return __gpurun_h2f(__gpurun_h_bits(h));
}
__GPURUN_DEVICE__ __half __gpurun_h_h(float f) {
  return __gpurun_h_from_bits(__gpurun_f2h(f));
}

// ---- conversions --------------------------------------------------------------------------------
__GPURUN_DEVICE__ float __half2float(__half h) {
  return __gpurun_h_f(h);
}
__GPURUN_DEVICE__ __half __float2half(float f) {
  return __gpurun_h_h(f);
}
__GPURUN_DEVICE__ __half __float2half_rn(float f) {
  return __gpurun_h_h(f);
}
__GPURUN_DEVICE__ __half __float2half_rz(float f) {
  return __gpurun_h_from_bits(__gpurun_f2h_rz(f));
}
__GPURUN_DEVICE__ __half __float2half_rd(float f) {
  return __gpurun_h_from_bits(__gpurun_f2h_rd(f));
}
__GPURUN_DEVICE__ __half __float2half_ru(float f) {
  return __gpurun_h_from_bits(__gpurun_f2h_ru(f));
}
__GPURUN_DEVICE__ __half __double2half(double d) {
  return __gpurun_h_from_bits(__gpurun_d2h_rn(d));
}
__GPURUN_DEVICE__ __half2 __float2half2_rn(float f) {
  return __half2(__float2half(f), __float2half(f));
}
__GPURUN_DEVICE__ __half2 __floats2half2_rn(float a, float b) {
  return __half2(__float2half(a), __float2half(b));
}
__GPURUN_DEVICE__ __half2 __float22half2_rn(float2 f) {
  return __half2(__float2half(f.x), __float2half(f.y));
}
__GPURUN_DEVICE__ float2 __half22float2(__half2 h) {
  return float2{__half2float(h.x), __half2float(h.y)};
}
__GPURUN_DEVICE__ float __low2float(__half2 h) {
  return __half2float(h.x);
}
__GPURUN_DEVICE__ float __high2float(__half2 h) {
  return __half2float(h.y);
}

// To integers: a __half is exact in float. From integers: exactly or rounded to odd in double
// (__gpurun_int_to_double), which the final rounding to __half then gets right in every mode.
#define __GPURUN_F16_INT(to_name, from_name, T)                                                    \
  __GPURUN_DEVICE__ T __half2##to_name##_rn(__half h) {                                            \
    return static_cast<T>(__builtin_rintf(__gpurun_h_f(h)));                                       \
  }                                                                                                \
  __GPURUN_DEVICE__ T __half2##to_name##_rz(__half h) {                                            \
    return static_cast<T>(__gpurun_h_f(h));                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ T __half2##to_name##_rd(__half h) {                                            \
    return static_cast<T>(__builtin_floorf(__gpurun_h_f(h)));                                      \
  }                                                                                                \
  __GPURUN_DEVICE__ T __half2##to_name##_ru(__half h) {                                            \
    return static_cast<T>(__builtin_ceilf(__gpurun_h_f(h)));                                       \
  }                                                                                                \
  __GPURUN_DEVICE__ __half __##from_name##2half_rn(T i) {                                          \
    return __gpurun_h_from_bits(__gpurun_d2h_rn(__gpurun_int_to_double(i)));                       \
  }                                                                                                \
  __GPURUN_DEVICE__ __half __##from_name##2half_rz(T i) {                                          \
    return __gpurun_h_from_bits(__gpurun_d2h_rz(__gpurun_int_to_double(i)));                       \
  }                                                                                                \
  __GPURUN_DEVICE__ __half __##from_name##2half_rd(T i) {                                          \
    return __gpurun_h_from_bits(__gpurun_d2h_rd(__gpurun_int_to_double(i)));                       \
  }                                                                                                \
  __GPURUN_DEVICE__ __half __##from_name##2half_ru(T i) {                                          \
    return __gpurun_h_from_bits(__gpurun_d2h_ru(__gpurun_int_to_double(i)));                       \
  }
__GPURUN_F16_INT(int, int, int)
__GPURUN_F16_INT(uint, uint, unsigned int)
__GPURUN_F16_INT(short, short, short)
__GPURUN_F16_INT(ushort, ushort, unsigned short)
__GPURUN_F16_INT(ll, ll, long long)
__GPURUN_F16_INT(ull, ull, unsigned long long)
#undef __GPURUN_F16_INT

__GPURUN_DEVICE__ short __half_as_short(__half h) {
  return static_cast<short>(__gpurun_h_bits(h));
}
__GPURUN_DEVICE__ unsigned short __half_as_ushort(__half h) {
  return __gpurun_h_bits(h);
}
__GPURUN_DEVICE__ __half __short_as_half(short s) {
  return __gpurun_h_from_bits(static_cast<unsigned short>(s));
}
__GPURUN_DEVICE__ __half __ushort_as_half(unsigned short s) {
  return __gpurun_h_from_bits(s);
}

// ---- arithmetic: in float, rounded once to __half
// --------------------------------------------------- float has more than 2p+2 bits for __half's p,
// so an exactly rounded float sum, product or quotient rounds to the same __half as the exact
// result would: these match the GPU's own __half instructions. The float operations carry .rn so
// that nothing is contracted into an fma between them.
__GPURUN_DEVICE__ __half __hadd(__half a, __half b) {
  return __gpurun_h_h(__fadd_rn(__gpurun_h_f(a), __gpurun_h_f(b)));
}
__GPURUN_DEVICE__ __half __hsub(__half a, __half b) {
  return __gpurun_h_h(__fsub_rn(__gpurun_h_f(a), __gpurun_h_f(b)));
}
__GPURUN_DEVICE__ __half __hmul(__half a, __half b) {
  return __gpurun_h_h(__fmul_rn(__gpurun_h_f(a), __gpurun_h_f(b)));
}
__GPURUN_DEVICE__ __half __hdiv(__half a, __half b) {
  return __gpurun_h_h(__fdiv_rn(__gpurun_h_f(a), __gpurun_h_f(b)));
}
__GPURUN_DEVICE__ __half __hadd_rn(__half a, __half b) {
  return __hadd(a, b);
}
__GPURUN_DEVICE__ __half __hsub_rn(__half a, __half b) {
  return __hsub(a, b);
}
__GPURUN_DEVICE__ __half __hmul_rn(__half a, __half b) {
  return __hmul(a, b);
}
// A fused multiply-add is not a basic operation for that argument: the GPU's own fma.
__GPURUN_DEVICE__ __half __hfma(__half a, __half b, __half c) {
  return __gpurun_h_from_bits(
      __gpurun_hfma(__gpurun_h_bits(a), __gpurun_h_bits(b), __gpurun_h_bits(c)));
}
__GPURUN_DEVICE__ __half __gpurun_h_sat(__half h) {
  return __gpurun_h_h(__saturatef(__gpurun_h_f(h)));
}
__GPURUN_DEVICE__ __half __hadd_sat(__half a, __half b) {
  return __gpurun_h_sat(__hadd(a, b));
}
__GPURUN_DEVICE__ __half __hsub_sat(__half a, __half b) {
  return __gpurun_h_sat(__hsub(a, b));
}
__GPURUN_DEVICE__ __half __hmul_sat(__half a, __half b) {
  return __gpurun_h_sat(__hmul(a, b));
}
__GPURUN_DEVICE__ __half __hfma_sat(__half a, __half b, __half c) {
  return __gpurun_h_sat(__hfma(a, b, c));
}
__GPURUN_DEVICE__ __half __hneg(__half a) {
  return __gpurun_h_from_bits(static_cast<unsigned short>(__gpurun_h_bits(a) ^ 0x8000u));
}
__GPURUN_DEVICE__ __half __habs(__half a) {
  return __gpurun_h_from_bits(static_cast<unsigned short>(__gpurun_h_bits(a) & 0x7fffu));
}
__GPURUN_DEVICE__ __half __hmin(__half a, __half b) {
  return __gpurun_h_h(__builtin_fminf(__gpurun_h_f(a), __gpurun_h_f(b)));
}
__GPURUN_DEVICE__ __half __hmax(__half a, __half b) {
  return __gpurun_h_h(__builtin_fmaxf(__gpurun_h_f(a), __gpurun_h_f(b)));
}

// ---- comparisons: exact in float; the ...u forms are true for unordered operands ----------------
#define __GPURUN_F16_CMP(name, expr)                                                               \
  __GPURUN_DEVICE__ bool name(__half ha, __half hb) {                                              \
    const float a = __gpurun_h_f(ha), b = __gpurun_h_f(hb);                                        \
    return expr;                                                                                   \
  }
__GPURUN_F16_CMP(__heq, a == b)
__GPURUN_F16_CMP(__hne, a<b || a> b)
__GPURUN_F16_CMP(__hlt, a < b)
__GPURUN_F16_CMP(__hle, a <= b)
__GPURUN_F16_CMP(__hgt, a > b)
__GPURUN_F16_CMP(__hge, a >= b)
__GPURUN_F16_CMP(__hequ, !(a < b || a > b))
__GPURUN_F16_CMP(__hneu, !(a == b))
__GPURUN_F16_CMP(__hltu, !(a >= b))
__GPURUN_F16_CMP(__hleu, !(a > b))
__GPURUN_F16_CMP(__hgtu, !(a <= b))
__GPURUN_F16_CMP(__hgeu, !(a < b))
#undef __GPURUN_F16_CMP
__GPURUN_DEVICE__ bool __hisnan(__half a) {
  return __builtin_isnan(__gpurun_h_f(a));
}
__GPURUN_DEVICE__ int __hisinf(__half a) {
  const float f = __gpurun_h_f(a);
  return __builtin_isinf(f) ? (f < 0 ? -1 : 1) : 0;
}

// ---- functions: the float function, rounded to __half
// -----------------------------------------------
#define __GPURUN_F16_FN(name, expr)                                                                \
  __GPURUN_DEVICE__ __half name(__half h) {                                                        \
    const float x = __gpurun_h_f(h);                                                               \
    return __gpurun_h_h(expr);                                                                     \
  }
__GPURUN_F16_FN(hsqrt, __fsqrt_rn(x))
__GPURUN_F16_FN(hrsqrt, rsqrtf(x))
__GPURUN_F16_FN(hrcp, __frcp_rn(x))
__GPURUN_F16_FN(hexp, expf(x))
__GPURUN_F16_FN(hexp2, exp2f(x))
__GPURUN_F16_FN(hexp10, exp10f(x))
__GPURUN_F16_FN(hlog, logf(x))
__GPURUN_F16_FN(hlog2, log2f(x))
__GPURUN_F16_FN(hlog10, log10f(x))
__GPURUN_F16_FN(hsin, sinf(x))
__GPURUN_F16_FN(hcos, cosf(x))
__GPURUN_F16_FN(htanh, tanhf(x))
__GPURUN_F16_FN(hfloor, __builtin_floorf(x))
__GPURUN_F16_FN(hceil, __builtin_ceilf(x))
__GPURUN_F16_FN(htrunc, __builtin_truncf(x))
__GPURUN_F16_FN(hrint, __builtin_rintf(x))
#undef __GPURUN_F16_FN

// ---- operators --------------------------------------------------------------------------------
#ifndef __CUDA_NO_HALF_OPERATORS__
__GPURUN_DEVICE__ __half operator+(const __half& a, const __half& b) {
  return __hadd(a, b);
}
__GPURUN_DEVICE__ __half operator-(const __half& a, const __half& b) {
  return __hsub(a, b);
}
__GPURUN_DEVICE__ __half operator*(const __half& a, const __half& b) {
  return __hmul(a, b);
}
__GPURUN_DEVICE__ __half operator/(const __half& a, const __half& b) {
  return __hdiv(a, b);
}
__GPURUN_DEVICE__ __half& operator+=(__half& a, const __half& b) {
  return a = __hadd(a, b);
}
__GPURUN_DEVICE__ __half& operator-=(__half& a, const __half& b) {
  return a = __hsub(a, b);
}
__GPURUN_DEVICE__ __half& operator*=(__half& a, const __half& b) {
  return a = __hmul(a, b);
}
__GPURUN_DEVICE__ __half& operator/=(__half& a, const __half& b) {
  return a = __hdiv(a, b);
}
__GPURUN_DEVICE__ __half operator+(const __half& a) {
  return a;
}
__GPURUN_DEVICE__ __half operator-(const __half& a) {
  return __hneg(a);
}
__GPURUN_DEVICE__ __half& operator++(__half& a) {
  return a = __hadd(a, __gpurun_h_h(1.0f));
}
__GPURUN_DEVICE__ __half& operator--(__half& a) {
  return a = __hsub(a, __gpurun_h_h(1.0f));
}
__GPURUN_DEVICE__ __half operator++(__half& a, int) {
  __half old = a;
  ++a;
  return old;
}
__GPURUN_DEVICE__ __half operator--(__half& a, int) {
  __half old = a;
  --a;
  return old;
}
__GPURUN_DEVICE__ bool operator==(const __half& a, const __half& b) {
  return __heq(a, b);
}
__GPURUN_DEVICE__ bool operator!=(const __half& a, const __half& b) {
  return __hneu(a, b);
}
__GPURUN_DEVICE__ bool operator<(const __half& a, const __half& b) {
  return __hlt(a, b);
}
__GPURUN_DEVICE__ bool operator<=(const __half& a, const __half& b) {
  return __hle(a, b);
}
__GPURUN_DEVICE__ bool operator>(const __half& a, const __half& b) {
  return __hgt(a, b);
}
__GPURUN_DEVICE__ bool operator>=(const __half& a, const __half& b) {
  return __hge(a, b);
}
#endif

// ---- pairs --------------------------------------------------------------------------------------
__GPURUN_DEVICE__ __half2 __halves2half2(__half a, __half b) {
  return __half2(a, b);
}
__GPURUN_DEVICE__ __half2 __half2half2(__half a) {
  return __half2(a, a);
}
__GPURUN_DEVICE__ __half __low2half(__half2 h) {
  return h.x;
}
__GPURUN_DEVICE__ __half __high2half(__half2 h) {
  return h.y;
}
__GPURUN_DEVICE__ __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
__GPURUN_DEVICE__ __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}
__GPURUN_DEVICE__ __half2 __low2half2(__half2 h) {
  return __half2(h.x, h.x);
}
__GPURUN_DEVICE__ __half2 __high2half2(__half2 h) {
  return __half2(h.y, h.y);
}
__GPURUN_DEVICE__ __half2 __lowhigh2highlow(__half2 h) {
  return __half2(h.y, h.x);
}
__GPURUN_DEVICE__ __half2 make_half2(__half a, __half b) {
  return __half2(a, b);
}
#define __GPURUN_F16_PAIR2(name, one)                                                              \
  __GPURUN_DEVICE__ __half2 name(__half2 a, __half2 b) {                                           \
    return __half2(one(a.x, b.x), one(a.y, b.y));                                                  \
  }
__GPURUN_F16_PAIR2(__hadd2, __hadd)
__GPURUN_F16_PAIR2(__hsub2, __hsub)
__GPURUN_F16_PAIR2(__hmul2, __hmul)
__GPURUN_F16_PAIR2(__h2div, __hdiv)
__GPURUN_F16_PAIR2(__hadd2_sat, __hadd_sat)
__GPURUN_F16_PAIR2(__hsub2_sat, __hsub_sat)
__GPURUN_F16_PAIR2(__hmul2_sat, __hmul_sat)
__GPURUN_F16_PAIR2(__hmin2, __hmin)
__GPURUN_F16_PAIR2(__hmax2, __hmax)
#undef __GPURUN_F16_PAIR2
__GPURUN_DEVICE__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__GPURUN_DEVICE__ __half2 __hneg2(__half2 a) {
  return __half2(__hneg(a.x), __hneg(a.y));
}
__GPURUN_DEVICE__ __half2 __habs2(__half2 a) {
  return __half2(__habs(a.x), __habs(a.y));
}
#ifndef __CUDA_NO_HALF_OPERATORS__
__GPURUN_DEVICE__ __half2 operator+(const __half2& a, const __half2& b) {
  return __hadd2(a, b);
}
__GPURUN_DEVICE__ __half2 operator-(const __half2& a, const __half2& b) {
  return __hsub2(a, b);
}
__GPURUN_DEVICE__ __half2 operator*(const __half2& a, const __half2& b) {
  return __hmul2(a, b);
}
__GPURUN_DEVICE__ __half2 operator/(const __half2& a, const __half2& b) {
  return __h2div(a, b);
}
__GPURUN_DEVICE__ __half2& operator+=(__half2& a, const __half2& b) {
  return a = __hadd2(a, b);
}
__GPURUN_DEVICE__ __half2& operator-=(__half2& a, const __half2& b) {
  return a = __hsub2(a, b);
}
__GPURUN_DEVICE__ __half2& operator*=(__half2& a, const __half2& b) {
  return a = __hmul2(a, b);
}
__GPURUN_DEVICE__ __half2& operator/=(__half2& a, const __half2& b) {
  return a = __h2div(a, b);
}
__GPURUN_DEVICE__ __half2 operator-(const __half2& a) {
  return __hneg2(a);
}
#endif

// ---- warp shuffles, loads and atomics -----------------------------------------------------------
#define __GPURUN_F16_SHFL(name)                                                                    \
  __GPURUN_DEVICE__ __half name(unsigned int mask, __half var, int lane, int width = warpSize) {   \
    return __gpurun_h_from_bits(static_cast<unsigned short>(                                       \
        name(mask, static_cast<unsigned int>(__gpurun_h_bits(var)), lane, width)));                \
  }                                                                                                \
  __GPURUN_DEVICE__ __half2 name(unsigned int mask, __half2 var, int lane, int width = warpSize) { \
    const __half2_raw raw = var;                                                                   \
    const unsigned int bits =                                                                      \
        name(mask, raw.x | (static_cast<unsigned int>(raw.y) << 16), lane, width);                 \
    return __half2(                                                                                \
        __half2_raw{static_cast<unsigned short>(bits), static_cast<unsigned short>(bits >> 16)});  \
  }
__GPURUN_F16_SHFL(__shfl_sync)
__GPURUN_F16_SHFL(__shfl_up_sync)
__GPURUN_F16_SHFL(__shfl_down_sync)
__GPURUN_F16_SHFL(__shfl_xor_sync)
#undef __GPURUN_F16_SHFL

// sm_70's atom.add.noftz.f16; before it, a compare-and-swap loop on the aligned 32-bit word that
// holds the half.
__GPURUN_DEVICE__ __half atomicAdd(__half* address, __half value) {
#if __CUDA_ARCH__ >= 700
  unsigned short prior;
  asm volatile("atom.add.noftz.f16 %0, [%1], %2;"
               : "=h"(prior)
               : "l"(address), "h"(__gpurun_h_bits(value))
               : "memory");
  return __gpurun_h_from_bits(prior);
#else
  const unsigned long long where = reinterpret_cast<unsigned long long>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(where & ~3ull);
  const unsigned int shift = (where & 2u) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const __half sum =
        __hadd(__gpurun_h_from_bits(static_cast<unsigned short>(assumed >> shift)), value);
    const unsigned int next = (assumed & ~(0xffffu << shift)) |
                              (static_cast<unsigned int>(__gpurun_h_bits(sum)) << shift);
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  return __gpurun_h_from_bits(static_cast<unsigned short>(old >> shift));
#endif
}

// Both halves added in one compare-and-swap loop on their 32-bit word (sm_60's atomicAdd).
__GPURUN_DEVICE__ __half2 atomicAdd(__half2* address, __half2 value) {
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    __half2 current;
    __builtin_memcpy(&current, &assumed, sizeof current);
    const __half2 sum = __hadd2(current, value);
    unsigned int next;
    __builtin_memcpy(&next, &sum, sizeof next);
    old = atomicCAS(word, assumed, next);
  } while (old != assumed);
  __half2 result;
  __builtin_memcpy(&result, &old, sizeof result);
  return result;
}

// CUDA's own spellings for the half type.
typedef __half half;
typedef __half2 half2;
