#include "backends/cuda/device.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

TEST(CudaDeviceProperties, TheoreticalBandwidthIsDoubleDataRateOverTheBus) {
  // 1 GHz memory clock, 256-bit bus: 2 * 1e9 * 32 bytes = 64 GB/s.
  EXPECT_DOUBLE_EQ(cuda::theoretical_bandwidth_gbs(1'000'000, 256), 64.0);
  // H100 SXM as the driver reports it: 2.619 GHz, 5120 bits.
  EXPECT_NEAR(cuda::theoretical_bandwidth_gbs(2'619'000, 5120), 3352.32, 1e-6);
  EXPECT_EQ(cuda::theoretical_bandwidth_gbs(0, 5120), 0.0);
}

TEST(CudaDeviceProperties, DriverVersionText) {
  EXPECT_EQ(cuda::driver_version_text(13000), "13.0");
  EXPECT_EQ(cuda::driver_version_text(12080), "12.8");
  EXPECT_EQ(cuda::driver_version_text(11020), "11.2");
}

} // namespace
} // namespace gpurun
