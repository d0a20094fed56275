// gpurun's own declarations of the driver API against the toolkit's cuda.h, where the build found
// one: a wrong parameter type, a missing const, a wrong enumerator value or an unversioned symbol
// would make gpurun call the driver with the wrong ABI, which no other test without a GPU sees.
#include "backends/cuda/driver_types.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <type_traits>

#ifdef GPURUN_TEST_HAVE_CUDA_H
#include <cuda.h>
#endif

#include "support/header_types.hpp"

namespace gpurun::cuda {
namespace {

#ifdef GPURUN_TEST_HAVE_CUDA_H

// cuda.h's type for each of gpurun::cuda's.
template <class T> struct declared { using type = T; };
template <class T> using as_header_t = test::as_header_t<declared, T>;
#define GPURUN_AS_HEADER(ours, theirs)                                                             \
  template <> struct declared<ours> { using type = ::theirs; }
GPURUN_AS_HEADER(CUctx_st, CUctx_st);
GPURUN_AS_HEADER(CUmod_st, CUmod_st);
GPURUN_AS_HEADER(CUfunc_st, CUfunc_st);
GPURUN_AS_HEADER(CUstream_st, CUstream_st);
GPURUN_AS_HEADER(CUevent_st, CUevent_st);
GPURUN_AS_HEADER(CUresult, CUresult);
GPURUN_AS_HEADER(CUdevice_attribute, CUdevice_attribute);
GPURUN_AS_HEADER(CUfunction_attribute, CUfunction_attribute);
GPURUN_AS_HEADER(CUjit_option, CUjit_option);
GPURUN_AS_HEADER(CUstream_flags, CUstream_flags);
GPURUN_AS_HEADER(CUevent_flags, CUevent_flags);
GPURUN_AS_HEADER(CUlimit, CUlimit);
#undef GPURUN_AS_HEADER

// The handles and scalar types are the header's own.
static_assert(std::is_same_v<as_header_t<CUcontext>, ::CUcontext>);
static_assert(std::is_same_v<as_header_t<CUmodule>, ::CUmodule>);
static_assert(std::is_same_v<as_header_t<CUfunction>, ::CUfunction>);
static_assert(std::is_same_v<as_header_t<CUstream>, ::CUstream>);
static_assert(std::is_same_v<as_header_t<CUevent>, ::CUevent>);
static_assert(std::is_same_v<CUdevice, ::CUdevice>);
static_assert(std::is_same_v<CUdeviceptr, ::CUdeviceptr>);

// The enums are passed by value: their size and alignment are their ABI.
using test::same_layout;
static_assert(same_layout<CUresult, ::CUresult>());
static_assert(same_layout<CUdevice_attribute, ::CUdevice_attribute>());
static_assert(same_layout<CUfunction_attribute, ::CUfunction_attribute>());
static_assert(same_layout<CUjit_option, ::CUjit_option>());
static_assert(same_layout<CUstream_flags, ::CUstream_flags>());
static_assert(same_layout<CUevent_flags, ::CUevent_flags>());
static_assert(same_layout<CUlimit, ::CUlimit>());

// Every enumerator gpurun declares has the header's value.
GPURUN_CU_RESULTS(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_DEVICE_ATTRIBUTES(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_FUNCTION_ATTRIBUTES(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_JIT_OPTIONS(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_STREAM_FLAGS(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_EVENT_FLAGS(GPURUN_TEST_SAME_VALUE)
GPURUN_CU_LIMITS(GPURUN_TEST_SAME_VALUE)

// Every entry point has the header's signature. `&::function` names what cuda.h maps the function
// to (its versioned symbol), which is the declaration a program linked against libcuda calls.
GPURUN_CU_FUNCTIONS(GPURUN_TEST_SAME_SIGNATURE)
#if CUDA_VERSION >= 12040
GPURUN_CU_FUNCTIONS_12_4(GPURUN_TEST_SAME_SIGNATURE)
#endif

#define GPURUN_STRINGIFY_EXPANDED(x) GPURUN_STRINGIFY(x)
#define GPURUN_STRINGIFY(x) #x

TEST(DriverTypes, SymbolsAreTheOnesCudaHMapsTo) {
#if CUDA_VERSION >= 12080
  // The symbol names gpurun binds are the ones cuda.h #defines each function to (cuMemAlloc →
  // cuMemAlloc_v2). From 12.8 on this includes cuEventElapsedTime_v2.
#define GPURUN_EXPECT_SYMBOL(function, symbol)                                                     \
  EXPECT_STREQ(function##_symbol, GPURUN_STRINGIFY_EXPANDED(function)) << #function;               \
  EXPECT_STREQ(function##_symbol, symbol) << #function;
  GPURUN_CU_FUNCTIONS(GPURUN_EXPECT_SYMBOL)
  GPURUN_CU_FUNCTIONS_12_4(GPURUN_EXPECT_SYMBOL)
#undef GPURUN_EXPECT_SYMBOL
  EXPECT_STREQ(cuMemAlloc_symbol, "cuMemAlloc_v2");
#else
  GTEST_SKIP() << "cuda.h " << CUDA_VERSION << " predates cuEventElapsedTime_v2 (12.8)";
#endif
}

TEST(DriverTypes, ComparedWithCudaH) {
  // The comparisons are static_asserts above; this records that they ran.
  EXPECT_GE(CUDA_VERSION, 12000);
  EXPECT_EQ(static_cast<int>(CUDA_ERROR_ILLEGAL_ADDRESS),
            static_cast<int>(::CUDA_ERROR_ILLEGAL_ADDRESS));
}

#else

TEST(DriverTypes, ComparedWithCudaH) {
  GTEST_SKIP() << "cuda.h was not found at build time ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
                  "the system include path): the declarations are not compared with it";
}

#endif

// Independent of the header: the values gpurun relies on in its own messages and checks.
TEST(DriverTypes, NamesAndValuesUsedInMessages) {
  EXPECT_EQ(CUDA_SUCCESS, 0);
  EXPECT_EQ(CUDA_ERROR_ILLEGAL_ADDRESS, 700);
  EXPECT_EQ(CUDA_ERROR_NO_DEVICE, 100);
  EXPECT_STREQ(cuMemFree_symbol, "cuMemFree_v2");
  EXPECT_STREQ(cuEventElapsedTime_unversioned_symbol, "cuEventElapsedTime");
}

} // namespace
} // namespace gpurun::cuda
