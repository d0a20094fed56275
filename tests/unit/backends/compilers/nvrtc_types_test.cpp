// gpurun's own declarations of the NVRTC API against the toolkit's nvrtc.h, where the build found
// one: a wrong parameter type or result value would make gpurun call NVRTC with the wrong ABI.
#include "backends/compilers/nvrtc_types.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#ifdef GPURUN_TEST_HAVE_NVRTC_H
#include <nvrtc.h>
#endif

#include "support/header_types.hpp"

namespace gpurun::nvrtc {
namespace {

#ifdef GPURUN_TEST_HAVE_NVRTC_H

// nvrtc.h's type for each of gpurun::nvrtc's.
template <class T> struct declared { using type = T; };
template <> struct declared<_nvrtcProgram> { using type = ::_nvrtcProgram; };
template <> struct declared<nvrtcResult> { using type = ::nvrtcResult; };
template <class T> using as_header_t = test::as_header_t<declared, T>;

static_assert(std::is_same_v<as_header_t<nvrtcProgram>, ::nvrtcProgram>);
static_assert(test::same_layout<nvrtcResult, ::nvrtcResult>());
GPURUN_NVRTC_RESULTS(GPURUN_TEST_SAME_VALUE)
GPURUN_NVRTC_FUNCTIONS(GPURUN_TEST_SAME_SIGNATURE)

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
