#include "backends/cuda/clock_monitor.hpp"

#include <gtest/gtest.h>

namespace gpurun::cuda {
namespace {

TEST(ClockMonitor, WithoutNvmlTheReasonIsNvmls) {
  const Nvml nvml("/nonexistent/libnvidia-ml.so.1", "GPURUN_NVML_LIBRARY");
  ASSERT_FALSE(nvml.error().empty());
  std::string why_not;
  EXPECT_EQ(open_clock_monitor(nvml, "0000:3B:00.0", why_not), nullptr);
  EXPECT_EQ(why_not, nvml.error());
}

TEST(ClockMonitor, NvmlsReasonComesBeforeAMissingBusId) {
  const Nvml nvml("libm.so.6", "libm.so.6");
  std::string why_not;
  EXPECT_EQ(open_clock_monitor(nvml, "", why_not), nullptr);
  EXPECT_EQ(why_not, "libm.so.6 lacks nvmlInit_v2: the driver is too old");
}

} // namespace
} // namespace gpurun::cuda
