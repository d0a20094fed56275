#include "backends/cuda/error.hpp"

#include <gtest/gtest.h>

namespace gpurun::cuda {
namespace {

TEST(CudaError, FormatNamesWhatCodeAndDescription) {
  EXPECT_EQ(cuda::format_error("kernel 'oob' faulted", "CUDA_ERROR_ILLEGAL_ADDRESS",
                               "an illegal memory access was encountered"),
            "kernel 'oob' faulted: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was "
            "encountered)");
  EXPECT_EQ(cuda::format_error("cuMemAlloc failed", "CUresult 2", ""),
            "cuMemAlloc failed: CUresult 2");
}

TEST(CudaError, ThrowErrorKeepsNativeStatusAndLocation) {
  try {
    cuda::throw_error(CUDA_ERROR_ILLEGAL_ADDRESS, "cuStreamSynchronize", ExitCode::device,
                      "kernel 'oob' faulted", "context.cpp", 42);
    FAIL() << "throw_error returned";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(e.backend(), "cuda");
    EXPECT_EQ(e.call(), "cuStreamSynchronize");
    EXPECT_EQ(e.native_code(), 700);
    // The driver names the code where it is installed; without it, the number stands in.
    EXPECT_EQ(e.native_name(), cuda::result_name(CUDA_ERROR_ILLEGAL_ADDRESS));
    EXPECT_EQ(std::string(e.what()).rfind("kernel 'oob' faulted: " + e.native_name(), 0), 0u)
        << e.what();
    EXPECT_STREQ(e.file(), "context.cpp");
    EXPECT_EQ(e.line(), 42);
  }
}

TEST(CudaError, ResultNamesWithoutADriver) {
  // From the driver where there is one, else from the built-in table, else the number.
  EXPECT_EQ(cuda::result_name(CUDA_ERROR_OUT_OF_MEMORY), "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(cuda::result_name(CUDA_ERROR_ILLEGAL_ADDRESS), "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(cuda::describe(CUDA_ERROR_NO_DEVICE),
            "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
  const auto unknown = cuda::result_name(static_cast<CUresult>(123456));
  EXPECT_TRUE(unknown == "CUresult 123456" || unknown.rfind("CUDA_ERROR_", 0) == 0) << unknown;
}

int evaluations = 0;
CUresult counted(CUresult r) {
  ++evaluations;
  return r;
}

TEST(CudaError, CheckMacroEvaluatesOnceAndThrowsOnlyOnFailure) {
  evaluations = 0;
  EXPECT_NO_THROW(GPURUN_CU_CHECK("cuFake", counted(CUDA_SUCCESS)));
  EXPECT_EQ(evaluations, 1);
  // On one line: compilers differ on which line of a macro call spanning several __LINE__ is.
  const int call_line = __LINE__ + 3;
  try {
    // clang-format off
    GPURUN_CU_CHECK_MSG("cuMemAlloc", counted(CUDA_ERROR_OUT_OF_MEMORY), ExitCode::device, "allocating {} bytes on the device", 1024);
    // clang-format on
    FAIL() << "no throw";
  } catch (const BackendError& e) {
    EXPECT_EQ(evaluations, 2);
    EXPECT_EQ(e.call(), "cuMemAlloc");
    EXPECT_EQ(e.native_code(), 2);
    EXPECT_NE(std::string(e.what()).find("allocating 1024 bytes on the device: "),
              std::string::npos);
    EXPECT_NE(std::string(e.file()).find("error_test.cpp"), std::string::npos);
    EXPECT_EQ(e.line(), call_line); // where the check is written, not inside the macro
  }
}

} // namespace
} // namespace gpurun::cuda
