// gpurun's own declarations of the hipRTC API against ROCm's hip/hiprtc.h, where the build found
// one: a wrong parameter type or result value would make gpurun call hipRTC with the wrong ABI.
#include "backends/compilers/hiprtc_types.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#ifdef GPURUN_TEST_HAVE_HIPRTC_H
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>
#endif

#include "support/header_types.hpp"

namespace gpurun::hiprtc {
namespace {

#ifdef GPURUN_TEST_HAVE_HIPRTC_H

// ROCm's type for each of gpurun::hiprtc's.
template <class T> struct declared { using type = T; };
template <> struct declared<_hiprtcProgram> { using type = ::_hiprtcProgram; };
template <> struct declared<hiprtcResult> { using type = ::hiprtcResult; };
template <> struct declared<hipError_t> { using type = ::hipError_t; };
template <class T> using as_header_t = test::as_header_t<declared, T>;

static_assert(std::is_same_v<as_header_t<hiprtcProgram>, ::hiprtcProgram>);
static_assert(test::same_layout<hiprtcResult, ::hiprtcResult>());
static_assert(test::same_layout<hipError_t, ::hipError_t>());
GPURUN_HIPRTC_RESULTS(GPURUN_TEST_SAME_VALUE)
GPURUN_TEST_SAME_VALUE(hipSuccess, 0)
GPURUN_HIPRTC_FUNCTIONS(GPURUN_TEST_SAME_SIGNATURE)
GPURUN_TEST_SAME_SIGNATURE(hipRuntimeGetVersion)

TEST(HiprtcTypes, ComparedWithHiprtcH) {
  // The comparisons are static_asserts above; this records that they ran.
  EXPECT_EQ(static_cast<int>(HIPRTC_ERROR_COMPILATION),
            static_cast<int>(::HIPRTC_ERROR_COMPILATION));
}

#else

TEST(HiprtcTypes, ComparedWithHiprtcH) {
  GTEST_SKIP() << "hip/hiprtc.h was not found at build time ($ROCM_PATH, /opt/rocm, the system "
                  "include path): the declarations are not compared with it";
}

#endif

// Independent of the header: the codes hiprtc.cpp treats as the user's input, not as failures.
TEST(HiprtcTypes, UserInputResults) {
  EXPECT_EQ(HIPRTC_SUCCESS, 0);
  EXPECT_EQ(HIPRTC_ERROR_INVALID_OPTION, 5);
  EXPECT_EQ(HIPRTC_ERROR_COMPILATION, 6);
}

} // namespace
} // namespace gpurun::hiprtc
