// gpurun's own declarations of the NVRTC API against the toolkit's nvrtc.h, where the build found
// one: a wrong parameter type or result value would make gpurun call NVRTC with the wrong ABI.
#include "backends/compilers/nvrtc_types.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#ifdef GPURUN_TEST_HAVE_NVRTC_H
#include <nvrtc.h>
#endif

namespace gpurun::nvrtc {
namespace {

#ifdef GPURUN_TEST_HAVE_NVRTC_H

// as_header_t<T>: T with every gpurun::nvrtc type replaced by nvrtc.h's type of the same name,
// through pointers, const and function-pointer signatures.
template <class T> struct as_header { using type = T; };
template <class T> using as_header_t = typename as_header<T>::type;
template <class T> struct as_header<T*> { using type = as_header_t<T>*; };
template <class T> struct as_header<const T> { using type = const as_header_t<T>; };
template <class R, class... Args> struct as_header<R (*)(Args...)> {
  using type = as_header_t<R> (*)(as_header_t<Args>...);
};
template <> struct as_header<_nvrtcProgram> { using type = ::_nvrtcProgram; };
template <> struct as_header<nvrtcResult> { using type = ::nvrtcResult; };

static_assert(std::is_same_v<as_header_t<nvrtcProgram>, ::nvrtcProgram>);
static_assert(sizeof(nvrtcResult) == sizeof(::nvrtcResult));
static_assert(alignof(nvrtcResult) == alignof(::nvrtcResult));

#define GPURUN_SAME_VALUE(name, value)                                                             \
  static_assert(static_cast<long long>(name) == static_cast<long long>(::name), #name);            \
  static_assert(static_cast<long long>(name) == (value), #name);
GPURUN_NVRTC_RESULTS(GPURUN_SAME_VALUE)
#undef GPURUN_SAME_VALUE

#define GPURUN_SAME_SIGNATURE(function)                                                            \
  static_assert(std::is_same_v<as_header_t<function##_fn>, decltype(&::function)>, #function);
GPURUN_NVRTC_FUNCTIONS(GPURUN_SAME_SIGNATURE)
#undef GPURUN_SAME_SIGNATURE

TEST(NvrtcTypes, ComparedWithNvrtcH) {
  // The comparisons are static_asserts above; this records that they ran.
  EXPECT_EQ(static_cast<int>(NVRTC_ERROR_COMPILATION), static_cast<int>(::NVRTC_ERROR_COMPILATION));
}

#else

TEST(NvrtcTypes, ComparedWithNvrtcH) {
  GTEST_SKIP() << "nvrtc.h was not found at build time ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
                  "the system include path): the declarations are not compared with it";
}

#endif

// Independent of the header: the codes nvrtc.cpp treats as the user's input, not as failures.
TEST(NvrtcTypes, UserInputResults) {
  EXPECT_EQ(NVRTC_SUCCESS, 0);
  EXPECT_EQ(NVRTC_ERROR_INVALID_OPTION, 5);
  EXPECT_EQ(NVRTC_ERROR_COMPILATION, 6);
}

} // namespace
} // namespace gpurun::nvrtc
