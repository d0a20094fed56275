// Integer and bit intrinsics, reinterpretation and rounding-mode conversions, IEEE arithmetic
// with an explicit rounding mode (which is never contracted into an fma), clocks and cache-hinted
// loads: what nvcc's device_functions.h and sm_*_intrinsics.h declare.
#pragma once
#include "__gpurun_defs.h"
#include "vector_types.h"
#include <stddef.h>

// ---- bits -------------------------------------------------------------------------------------
__GPURUN_DEVICE__ int __popc(unsigned int x) {
  return __builtin_popcount(x);
}
__GPURUN_DEVICE__ int __popcll(unsigned long long x) {
  return __builtin_popcountll(x);
}
// clz.b32 of 0 is 32; the test lets LLVM emit the one instruction.
__GPURUN_DEVICE__ int __clz(int x) {
  return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x));
}
__GPURUN_DEVICE__ int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
__GPURUN_DEVICE__ int __ffs(int x) {
  return __builtin_ffs(x);
}
__GPURUN_DEVICE__ int __ffsll(long long x) {
  return __builtin_ffsll(x);
}
__GPURUN_DEVICE__ unsigned int __brev(unsigned int x) {
  return __builtin_bitreverse32(x);
}
__GPURUN_DEVICE__ unsigned long long __brevll(unsigned long long x) {
  return __builtin_bitreverse64(x);
}
__GPURUN_DEVICE__ unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  return static_cast<unsigned int>(
      __nvvm_prmt(static_cast<int>(x), static_cast<int>(y), static_cast<int>(s)));
}
__GPURUN_DEVICE__ unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  unsigned int result;
  asm("fns.b32 %0, %1, %2, %3;" : "=r"(result) : "r"(mask), "r"(base), "r"(offset));
  return result;
}

#define __GPURUN_FUNNEL(name, dir, mode)                                                           \
  __GPURUN_DEVICE__ unsigned int name(unsigned int lo, unsigned int hi, unsigned int shift) {      \
    unsigned int result;                                                                           \
    asm("shf." dir "." mode ".b32 %0, %1, %2, %3;" : "=r"(result) : "r"(lo), "r"(hi), "r"(shift)); \
    return result;                                                                                 \
  }
__GPURUN_FUNNEL(__funnelshift_l, "l", "wrap")
__GPURUN_FUNNEL(__funnelshift_lc, "l", "clamp")
__GPURUN_FUNNEL(__funnelshift_r, "r", "wrap")
__GPURUN_FUNNEL(__funnelshift_rc, "r", "clamp")
#undef __GPURUN_FUNNEL

// ---- integer arithmetic -----------------------------------------------------------------------
__GPURUN_DEVICE__ int __mulhi(int x, int y) {
  return __nvvm_mulhi_i(x, y);
}
__GPURUN_DEVICE__ unsigned int __umulhi(unsigned int x, unsigned int y) {
  return __nvvm_mulhi_ui(x, y);
}
__GPURUN_DEVICE__ long long __mul64hi(long long x, long long y) {
  return __nvvm_mulhi_ll(x, y);
}
__GPURUN_DEVICE__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return __nvvm_mulhi_ull(x, y);
}
__GPURUN_DEVICE__ int __mul24(int x, int y) {
  return __nvvm_mul24_i(x, y);
}
__GPURUN_DEVICE__ unsigned int __umul24(unsigned int x, unsigned int y) {
  return __nvvm_mul24_ui(x, y);
}
__GPURUN_DEVICE__ unsigned int __sad(int x, int y, unsigned int z) {
  return static_cast<unsigned int>(__nvvm_sad_i(x, y, static_cast<int>(z)));
}
__GPURUN_DEVICE__ unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return __nvvm_sad_ui(x, y, z);
}
// Halving adds without intermediate overflow.
__GPURUN_DEVICE__ int __hadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y) >> 1);
}
__GPURUN_DEVICE__ int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
__GPURUN_DEVICE__ unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
__GPURUN_DEVICE__ unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
__GPURUN_DEVICE__ int __dp4a(int a, int b, int c) {
  int d;
  asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__GPURUN_DEVICE__ unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  unsigned int d;
  asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__GPURUN_DEVICE__ int __dp2a_lo(int a, int b, int c) {
  int d;
  asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}
__GPURUN_DEVICE__ int __dp2a_hi(int a, int b, int c) {
  int d;
  asm("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

// ---- reinterpretation -------------------------------------------------------------------------
__GPURUN_HOST_DEVICE__ float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
__GPURUN_HOST_DEVICE__ int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
__GPURUN_HOST_DEVICE__ float __uint_as_float(unsigned int x) {
  return __builtin_bit_cast(float, x);
}
__GPURUN_HOST_DEVICE__ unsigned int __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned int, x);
}
__GPURUN_HOST_DEVICE__ double __longlong_as_double(long long x) {
  return __builtin_bit_cast(double, x);
}
__GPURUN_HOST_DEVICE__ long long __double_as_longlong(double x) {
  return __builtin_bit_cast(long long, x);
}
__GPURUN_DEVICE__ int __double2hiint(double x) {
  return static_cast<int>(__builtin_bit_cast(unsigned long long, x) >> 32);
}
__GPURUN_DEVICE__ int __double2loint(double x) {
  return static_cast<int>(__builtin_bit_cast(unsigned long long, x));
}
__GPURUN_DEVICE__ double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double,
                            (static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                                static_cast<unsigned int>(lo));
}

// ---- conversions with a rounding mode (rn, rz, ru = +inf, rd = -inf) ---------------------------
#define __GPURUN_CVT(from_name, to_name, From, To, builtin)                                        \
  __GPURUN_DEVICE__ To __##from_name##2##to_name##_rn(From x) {                                    \
    return builtin##_rn(x);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ To __##from_name##2##to_name##_rz(From x) {                                    \
    return builtin##_rz(x);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ To __##from_name##2##to_name##_ru(From x) {                                    \
    return builtin##_rp(x);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ To __##from_name##2##to_name##_rd(From x) {                                    \
    return builtin##_rm(x);                                                                        \
  }
__GPURUN_CVT(float, int, float, int, __nvvm_f2i)
__GPURUN_CVT(float, uint, float, unsigned int, __nvvm_f2ui)
__GPURUN_CVT(float, ll, float, long long, __nvvm_f2ll)
__GPURUN_CVT(float, ull, float, unsigned long long, __nvvm_f2ull)
__GPURUN_CVT(double, int, double, int, __nvvm_d2i)
__GPURUN_CVT(double, uint, double, unsigned int, __nvvm_d2ui)
__GPURUN_CVT(double, ll, double, long long, __nvvm_d2ll)
__GPURUN_CVT(double, ull, double, unsigned long long, __nvvm_d2ull)
__GPURUN_CVT(int, float, int, float, __nvvm_i2f)
__GPURUN_CVT(uint, float, unsigned int, float, __nvvm_ui2f)
__GPURUN_CVT(ll, float, long long, float, __nvvm_ll2f)
__GPURUN_CVT(ull, float, unsigned long long, float, __nvvm_ull2f)
__GPURUN_CVT(ll, double, long long, double, __nvvm_ll2d)
__GPURUN_CVT(ull, double, unsigned long long, double, __nvvm_ull2d)
__GPURUN_CVT(double, float, double, float, __nvvm_d2f)
#undef __GPURUN_CVT
// Exact conversions: one spelling each.
__GPURUN_DEVICE__ double __int2double_rn(int x) {
  return static_cast<double>(x);
}
__GPURUN_DEVICE__ double __uint2double_rn(unsigned int x) {
  return static_cast<double>(x);
}
__GPURUN_DEVICE__ int __float2int(float x) {
  return __float2int_rz(x);
}

// ---- IEEE arithmetic with an explicit rounding mode ------------------------------------------
#define __GPURUN_ROUNDED(name, T, sfx, op)                                                         \
  __GPURUN_DEVICE__ T name##_rn(T x, T y) {                                                        \
    return __nvvm_##op##_rn_##sfx(x, y);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rz(T x, T y) {                                                        \
    return __nvvm_##op##_rz_##sfx(x, y);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_ru(T x, T y) {                                                        \
    return __nvvm_##op##_rp_##sfx(x, y);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rd(T x, T y) {                                                        \
    return __nvvm_##op##_rm_##sfx(x, y);                                                           \
  }
__GPURUN_ROUNDED(__fadd, float, f, add)
__GPURUN_ROUNDED(__fmul, float, f, mul)
__GPURUN_ROUNDED(__fdiv, float, f, div)
__GPURUN_ROUNDED(__dadd, double, d, add)
__GPURUN_ROUNDED(__dmul, double, d, mul)
__GPURUN_ROUNDED(__ddiv, double, d, div)
#undef __GPURUN_ROUNDED

#define __GPURUN_ROUNDED_SUB(name, add, T)                                                         \
  __GPURUN_DEVICE__ T name##_rn(T x, T y) {                                                        \
    return add##_rn(x, -y);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rz(T x, T y) {                                                        \
    return add##_rz(x, -y);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_ru(T x, T y) {                                                        \
    return add##_ru(x, -y);                                                                        \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rd(T x, T y) {                                                        \
    return add##_rd(x, -y);                                                                        \
  }
__GPURUN_ROUNDED_SUB(__fsub, __fadd, float)
__GPURUN_ROUNDED_SUB(__dsub, __dadd, double)
#undef __GPURUN_ROUNDED_SUB

#define __GPURUN_ROUNDED_UNARY(name, T, sfx, op)                                                   \
  __GPURUN_DEVICE__ T name##_rn(T x) {                                                             \
    return __nvvm_##op##_rn_##sfx(x);                                                              \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rz(T x) {                                                             \
    return __nvvm_##op##_rz_##sfx(x);                                                              \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_ru(T x) {                                                             \
    return __nvvm_##op##_rp_##sfx(x);                                                              \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rd(T x) {                                                             \
    return __nvvm_##op##_rm_##sfx(x);                                                              \
  }
__GPURUN_ROUNDED_UNARY(__frcp, float, f, rcp)
__GPURUN_ROUNDED_UNARY(__fsqrt, float, f, sqrt)
__GPURUN_ROUNDED_UNARY(__drcp, double, d, rcp)
__GPURUN_ROUNDED_UNARY(__dsqrt, double, d, sqrt)
#undef __GPURUN_ROUNDED_UNARY

#define __GPURUN_ROUNDED_FMA(name, T, sfx)                                                         \
  __GPURUN_DEVICE__ T name##_rn(T x, T y, T z) {                                                   \
    return __nvvm_fma_rn_##sfx(x, y, z);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rz(T x, T y, T z) {                                                   \
    return __nvvm_fma_rz_##sfx(x, y, z);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_ru(T x, T y, T z) {                                                   \
    return __nvvm_fma_rp_##sfx(x, y, z);                                                           \
  }                                                                                                \
  __GPURUN_DEVICE__ T name##_rd(T x, T y, T z) {                                                   \
    return __nvvm_fma_rm_##sfx(x, y, z);                                                           \
  }
__GPURUN_ROUNDED_FMA(__fmaf, float, f)
__GPURUN_ROUNDED_FMA(__fma, double, d)
#undef __GPURUN_ROUNDED_FMA

// ---- clocks -----------------------------------------------------------------------------------
__GPURUN_DEVICE__ long long clock64() {
  return __nvvm_read_ptx_sreg_clock64();
}
__GPURUN_DEVICE__ long clock() {
  return __nvvm_read_ptx_sreg_clock();
}
__GPURUN_DEVICE__ unsigned long long __globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// ---- read-only and cache-hinted loads ---------------------------------------------------------
// __ldg is ld.global.nc where the type has one; the other hints (__ldcg, __ldcs, __ldlu, __ldcv,
// __ldca, __stcg, __stcs, __stwb, __stwt) only change caching, so plain accesses keep their
// meaning.
#define __GPURUN_LDG(T, builtin)                                                                   \
  __GPURUN_DEVICE__ T __ldg(const T* p) {                                                          \
    return builtin(p);                                                                             \
  }
__GPURUN_LDG(char, __nvvm_ldg_c)
__GPURUN_LDG(short, __nvvm_ldg_s)
__GPURUN_LDG(int, __nvvm_ldg_i)
__GPURUN_LDG(long, __nvvm_ldg_l)
__GPURUN_LDG(long long, __nvvm_ldg_ll)
__GPURUN_LDG(unsigned char, __nvvm_ldg_uc)
__GPURUN_LDG(unsigned short, __nvvm_ldg_us)
__GPURUN_LDG(unsigned int, __nvvm_ldg_ui)
__GPURUN_LDG(unsigned long, __nvvm_ldg_ul)
__GPURUN_LDG(unsigned long long, __nvvm_ldg_ull)
__GPURUN_LDG(float, __nvvm_ldg_f)
__GPURUN_LDG(double, __nvvm_ldg_d)
#undef __GPURUN_LDG
template <class T> __GPURUN_DEVICE__ T __ldg(const T* p) {
  return *p;
}

#define __GPURUN_CACHE_HINT_LOAD(name)                                                             \
  template <class T> __GPURUN_DEVICE__ T name(const T* p) {                                        \
    return *p;                                                                                     \
  }
#define __GPURUN_CACHE_HINT_STORE(name)                                                            \
  template <class T> __GPURUN_DEVICE__ void name(T* p, T value) {                                  \
    *p = value;                                                                                    \
  }
__GPURUN_CACHE_HINT_LOAD(__ldcg)
__GPURUN_CACHE_HINT_LOAD(__ldca)
__GPURUN_CACHE_HINT_LOAD(__ldcs)
__GPURUN_CACHE_HINT_LOAD(__ldlu)
__GPURUN_CACHE_HINT_LOAD(__ldcv)
__GPURUN_CACHE_HINT_STORE(__stcg)
__GPURUN_CACHE_HINT_STORE(__stcs)
__GPURUN_CACHE_HINT_STORE(__stwb)
__GPURUN_CACHE_HINT_STORE(__stwt)
#undef __GPURUN_CACHE_HINT_LOAD
#undef __GPURUN_CACHE_HINT_STORE

// ---- state spaces: generic ↔ space-specific addresses (cvta), and space tests (isspacep) -------
#define __GPURUN_CVTA(space)                                                                       \
  __GPURUN_DEVICE__ size_t __cvta_generic_to_##space(const void* p) {                              \
    size_t r;                                                                                      \
    asm("cvta.to." #space ".u64 %0, %1;" : "=l"(r) : "l"(p));                                      \
    return r;                                                                                      \
  }                                                                                                \
  __GPURUN_DEVICE__ void* __cvta_##space##_to_generic(size_t a) {                                  \
    void* r;                                                                                       \
    asm("cvta." #space ".u64 %0, %1;" : "=l"(r) : "l"(a));                                         \
    return r;                                                                                      \
  }
__GPURUN_CVTA(global)
__GPURUN_CVTA(shared)
__GPURUN_CVTA(local)
__GPURUN_CVTA(const)
#undef __GPURUN_CVTA
__GPURUN_DEVICE__ size_t __cvta_generic_to_constant(const void* p) {
  return __cvta_generic_to_const(p);
}
__GPURUN_DEVICE__ void* __cvta_constant_to_generic(size_t a) {
  return __cvta_const_to_generic(a);
}
__GPURUN_DEVICE__ unsigned int __isGlobal(const void* p) {
  return __nvvm_isspacep_global(p);
}
__GPURUN_DEVICE__ unsigned int __isShared(const void* p) {
  return __nvvm_isspacep_shared(p);
}
__GPURUN_DEVICE__ unsigned int __isLocal(const void* p) {
  return __nvvm_isspacep_local(p);
}
__GPURUN_DEVICE__ unsigned int __isConstant(const void* p) {
  return __nvvm_isspacep_const(p);
}
