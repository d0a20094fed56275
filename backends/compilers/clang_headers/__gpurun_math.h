// The CUDA math library for device code: every function of nvcc's math_functions.h that gpurun
// supports, in float (expf) and double (exp) form. Transcendental functions come from libclc
// (__gpurun_libclc.h); functions that are one PTX instruction (sqrt.rn, fma.rn, abs, min, max,
// cvt.rni …) come from clang builtins, which lower to exactly that instruction; the fast
// intrinsics (__expf, __sinf …) are the .approx instructions that nvcc's versions are.
// The C++ overloads (exp(float), std::exp, sqrt(int) …) are in __gpurun_math_overloads.h.
#pragma once
#include "__gpurun_defs.h"
#include "__gpurun_libclc.h"

// ---- from libclc ------------------------------------------------------------------------------
__GPURUN_DEVICE__ float acosf(float x) {
  return __gpurun_clc_acosf(x);
}
__GPURUN_DEVICE__ double acos(double x) {
  return __gpurun_clc_acos(x);
}
__GPURUN_DEVICE__ float acoshf(float x) {
  return __gpurun_clc_acoshf(x);
}
__GPURUN_DEVICE__ double acosh(double x) {
  return __gpurun_clc_acosh(x);
}
__GPURUN_DEVICE__ float asinf(float x) {
  return __gpurun_clc_asinf(x);
}
__GPURUN_DEVICE__ double asin(double x) {
  return __gpurun_clc_asin(x);
}
__GPURUN_DEVICE__ float asinhf(float x) {
  return __gpurun_clc_asinhf(x);
}
__GPURUN_DEVICE__ double asinh(double x) {
  return __gpurun_clc_asinh(x);
}
__GPURUN_DEVICE__ float atanf(float x) {
  return __gpurun_clc_atanf(x);
}
__GPURUN_DEVICE__ double atan(double x) {
  return __gpurun_clc_atan(x);
}
__GPURUN_DEVICE__ float atanhf(float x) {
  return __gpurun_clc_atanhf(x);
}
__GPURUN_DEVICE__ double atanh(double x) {
  return __gpurun_clc_atanh(x);
}
__GPURUN_DEVICE__ float cbrtf(float x) {
  return __gpurun_clc_cbrtf(x);
}
__GPURUN_DEVICE__ double cbrt(double x) {
  return __gpurun_clc_cbrt(x);
}
__GPURUN_DEVICE__ float cosf(float x) {
  return __gpurun_clc_cosf(x);
}
__GPURUN_DEVICE__ double cos(double x) {
  return __gpurun_clc_cos(x);
}
__GPURUN_DEVICE__ float coshf(float x) {
  return __gpurun_clc_coshf(x);
}
__GPURUN_DEVICE__ double cosh(double x) {
  return __gpurun_clc_cosh(x);
}
__GPURUN_DEVICE__ float cospif(float x) {
  return __gpurun_clc_cospif(x);
}
__GPURUN_DEVICE__ double cospi(double x) {
  return __gpurun_clc_cospi(x);
}
__GPURUN_DEVICE__ float erff(float x) {
  return __gpurun_clc_erff(x);
}
__GPURUN_DEVICE__ double erf(double x) {
  return __gpurun_clc_erf(x);
}
// libclc's erfcf is off by up to 60 ulp at the seams of its pieces (x near 1, 3, 7) and returns 0
// where the result is subnormal (x > 9.19); its tgammaf drifts to ~190 ulp for large arguments.
// Their double forms are exact to a fraction of a float ulp over the whole float range.
__GPURUN_DEVICE__ float erfcf(float x) {
  return static_cast<float>(__gpurun_clc_erfc(x));
}
__GPURUN_DEVICE__ double erfc(double x) {
  return __gpurun_clc_erfc(x);
}
__GPURUN_DEVICE__ float expf(float x) {
  return __gpurun_clc_expf(x);
}
__GPURUN_DEVICE__ double exp(double x) {
  return __gpurun_clc_exp(x);
}
__GPURUN_DEVICE__ float exp2f(float x) {
  return __gpurun_clc_exp2f(x);
}
__GPURUN_DEVICE__ double exp2(double x) {
  return __gpurun_clc_exp2(x);
}
__GPURUN_DEVICE__ float exp10f(float x) {
  return __gpurun_clc_exp10f(x);
}
__GPURUN_DEVICE__ double exp10(double x) {
  return __gpurun_clc_exp10(x);
}
__GPURUN_DEVICE__ float expm1f(float x) {
  return __gpurun_clc_expm1f(x);
}
__GPURUN_DEVICE__ double expm1(double x) {
  return __gpurun_clc_expm1(x);
}
__GPURUN_DEVICE__ float lgammaf(float x) {
  return __gpurun_clc_lgammaf(x);
}
__GPURUN_DEVICE__ double lgamma(double x) {
  return __gpurun_clc_lgamma(x);
}
__GPURUN_DEVICE__ float logf(float x) {
  return __gpurun_clc_logf(x);
}
__GPURUN_DEVICE__ double log(double x) {
  return __gpurun_clc_log(x);
}
__GPURUN_DEVICE__ float log10f(float x) {
  return __gpurun_clc_log10f(x);
}
__GPURUN_DEVICE__ double log10(double x) {
  return __gpurun_clc_log10(x);
}
__GPURUN_DEVICE__ float log1pf(float x) {
  return __gpurun_clc_log1pf(x);
}
__GPURUN_DEVICE__ double log1p(double x) {
  return __gpurun_clc_log1p(x);
}
__GPURUN_DEVICE__ float log2f(float x) {
  return __gpurun_clc_log2f(x);
}
__GPURUN_DEVICE__ double log2(double x) {
  return __gpurun_clc_log2(x);
}
__GPURUN_DEVICE__ float logbf(float x) {
  return __gpurun_clc_logbf(x);
}
__GPURUN_DEVICE__ double logb(double x) {
  return __gpurun_clc_logb(x);
}
__GPURUN_DEVICE__ float sinf(float x) {
  return __gpurun_clc_sinf(x);
}
__GPURUN_DEVICE__ double sin(double x) {
  return __gpurun_clc_sin(x);
}
__GPURUN_DEVICE__ float sinhf(float x) {
  return __gpurun_clc_sinhf(x);
}
__GPURUN_DEVICE__ double sinh(double x) {
  return __gpurun_clc_sinh(x);
}
__GPURUN_DEVICE__ float sinpif(float x) {
  return __gpurun_clc_sinpif(x);
}
__GPURUN_DEVICE__ double sinpi(double x) {
  return __gpurun_clc_sinpi(x);
}
__GPURUN_DEVICE__ float tanf(float x) {
  return __gpurun_clc_tanf(x);
}
__GPURUN_DEVICE__ double tan(double x) {
  return __gpurun_clc_tan(x);
}
__GPURUN_DEVICE__ float tanhf(float x) {
  return __gpurun_clc_tanhf(x);
}
__GPURUN_DEVICE__ double tanh(double x) {
  return __gpurun_clc_tanh(x);
}
__GPURUN_DEVICE__ float tgammaf(float x) {
  return static_cast<float>(__gpurun_clc_tgamma(x));
}
__GPURUN_DEVICE__ double tgamma(double x) {
  return __gpurun_clc_tgamma(x);
}
__GPURUN_DEVICE__ float atan2f(float x, float y) {
  return __gpurun_clc_atan2f(x, y);
}
__GPURUN_DEVICE__ double atan2(double x, double y) {
  return __gpurun_clc_atan2(x, y);
}
__GPURUN_DEVICE__ float fdimf(float x, float y) {
  return __gpurun_clc_fdimf(x, y);
}
__GPURUN_DEVICE__ double fdim(double x, double y) {
  return __gpurun_clc_fdim(x, y);
}
__GPURUN_DEVICE__ float fmodf(float x, float y) {
  return __gpurun_clc_fmodf(x, y);
}
__GPURUN_DEVICE__ double fmod(double x, double y) {
  return __gpurun_clc_fmod(x, y);
}
__GPURUN_DEVICE__ float hypotf(float x, float y) {
  return __gpurun_clc_hypotf(x, y);
}
__GPURUN_DEVICE__ double hypot(double x, double y) {
  return __gpurun_clc_hypot(x, y);
}
__GPURUN_DEVICE__ float nextafterf(float x, float y) {
  return __gpurun_clc_nextafterf(x, y);
}
__GPURUN_DEVICE__ double nextafter(double x, double y) {
  return __gpurun_clc_nextafter(x, y);
}
__GPURUN_DEVICE__ float powf(float x, float y) {
  return __gpurun_clc_powf(x, y);
}
__GPURUN_DEVICE__ double pow(double x, double y) {
  return __gpurun_clc_pow(x, y);
}
__GPURUN_DEVICE__ float remainderf(float x, float y) {
  return __gpurun_clc_remainderf(x, y);
}
__GPURUN_DEVICE__ double remainder(double x, double y) {
  return __gpurun_clc_remainder(x, y);
}
__GPURUN_DEVICE__ float ldexpf(float x, int e) {
  return __gpurun_clc_ldexpf(x, e);
}
__GPURUN_DEVICE__ double ldexp(double x, int e) {
  return __gpurun_clc_ldexp(x, e);
}
__GPURUN_DEVICE__ float scalbnf(float x, int e) {
  return __gpurun_clc_ldexpf(x, e);
}
__GPURUN_DEVICE__ double scalbn(double x, int e) {
  return __gpurun_clc_ldexp(x, e);
}
__GPURUN_DEVICE__ float scalblnf(float x, long e) {
  return __gpurun_clc_ldexpf(x, e > 1000 ? 1000 : e < -1000 ? -1000 : static_cast<int>(e));
}
__GPURUN_DEVICE__ double scalbln(double x, long e) {
  return __gpurun_clc_ldexp(x, e > 10000 ? 10000 : e < -10000 ? -10000 : static_cast<int>(e));
}
__GPURUN_DEVICE__ float frexpf(float x, int* e) {
  return __gpurun_clc_frexpf(x, e);
}
__GPURUN_DEVICE__ double frexp(double x, int* e) {
  return __gpurun_clc_frexp(x, e);
}
__GPURUN_DEVICE__ float modff(float x, float* i) {
  return __gpurun_clc_modff(x, i);
}
__GPURUN_DEVICE__ double modf(double x, double* i) {
  return __gpurun_clc_modf(x, i);
}
__GPURUN_DEVICE__ float remquof(float x, float y, int* q) {
  return __gpurun_clc_remquof(x, y, q);
}
__GPURUN_DEVICE__ double remquo(double x, double y, int* q) {
  return __gpurun_clc_remquo(x, y, q);
}
__GPURUN_DEVICE__ int ilogbf(float x) {
  return __gpurun_clc_ilogbf(x);
}
__GPURUN_DEVICE__ int ilogb(double x) {
  return __gpurun_clc_ilogb(x);
}
__GPURUN_DEVICE__ float rcbrtf(float x) {
  return 1.0f / __gpurun_clc_cbrtf(x);
}
__GPURUN_DEVICE__ double rcbrt(double x) {
  return 1.0 / __gpurun_clc_cbrt(x);
}
// pow with an integer exponent, for the pow(float, int) overload.
__GPURUN_DEVICE__ float __gpurun_powif(float x, int n) {
  return __gpurun_clc_pownf(x, n);
}
__GPURUN_DEVICE__ double __gpurun_powi(double x, int n) {
  return __gpurun_clc_pown(x, n);
}
__GPURUN_DEVICE__ void sincosf(float x, float* s, float* c) {
  *s = __gpurun_clc_sincosf(x, c);
}
__GPURUN_DEVICE__ void sincos(double x, double* s, double* c) {
  *s = __gpurun_clc_sincos(x, c);
}
__GPURUN_DEVICE__ void sincospif(float x, float* s, float* c) {
  *s = __gpurun_clc_sinpif(x);
  *c = __gpurun_clc_cospif(x);
}
__GPURUN_DEVICE__ void sincospi(double x, double* s, double* c) {
  *s = __gpurun_clc_sinpi(x);
  *c = __gpurun_clc_cospi(x);
}

// ---- one instruction each ---------------------------------------------------------------------
// sqrt.rn, fma.rn, abs, min/max (IEEE fmin/fmax: a NaN operand yields the other), cvt.rni/rmi/rpi/
// rzi, copysign.
__GPURUN_DEVICE__ float sqrtf(float x) {
  return __builtin_sqrtf(x);
}
__GPURUN_DEVICE__ double sqrt(double x) {
  return __builtin_sqrt(x);
}
__GPURUN_DEVICE__ float fmaf(float x, float y, float z) {
  return __builtin_fmaf(x, y, z);
}
__GPURUN_DEVICE__ double fma(double x, double y, double z) {
  return __builtin_fma(x, y, z);
}
__GPURUN_DEVICE__ float fabsf(float x) {
  return __builtin_fabsf(x);
}
__GPURUN_DEVICE__ double fabs(double x) {
  return __builtin_fabs(x);
}
__GPURUN_DEVICE__ float fminf(float x, float y) {
  return __builtin_fminf(x, y);
}
__GPURUN_DEVICE__ double fmin(double x, double y) {
  return __builtin_fmin(x, y);
}
__GPURUN_DEVICE__ float fmaxf(float x, float y) {
  return __builtin_fmaxf(x, y);
}
__GPURUN_DEVICE__ double fmax(double x, double y) {
  return __builtin_fmax(x, y);
}
__GPURUN_DEVICE__ float floorf(float x) {
  return __builtin_floorf(x);
}
__GPURUN_DEVICE__ double floor(double x) {
  return __builtin_floor(x);
}
__GPURUN_DEVICE__ float ceilf(float x) {
  return __builtin_ceilf(x);
}
__GPURUN_DEVICE__ double ceil(double x) {
  return __builtin_ceil(x);
}
__GPURUN_DEVICE__ float truncf(float x) {
  return __builtin_truncf(x);
}
__GPURUN_DEVICE__ double trunc(double x) {
  return __builtin_trunc(x);
}
__GPURUN_DEVICE__ float rintf(float x) {
  return __builtin_rintf(x);
}
__GPURUN_DEVICE__ double rint(double x) {
  return __builtin_rint(x);
}
__GPURUN_DEVICE__ float nearbyintf(float x) {
  return __builtin_rintf(x);
}
__GPURUN_DEVICE__ double nearbyint(double x) {
  return __builtin_rint(x);
}
// Halfway cases away from zero, as C's round.
__GPURUN_DEVICE__ float roundf(float x) {
  return __gpurun_clc_roundf(x);
}
__GPURUN_DEVICE__ double round(double x) {
  return __gpurun_clc_round(x);
}
__GPURUN_DEVICE__ long lroundf(float x) {
  return static_cast<long>(roundf(x));
}
__GPURUN_DEVICE__ long lround(double x) {
  return static_cast<long>(round(x));
}
__GPURUN_DEVICE__ long long llroundf(float x) {
  return static_cast<long long>(roundf(x));
}
__GPURUN_DEVICE__ long long llround(double x) {
  return static_cast<long long>(round(x));
}
__GPURUN_DEVICE__ long lrintf(float x) {
  return static_cast<long>(__builtin_rintf(x));
}
__GPURUN_DEVICE__ long lrint(double x) {
  return static_cast<long>(__builtin_rint(x));
}
__GPURUN_DEVICE__ long long llrintf(float x) {
  return static_cast<long long>(__builtin_rintf(x));
}
__GPURUN_DEVICE__ long long llrint(double x) {
  return static_cast<long long>(__builtin_rint(x));
}
__GPURUN_DEVICE__ float copysignf(float x, float y) {
  return __builtin_copysignf(x, y);
}
__GPURUN_DEVICE__ double copysign(double x, double y) {
  return __builtin_copysign(x, y);
}
__GPURUN_DEVICE__ float nanf(const char*) {
  return __builtin_nanf("");
}
__GPURUN_DEVICE__ double nan(const char*) {
  return __builtin_nan("");
}
__GPURUN_DEVICE__ float fdividef(float x, float y) {
  return __nvvm_div_approx_f(x, y);
}

// Classification: C's macros are functions in C++ (<cmath>), overloaded for float and double.
__GPURUN_DEVICE__ bool isnan(float x) {
  return __builtin_isnan(x);
}
__GPURUN_DEVICE__ bool isnan(double x) {
  return __builtin_isnan(x);
}
__GPURUN_DEVICE__ bool isinf(float x) {
  return __builtin_isinf(x);
}
__GPURUN_DEVICE__ bool isinf(double x) {
  return __builtin_isinf(x);
}
__GPURUN_DEVICE__ bool isfinite(float x) {
  return __builtin_isfinite(x);
}
__GPURUN_DEVICE__ bool isfinite(double x) {
  return __builtin_isfinite(x);
}
__GPURUN_DEVICE__ bool signbit(float x) {
  return __builtin_signbit(x);
}
__GPURUN_DEVICE__ bool signbit(double x) {
  return __builtin_signbit(x);
}
__GPURUN_DEVICE__ int __isnanf(float x) {
  return __builtin_isnan(x);
}
__GPURUN_DEVICE__ int __isinff(float x) {
  return __builtin_isinf(x);
}
__GPURUN_DEVICE__ int __finitef(float x) {
  return __builtin_isfinite(x);
}
__GPURUN_DEVICE__ int __signbitf(float x) {
  return __builtin_signbit(x);
}
__GPURUN_DEVICE__ int __isnan(double x) {
  return __builtin_isnan(x);
}
__GPURUN_DEVICE__ int __isinf(double x) {
  return __builtin_isinf(x);
}
__GPURUN_DEVICE__ int __finite(double x) {
  return __builtin_isfinite(x);
}
__GPURUN_DEVICE__ int __signbitd(double x) {
  return __builtin_signbit(x);
}

// ---- fast intrinsics: the .approx instructions, as nvcc's -use_fast_math versions -------------
__GPURUN_DEVICE__ float __expf(float x) {
  return __nvvm_ex2_approx_f(x * 1.4426950408889634f);
}
__GPURUN_DEVICE__ float __exp10f(float x) {
  return __nvvm_ex2_approx_f(x * 3.3219280948873623f);
}
__GPURUN_DEVICE__ float __log2f(float x) {
  return __nvvm_lg2_approx_f(x);
}
__GPURUN_DEVICE__ float __logf(float x) {
  return __nvvm_lg2_approx_f(x) * 0.6931471805599453f;
}
__GPURUN_DEVICE__ float __log10f(float x) {
  return __nvvm_lg2_approx_f(x) * 0.3010299956639812f;
}
__GPURUN_DEVICE__ float __sinf(float x) {
  return __nvvm_sin_approx_f(x);
}
__GPURUN_DEVICE__ float __cosf(float x) {
  return __nvvm_cos_approx_f(x);
}
__GPURUN_DEVICE__ void __sincosf(float x, float* s, float* c) {
  *s = __nvvm_sin_approx_f(x);
  *c = __nvvm_cos_approx_f(x);
}
__GPURUN_DEVICE__ float __tanf(float x) {
  return __nvvm_div_approx_f(__nvvm_sin_approx_f(x), __nvvm_cos_approx_f(x));
}
__GPURUN_DEVICE__ float __powf(float x, float y) {
  return __nvvm_ex2_approx_f(y * __nvvm_lg2_approx_f(x));
}
__GPURUN_DEVICE__ float __fdividef(float x, float y) {
  return __nvvm_div_approx_f(x, y);
}
__GPURUN_DEVICE__ float __saturatef(float x) {
  return __nvvm_saturate_f(x);
}
__GPURUN_DEVICE__ float rsqrtf(float x) {
  return __nvvm_rsqrt_approx_f(x);
}
__GPURUN_DEVICE__ double rsqrt(double x) {
  return __gpurun_clc_rsqrt(x);
}
