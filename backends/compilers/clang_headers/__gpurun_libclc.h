// The math functions of libclc's NVPTX bitcode (nvptx64--nvidiacl.bc, linked into every clang
// compile with -mlink-builtin-bitcode). libclc implements OpenCL's builtins, whose names are
// C++-mangled overloads (exp(float) is _Z3expf); an asm label gives each one a name of our own
// that cannot clash with the CUDA names defined on top of it in __gpurun_math.h. Pointer
// arguments are libclc's private-address-space overloads, which on NVPTX take a generic pointer.
#pragma once
#include "__gpurun_defs.h"

// x -> y
__device__ float __gpurun_clc_acosf(float) __asm__("_Z4acosf");
__device__ double __gpurun_clc_acos(double) __asm__("_Z4acosd");
__device__ float __gpurun_clc_acoshf(float) __asm__("_Z5acoshf");
__device__ double __gpurun_clc_acosh(double) __asm__("_Z5acoshd");
__device__ float __gpurun_clc_asinf(float) __asm__("_Z4asinf");
__device__ double __gpurun_clc_asin(double) __asm__("_Z4asind");
__device__ float __gpurun_clc_asinhf(float) __asm__("_Z5asinhf");
__device__ double __gpurun_clc_asinh(double) __asm__("_Z5asinhd");
__device__ float __gpurun_clc_atanf(float) __asm__("_Z4atanf");
__device__ double __gpurun_clc_atan(double) __asm__("_Z4atand");
__device__ float __gpurun_clc_atanhf(float) __asm__("_Z5atanhf");
__device__ double __gpurun_clc_atanh(double) __asm__("_Z5atanhd");
__device__ float __gpurun_clc_cbrtf(float) __asm__("_Z4cbrtf");
__device__ double __gpurun_clc_cbrt(double) __asm__("_Z4cbrtd");
__device__ float __gpurun_clc_cosf(float) __asm__("_Z3cosf");
__device__ double __gpurun_clc_cos(double) __asm__("_Z3cosd");
__device__ float __gpurun_clc_coshf(float) __asm__("_Z4coshf");
__device__ double __gpurun_clc_cosh(double) __asm__("_Z4coshd");
__device__ float __gpurun_clc_cospif(float) __asm__("_Z5cospif");
__device__ double __gpurun_clc_cospi(double) __asm__("_Z5cospid");
__device__ float __gpurun_clc_erff(float) __asm__("_Z3erff");
__device__ double __gpurun_clc_erf(double) __asm__("_Z3erfd");
__device__ float __gpurun_clc_erfcf(float) __asm__("_Z4erfcf");
__device__ double __gpurun_clc_erfc(double) __asm__("_Z4erfcd");
__device__ float __gpurun_clc_expf(float) __asm__("_Z3expf");
__device__ double __gpurun_clc_exp(double) __asm__("_Z3expd");
__device__ float __gpurun_clc_exp2f(float) __asm__("_Z4exp2f");
__device__ double __gpurun_clc_exp2(double) __asm__("_Z4exp2d");
__device__ float __gpurun_clc_exp10f(float) __asm__("_Z5exp10f");
__device__ double __gpurun_clc_exp10(double) __asm__("_Z5exp10d");
__device__ float __gpurun_clc_expm1f(float) __asm__("_Z5expm1f");
__device__ double __gpurun_clc_expm1(double) __asm__("_Z5expm1d");
__device__ float __gpurun_clc_lgammaf(float) __asm__("_Z6lgammaf");
__device__ double __gpurun_clc_lgamma(double) __asm__("_Z6lgammad");
__device__ float __gpurun_clc_logf(float) __asm__("_Z3logf");
__device__ double __gpurun_clc_log(double) __asm__("_Z3logd");
__device__ float __gpurun_clc_log10f(float) __asm__("_Z5log10f");
__device__ double __gpurun_clc_log10(double) __asm__("_Z5log10d");
__device__ float __gpurun_clc_log1pf(float) __asm__("_Z5log1pf");
__device__ double __gpurun_clc_log1p(double) __asm__("_Z5log1pd");
__device__ float __gpurun_clc_log2f(float) __asm__("_Z4log2f");
__device__ double __gpurun_clc_log2(double) __asm__("_Z4log2d");
__device__ float __gpurun_clc_logbf(float) __asm__("_Z4logbf");
__device__ double __gpurun_clc_logb(double) __asm__("_Z4logbd");
__device__ float __gpurun_clc_rsqrtf(float) __asm__("_Z5rsqrtf");
__device__ double __gpurun_clc_rsqrt(double) __asm__("_Z5rsqrtd");
__device__ float __gpurun_clc_roundf(float) __asm__("_Z5roundf");
__device__ double __gpurun_clc_round(double) __asm__("_Z5roundd");
__device__ float __gpurun_clc_sinf(float) __asm__("_Z3sinf");
__device__ double __gpurun_clc_sin(double) __asm__("_Z3sind");
__device__ float __gpurun_clc_sinhf(float) __asm__("_Z4sinhf");
__device__ double __gpurun_clc_sinh(double) __asm__("_Z4sinhd");
__device__ float __gpurun_clc_sinpif(float) __asm__("_Z5sinpif");
__device__ double __gpurun_clc_sinpi(double) __asm__("_Z5sinpid");
__device__ float __gpurun_clc_tanf(float) __asm__("_Z3tanf");
__device__ double __gpurun_clc_tan(double) __asm__("_Z3tand");
__device__ float __gpurun_clc_tanhf(float) __asm__("_Z4tanhf");
__device__ double __gpurun_clc_tanh(double) __asm__("_Z4tanhd");
__device__ float __gpurun_clc_tanpif(float) __asm__("_Z5tanpif");
__device__ double __gpurun_clc_tanpi(double) __asm__("_Z5tanpid");
__device__ float __gpurun_clc_tgammaf(float) __asm__("_Z6tgammaf");
__device__ double __gpurun_clc_tgamma(double) __asm__("_Z6tgammad");

// (x, y) -> z
__device__ float __gpurun_clc_atan2f(float, float) __asm__("_Z5atan2ff");
__device__ double __gpurun_clc_atan2(double, double) __asm__("_Z5atan2dd");
__device__ float __gpurun_clc_fdimf(float, float) __asm__("_Z4fdimff");
__device__ double __gpurun_clc_fdim(double, double) __asm__("_Z4fdimdd");
__device__ float __gpurun_clc_fmodf(float, float) __asm__("_Z4fmodff");
__device__ double __gpurun_clc_fmod(double, double) __asm__("_Z4fmoddd");
__device__ float __gpurun_clc_hypotf(float, float) __asm__("_Z5hypotff");
__device__ double __gpurun_clc_hypot(double, double) __asm__("_Z5hypotdd");
__device__ float __gpurun_clc_nextafterf(float, float) __asm__("_Z9nextafterff");
__device__ double __gpurun_clc_nextafter(double, double) __asm__("_Z9nextafterdd");
__device__ float __gpurun_clc_powf(float, float) __asm__("_Z3powff");
__device__ double __gpurun_clc_pow(double, double) __asm__("_Z3powdd");
__device__ float __gpurun_clc_remainderf(float, float) __asm__("_Z9remainderff");
__device__ double __gpurun_clc_remainder(double, double) __asm__("_Z9remainderdd");

// The rest
__device__ float __gpurun_clc_ldexpf(float, int) __asm__("_Z5ldexpfi");
__device__ double __gpurun_clc_ldexp(double, int) __asm__("_Z5ldexpdi");
__device__ float __gpurun_clc_rootnf(float, int) __asm__("_Z5rootnfi");
__device__ double __gpurun_clc_rootn(double, int) __asm__("_Z5rootndi");
__device__ float __gpurun_clc_pownf(float, int) __asm__("_Z4pownfi");
__device__ double __gpurun_clc_pown(double, int) __asm__("_Z4powndi");
__device__ int __gpurun_clc_ilogbf(float) __asm__("_Z5ilogbf");
__device__ int __gpurun_clc_ilogb(double) __asm__("_Z5ilogbd");
__device__ float __gpurun_clc_frexpf(float, int*) __asm__("_Z5frexpfPi");
__device__ double __gpurun_clc_frexp(double, int*) __asm__("_Z5frexpdPi");
__device__ float __gpurun_clc_modff(float, float*) __asm__("_Z4modffPf");
__device__ double __gpurun_clc_modf(double, double*) __asm__("_Z4modfdPd");
__device__ float __gpurun_clc_sincosf(float, float*) __asm__("_Z6sincosfPf");
__device__ double __gpurun_clc_sincos(double, double*) __asm__("_Z6sincosdPd");
__device__ float __gpurun_clc_remquof(float, float, int*) __asm__("_Z6remquoffPi");
__device__ double __gpurun_clc_remquo(double, double, int*) __asm__("_Z6remquoddPi");
