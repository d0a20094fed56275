#include "backends/compilers/compat_headers.hpp"

#include <array>
#include <vector>

namespace gpurun::nvrtc {
namespace {

// NVRTC declares printf, malloc/free, the math library, size_t and assert itself (crt headers
// built in); these headers add what the host headers would: typedefs, limit macros, and the
// std:: names. The integer typedefs and limit macros are token for token those that the
// toolkit's libcu++ (<cuda/std/cstdint>, <cuda/std/climits>) declares under NVRTC, so that
// kernels may mix both without redeclaration errors. That makes int64_t `long long`, as in every
// NVRTC program, where nvcc on Linux has `long`: a template kernel instantiated on int64_t
// mangles with 'x' here and 'l' under nvcc.

constexpr const char* stddef_h = R"(#pragma once
#ifndef NULL
#define NULL 0
#endif
typedef decltype(sizeof(0)) size_t;
typedef decltype((char*)0 - (char*)0) ptrdiff_t;
typedef long double max_align_t;
#ifndef offsetof
#define offsetof(type, member) (::size_t) ((char*) &(((type*) 0)->member) - (char*) 0)
#endif
)";

constexpr const char* cstddef = R"(#pragma once
#include <stddef.h>
namespace std {
using ::size_t;
using ::ptrdiff_t;
using ::max_align_t;
typedef decltype(nullptr) nullptr_t;
enum class byte : unsigned char {};
}
)";

constexpr const char* stdint_h = R"(#pragma once
#include <limits.h>
using int8_t = signed char;
using int16_t = signed short;
using int32_t = signed int;
using int64_t = signed long long;
using uint8_t = unsigned char;
using uint16_t = unsigned short;
using uint32_t = unsigned int;
using uint64_t = unsigned long long;
using int_fast8_t = int8_t;
using int_fast16_t = int16_t;
using int_fast32_t = int32_t;
using int_fast64_t = int64_t;
using uint_fast8_t = uint8_t;
using uint_fast16_t = uint16_t;
using uint_fast32_t = uint32_t;
using uint_fast64_t = uint64_t;
using int_least8_t = int8_t;
using int_least16_t = int16_t;
using int_least32_t = int32_t;
using int_least64_t = int64_t;
using uint_least8_t = uint8_t;
using uint_least16_t = uint16_t;
using uint_least32_t = uint32_t;
using uint_least64_t = uint64_t;
using intptr_t = int64_t;
using uintptr_t = uint64_t;
using intmax_t = int64_t;
using uintmax_t = uint64_t;
#define INT8_MIN SCHAR_MIN
#define INT16_MIN SHRT_MIN
#define INT32_MIN INT_MIN
#define INT64_MIN LLONG_MIN
#define INT8_MAX SCHAR_MAX
#define INT16_MAX SHRT_MAX
#define INT32_MAX INT_MAX
#define INT64_MAX LLONG_MAX
#define UINT8_MAX UCHAR_MAX
#define UINT16_MAX USHRT_MAX
#define UINT32_MAX UINT_MAX
#define UINT64_MAX ULLONG_MAX
#define INTPTR_MIN INT64_MIN
#define INTPTR_MAX INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX UINT64_MAX
#define INT8_C(X) ((::int_least8_t)(X))
#define INT16_C(X) ((::int_least16_t)(X))
#define INT32_C(X) ((::int_least32_t)(X))
#define INT64_C(X) ((::int_least64_t)(X))
#define UINT8_C(X) ((::uint_least8_t)(X))
#define UINT16_C(X) ((::uint_least16_t)(X))
#define UINT32_C(X) ((::uint_least32_t)(X))
#define UINT64_C(X) ((::uint_least64_t)(X))
#define INTMAX_C(X) ((::intmax_t)(X))
#define UINTMAX_C(X) ((::uintmax_t)(X))
)";

constexpr const char* cstdint = R"(#pragma once
#include <stdint.h>
namespace std {
using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;
using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t;
using ::int_least8_t; using ::int_least16_t; using ::int_least32_t; using ::int_least64_t;
using ::uint_least8_t; using ::uint_least16_t; using ::uint_least32_t; using ::uint_least64_t;
using ::int_fast8_t; using ::int_fast16_t; using ::int_fast32_t; using ::int_fast64_t;
using ::uint_fast8_t; using ::uint_fast16_t; using ::uint_fast32_t; using ::uint_fast64_t;
using ::intptr_t; using ::uintptr_t; using ::intmax_t; using ::uintmax_t;
}
)";

// printf is an NVRTC builtin (lowered to vprintf); only the std:: name and stdio's macros are
// missing.
constexpr const char* stdio_h = R"(#pragma once
#include <stddef.h>
#ifndef EOF
#define EOF (-1)
#endif
)";

constexpr const char* cstdio = R"(#pragma once
#include <stdio.h>
namespace std {
using ::size_t;
using ::printf;
}
)";

constexpr const char* math_h = R"(#pragma once
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef HUGE_VALF
#define HUGE_VALF INFINITY
#endif
#ifndef HUGE_VAL
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
#endif
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
)";

constexpr const char* cmath = R"(#pragma once
#include <math.h>
namespace std {
using ::abs; using ::fabs; using ::fmod; using ::remainder; using ::fma;
using ::fmax; using ::fmin; using ::fdim;
using ::exp; using ::exp2; using ::expm1; using ::log; using ::log10; using ::log2;
using ::log1p; using ::pow; using ::sqrt; using ::cbrt; using ::hypot;
using ::sin; using ::cos; using ::tan; using ::asin; using ::acos; using ::atan; using ::atan2;
using ::sinh; using ::cosh; using ::tanh; using ::asinh; using ::acosh; using ::atanh;
using ::erf; using ::erfc; using ::tgamma; using ::lgamma;
using ::ceil; using ::floor; using ::trunc; using ::round; using ::nearbyint; using ::rint;
using ::lround; using ::llround; using ::lrint; using ::llrint;
using ::frexp; using ::ldexp; using ::modf; using ::scalbn; using ::ilogb; using ::logb;
using ::nextafter; using ::copysign;
using ::isfinite; using ::isinf; using ::isnan; using ::signbit;
using ::min; using ::max;
}
)";

// assert itself is an NVRTC builtin; NDEBUG must still switch it off, and assert.h may be
// included more than once with NDEBUG changing in between.
constexpr const char* assert_h = R"(#undef assert
#ifdef NDEBUG
#define assert(e) (static_cast<void>(0))
#else
#define assert(e) ((e) ? static_cast<void>(0) : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
)";

constexpr const char* limits_h = R"(#pragma once
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-SHRT_MAX - 1)
#define SHRT_MAX 0x7fff
#define USHRT_MAX 0xffff
#define INT_MIN (-INT_MAX - 1)
#define INT_MAX 0x7fffffff
#define UINT_MAX 0xffffffff
#define LONG_MIN (-LONG_MAX - 1)
#define LONG_MAX LLONG_MAX
#define ULONG_MAX ULLONG_MAX
#define LLONG_MIN (-LLONG_MAX - 1)
#define LLONG_MAX 0x7fffffffffffffffLL
#define ULLONG_MAX 0xffffffffffffffffUL
)";

constexpr const char* float_h = R"(#pragma once
#define FLT_RADIX 2
#define FLT_MANT_DIG 24
#define DBL_MANT_DIG 53
#define FLT_DIG 6
#define DBL_DIG 15
#define FLT_DECIMAL_DIG 9
#define DBL_DECIMAL_DIG 17
#define FLT_MIN_EXP (-125)
#define DBL_MIN_EXP (-1021)
#define FLT_MAX_EXP 128
#define DBL_MAX_EXP 1024
#define FLT_MIN_10_EXP (-37)
#define DBL_MIN_10_EXP (-307)
#define FLT_MAX_10_EXP 38
#define DBL_MAX_10_EXP 308
#define FLT_MAX 3.40282346638528859812e+38F
#define DBL_MAX 1.79769313486231570815e+308
#define FLT_MIN 1.17549435082228750797e-38F
#define DBL_MIN 2.22507385850720138309e-308
#define FLT_EPSILON 1.1920928955078125e-07F
#define DBL_EPSILON 2.22044604925031308085e-16
#define FLT_TRUE_MIN 1.40129846432481707092e-45F
#define DBL_TRUE_MIN 4.94065645841246544177e-324
)";

constexpr const char* stdlib_h = R"(#pragma once
#include <stddef.h>
)";

constexpr const char* cstdlib = R"(#pragma once
#include <stdlib.h>
namespace std {
using ::size_t;
using ::malloc;
using ::free;
using ::abs;
}
)";

// memcpy and memset are NVRTC builtins; the headers only bring their std:: names.
constexpr const char* string_h = R"(#pragma once
#include <stddef.h>
)";

constexpr const char* cstring = R"(#pragma once
#include <string.h>
namespace std {
using ::size_t;
using ::memcpy;
using ::memset;
}
)";

constexpr const char* cuda_runtime_h = R"(#pragma once
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cmath>
)";

// Kernels include the driver header for CUdeviceptr-style typedefs or version checks.
constexpr const char* cuda_h = R"(#pragma once
#include <cuda_runtime.h>
#ifndef CUDA_VERSION
#define CUDA_VERSION (__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10)
#endif
typedef unsigned long long CUdeviceptr;
)";

constexpr std::array headers{
    CompatHeader{"stddef.h", stddef_h},
    CompatHeader{"cstddef", cstddef},
    CompatHeader{"stdint.h", stdint_h},
    CompatHeader{"cstdint", cstdint},
    CompatHeader{"stdio.h", stdio_h},
    CompatHeader{"cstdio", cstdio},
    CompatHeader{"math.h", math_h},
    CompatHeader{"cmath", cmath},
    CompatHeader{"assert.h", assert_h},
    CompatHeader{"cassert", assert_h},
    CompatHeader{"limits.h", limits_h},
    CompatHeader{"climits", limits_h},
    CompatHeader{"float.h", float_h},
    CompatHeader{"cfloat", float_h},
    CompatHeader{"stdlib.h", stdlib_h},
    CompatHeader{"cstdlib", cstdlib},
    CompatHeader{"string.h", string_h},
    CompatHeader{"cstring", cstring},
    CompatHeader{"cuda_runtime.h", cuda_runtime_h},
    CompatHeader{"cuda.h", cuda_h},
};

} // namespace

std::span<const CompatHeader> compat_headers() {
  static const std::vector<CompatHeader> all = [] {
    std::vector<CompatHeader> v(headers.begin(), headers.end());
    for (const auto& h : compilers::std_headers())
      v.push_back(h);
    for (const auto& h : compilers::hip_layer_headers())
      v.push_back(h);
    return v;
  }();
  return all;
}

} // namespace gpurun::nvrtc
