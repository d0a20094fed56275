// The C++ overloads of the math library, as <cmath> declares them and nvcc's
// math_functions.hpp provides them in the global namespace: exp(float) is expf, an integer
// argument is computed in double (sqrt(2) is sqrt(2.0)), mixed arguments are promoted
// (pow(2.0f, 3.0) is pow(double, double)). min and max are CUDA's global overloads.
#pragma once
#include "__gpurun_math.h"

template <bool B, class T = void> struct __gpurun_enable_if {};
template <class T> struct __gpurun_enable_if<true, T> { using type = T; };
// The floating-point type an argument is computed in: integers in double.
template <class T> struct __gpurun_as_fp { using type = double; };
template <> struct __gpurun_as_fp<float> { using type = float; };
template <> struct __gpurun_as_fp<long double> { using type = long double; };
template <class A, class B>
using __gpurun_promoted =
    decltype(typename __gpurun_as_fp<A>::type() + typename __gpurun_as_fp<B>::type());
// An integer argument's function (double); a mixed pair's function (both arithmetic and not
// already (float, float) or (double, double)), in the promoted type.
template <class T>
using __gpurun_integral_fp = typename __gpurun_enable_if<__is_integral(T), double>::type;
template <class A, class B>
using __gpurun_mixed_fp =
    typename __gpurun_enable_if<__is_arithmetic(A) && __is_arithmetic(B) &&
                                    !(__is_same(A, B) && __is_floating_point(A)),
                                __gpurun_promoted<A, B>>::type;

__GPURUN_DEVICE__ float acos(float x) {
  return acosf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> acos(T x) {
  return acos(static_cast<double>(x));
}
__GPURUN_DEVICE__ float acosh(float x) {
  return acoshf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> acosh(T x) {
  return acosh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float asin(float x) {
  return asinf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> asin(T x) {
  return asin(static_cast<double>(x));
}
__GPURUN_DEVICE__ float asinh(float x) {
  return asinhf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> asinh(T x) {
  return asinh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float atan(float x) {
  return atanf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> atan(T x) {
  return atan(static_cast<double>(x));
}
__GPURUN_DEVICE__ float atanh(float x) {
  return atanhf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> atanh(T x) {
  return atanh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float cbrt(float x) {
  return cbrtf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> cbrt(T x) {
  return cbrt(static_cast<double>(x));
}
__GPURUN_DEVICE__ float ceil(float x) {
  return ceilf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> ceil(T x) {
  return ceil(static_cast<double>(x));
}
__GPURUN_DEVICE__ float cos(float x) {
  return cosf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> cos(T x) {
  return cos(static_cast<double>(x));
}
__GPURUN_DEVICE__ float cosh(float x) {
  return coshf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> cosh(T x) {
  return cosh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float erf(float x) {
  return erff(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> erf(T x) {
  return erf(static_cast<double>(x));
}
__GPURUN_DEVICE__ float erfc(float x) {
  return erfcf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> erfc(T x) {
  return erfc(static_cast<double>(x));
}
__GPURUN_DEVICE__ float exp(float x) {
  return expf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> exp(T x) {
  return exp(static_cast<double>(x));
}
__GPURUN_DEVICE__ float exp2(float x) {
  return exp2f(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> exp2(T x) {
  return exp2(static_cast<double>(x));
}
__GPURUN_DEVICE__ float expm1(float x) {
  return expm1f(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> expm1(T x) {
  return expm1(static_cast<double>(x));
}
__GPURUN_DEVICE__ float fabs(float x) {
  return fabsf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> fabs(T x) {
  return fabs(static_cast<double>(x));
}
__GPURUN_DEVICE__ float floor(float x) {
  return floorf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> floor(T x) {
  return floor(static_cast<double>(x));
}
__GPURUN_DEVICE__ float lgamma(float x) {
  return lgammaf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> lgamma(T x) {
  return lgamma(static_cast<double>(x));
}
__GPURUN_DEVICE__ float log(float x) {
  return logf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> log(T x) {
  return log(static_cast<double>(x));
}
__GPURUN_DEVICE__ float log10(float x) {
  return log10f(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> log10(T x) {
  return log10(static_cast<double>(x));
}
__GPURUN_DEVICE__ float log1p(float x) {
  return log1pf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> log1p(T x) {
  return log1p(static_cast<double>(x));
}
__GPURUN_DEVICE__ float log2(float x) {
  return log2f(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> log2(T x) {
  return log2(static_cast<double>(x));
}
__GPURUN_DEVICE__ float logb(float x) {
  return logbf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> logb(T x) {
  return logb(static_cast<double>(x));
}
__GPURUN_DEVICE__ float nearbyint(float x) {
  return nearbyintf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> nearbyint(T x) {
  return nearbyint(static_cast<double>(x));
}
__GPURUN_DEVICE__ float rint(float x) {
  return rintf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> rint(T x) {
  return rint(static_cast<double>(x));
}
__GPURUN_DEVICE__ float round(float x) {
  return roundf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> round(T x) {
  return round(static_cast<double>(x));
}
__GPURUN_DEVICE__ float sin(float x) {
  return sinf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> sin(T x) {
  return sin(static_cast<double>(x));
}
__GPURUN_DEVICE__ float sinh(float x) {
  return sinhf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> sinh(T x) {
  return sinh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float sqrt(float x) {
  return sqrtf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> sqrt(T x) {
  return sqrt(static_cast<double>(x));
}
__GPURUN_DEVICE__ float tan(float x) {
  return tanf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> tan(T x) {
  return tan(static_cast<double>(x));
}
__GPURUN_DEVICE__ float tanh(float x) {
  return tanhf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> tanh(T x) {
  return tanh(static_cast<double>(x));
}
__GPURUN_DEVICE__ float tgamma(float x) {
  return tgammaf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> tgamma(T x) {
  return tgamma(static_cast<double>(x));
}
__GPURUN_DEVICE__ float trunc(float x) {
  return truncf(x);
}
template <class T> __GPURUN_DEVICE__ __gpurun_integral_fp<T> trunc(T x) {
  return trunc(static_cast<double>(x));
}
__GPURUN_DEVICE__ float atan2(float x, float y) {
  return atan2f(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> atan2(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return atan2(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float copysign(float x, float y) {
  return copysignf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> copysign(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return copysign(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float fdim(float x, float y) {
  return fdimf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> fdim(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return fdim(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float fmax(float x, float y) {
  return fmaxf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> fmax(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return fmax(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float fmin(float x, float y) {
  return fminf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> fmin(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return fmin(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float fmod(float x, float y) {
  return fmodf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> fmod(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return fmod(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float hypot(float x, float y) {
  return hypotf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> hypot(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return hypot(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float nextafter(float x, float y) {
  return nextafterf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> nextafter(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return nextafter(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float remainder(float x, float y) {
  return remainderf(x, y);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> remainder(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return remainder(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float pow(float x, float y) {
  return powf(x, y);
}
// nvcc's overloads for an integer exponent keep the base's type.
__GPURUN_DEVICE__ float pow(float x, int n) {
  return __gpurun_powif(x, n);
}
__GPURUN_DEVICE__ double pow(double x, int n) {
  return __gpurun_powi(x, n);
}
template <class A, class B> __GPURUN_DEVICE__ __gpurun_mixed_fp<A, B> pow(A x, B y) {
  using R = __gpurun_promoted<A, B>;
  return pow(static_cast<R>(x), static_cast<R>(y));
}
__GPURUN_DEVICE__ float fma(float x, float y, float z) {
  return fmaf(x, y, z);
}
__GPURUN_DEVICE__ float ldexp(float x, int e) {
  return ldexpf(x, e);
}
__GPURUN_DEVICE__ float scalbn(float x, int e) {
  return scalbnf(x, e);
}
__GPURUN_DEVICE__ float frexp(float x, int* e) {
  return frexpf(x, e);
}
__GPURUN_DEVICE__ float modf(float x, float* i) {
  return modff(x, i);
}
__GPURUN_DEVICE__ float remquo(float x, float y, int* q) {
  return remquof(x, y, q);
}
__GPURUN_DEVICE__ int ilogb(float x) {
  return ilogbf(x);
}
__GPURUN_DEVICE__ long lround(float x) {
  return lroundf(x);
}
__GPURUN_DEVICE__ long long llround(float x) {
  return llroundf(x);
}
__GPURUN_DEVICE__ long lrint(float x) {
  return lrintf(x);
}
__GPURUN_DEVICE__ long long llrint(float x) {
  return llrintf(x);
}
__GPURUN_DEVICE__ float rsqrt(float x) {
  return rsqrtf(x);
}
__GPURUN_DEVICE__ void sincos(float x, float* s, float* c) {
  sincosf(x, s, c);
}

__GPURUN_DEVICE__ int abs(int x) {
  return __builtin_abs(x);
}
__GPURUN_DEVICE__ long abs(long x) {
  return __builtin_labs(x);
}
__GPURUN_DEVICE__ long long abs(long long x) {
  return __builtin_llabs(x);
}
__GPURUN_DEVICE__ float abs(float x) {
  return fabsf(x);
}
__GPURUN_DEVICE__ double abs(double x) {
  return fabs(x);
}
__GPURUN_DEVICE__ long labs(long x) {
  return __builtin_labs(x);
}
__GPURUN_DEVICE__ long long llabs(long long x) {
  return __builtin_llabs(x);
}

// CUDA's global min and max: same-type overloads, and for mixed signedness the unsigned type,
// for mixed float/double the double.
#define __GPURUN_MINMAX(T)                                                                         \
  __GPURUN_DEVICE__ T min(T a, T b) {                                                              \
    return b < a ? b : a;                                                                          \
  }                                                                                                \
  __GPURUN_DEVICE__ T max(T a, T b) {                                                              \
    return a < b ? b : a;                                                                          \
  }
__GPURUN_MINMAX(int)
__GPURUN_MINMAX(unsigned int)
__GPURUN_MINMAX(long)
__GPURUN_MINMAX(unsigned long)
__GPURUN_MINMAX(long long)
__GPURUN_MINMAX(unsigned long long)
#undef __GPURUN_MINMAX
__GPURUN_DEVICE__ float min(float a, float b) {
  return fminf(a, b);
}
__GPURUN_DEVICE__ float max(float a, float b) {
  return fmaxf(a, b);
}
__GPURUN_DEVICE__ double min(double a, double b) {
  return fmin(a, b);
}
__GPURUN_DEVICE__ double max(double a, double b) {
  return fmax(a, b);
}
#define __GPURUN_MINMAX_MIXED(A, B, R)                                                             \
  __GPURUN_DEVICE__ R min(A a, B b) {                                                              \
    return min(static_cast<R>(a), static_cast<R>(b));                                              \
  }                                                                                                \
  __GPURUN_DEVICE__ R max(A a, B b) {                                                              \
    return max(static_cast<R>(a), static_cast<R>(b));                                              \
  }
__GPURUN_MINMAX_MIXED(int, unsigned int, unsigned int)
__GPURUN_MINMAX_MIXED(unsigned int, int, unsigned int)
__GPURUN_MINMAX_MIXED(long, unsigned long, unsigned long)
__GPURUN_MINMAX_MIXED(unsigned long, long, unsigned long)
__GPURUN_MINMAX_MIXED(long long, unsigned long long, unsigned long long)
__GPURUN_MINMAX_MIXED(unsigned long long, long long, unsigned long long)
__GPURUN_MINMAX_MIXED(float, double, double)
__GPURUN_MINMAX_MIXED(double, float, double)
#undef __GPURUN_MINMAX_MIXED
__GPURUN_DEVICE__ unsigned int umin(unsigned int a, unsigned int b) {
  return min(a, b);
}
__GPURUN_DEVICE__ unsigned int umax(unsigned int a, unsigned int b) {
  return max(a, b);
}
__GPURUN_DEVICE__ long long llmin(long long a, long long b) {
  return min(a, b);
}
__GPURUN_DEVICE__ long long llmax(long long a, long long b) {
  return max(a, b);
}
__GPURUN_DEVICE__ unsigned long long ullmin(unsigned long long a, unsigned long long b) {
  return min(a, b);
}
__GPURUN_DEVICE__ unsigned long long ullmax(unsigned long long a, unsigned long long b) {
  return max(a, b);
}
