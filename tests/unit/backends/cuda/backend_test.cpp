// The CUDA backend on a machine that may have no GPU: probing must say why it is unavailable.
#include "backends/cuda/backend.hpp"

#include <gtest/gtest.h>

#include "backends/cuda/api.hpp"

namespace gpurun {
namespace {

TEST(CudaBackend, NameAndLanguages) {
  auto backend = make_cuda_backend();
  EXPECT_EQ(backend->name(), "cuda");
  const auto languages = backend->languages();
  ASSERT_EQ(languages.size(), 3u);
  EXPECT_EQ(languages[0], Language::cuda); // its own: .cu goes here before any other GPU backend
  EXPECT_EQ(languages[1], Language::ptx);
  EXPECT_EQ(languages[2], Language::hip); // through NVRTC and gpurun's HIP layer
}

TEST(CudaBackend, UnavailableProbeGivesReasonAndNoDevices) {
  auto backend = make_cuda_backend();
  const auto probe = backend->probe();
  if (probe.available)
    GTEST_SKIP() << "a CUDA device is present; this test is for GPU-less hosts";
  ASSERT_FALSE(probe.reason.empty());
  const auto& driver = cuda::driver();
  if (!driver.error.empty()) {
    // No driver library: the reason names the library and carries dlerror's text.
    EXPECT_EQ(probe.reason.rfind("libcuda.so.1 not found: ", 0), 0u) << probe.reason;
    EXPECT_GT(probe.reason.size(), std::string("libcuda.so.1 not found: ").size());
  } else {
    // A driver without a usable GPU (or the toolkit's stub libcuda): cuInit or the device count
    // says so, by name.
    EXPECT_TRUE(probe.reason.rfind("cuInit failed: CUDA_ERROR_", 0) == 0 ||
                probe.reason == "no device")
        << probe.reason;
  }
  EXPECT_TRUE(backend->devices().empty());
}

TEST(CudaDriverTable, MissingDriverLeavesTableEmpty) {
  const auto& driver = cuda::driver();
  if (driver.error.empty()) {
    EXPECT_NE(driver.api.launch_kernel, nullptr);
    EXPECT_NE(driver.api.mem_alloc, nullptr);
    EXPECT_FALSE(driver.path.empty());
  } else {
    EXPECT_EQ(driver.api.launch_kernel, nullptr);
    EXPECT_EQ(driver.api.init, nullptr);
    EXPECT_FALSE(driver.handle);
  }
}

} // namespace
} // namespace gpurun
