#include "backends/cuda/device_arch.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

const std::vector<std::string> nvrtc13{"75", "80",  "86",  "87",  "88",  "89",
                                       "90", "100", "103", "110", "120", "121"};

TEST(CudaTarget, KnownDeviceGetsItsOwnCubin) {
  EXPECT_EQ(cuda::default_compile_target(9, 0, nvrtc13), "sm_90");
  EXPECT_EQ(cuda::default_compile_target(8, 6, nvrtc13), "sm_86");
}

TEST(CudaTarget, DeviceNewerThanNvrtcGetsNewestPtx) {
  EXPECT_EQ(cuda::default_compile_target(13, 0, nvrtc13), "compute_121");
}

TEST(CudaTarget, DeviceOlderThanNvrtcKeepsItsArchForAClearError) {
  EXPECT_EQ(cuda::default_compile_target(6, 1, nvrtc13), "sm_61");
}

TEST(CudaTarget, UnknownSupportListTrustsTheDevice) {
  EXPECT_EQ(cuda::default_compile_target(9, 0, {}), "sm_90");
}

} // namespace
} // namespace gpurun
