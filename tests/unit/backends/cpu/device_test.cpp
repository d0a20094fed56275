#include "backends/cpu/device.hpp"

#include <gtest/gtest.h>

namespace gpurun::cpu {
namespace {

TEST(CpuDevice, HasNoClockMonitorAndSaysWhy) {
  CpuDevice device;
  std::string why_not;
  EXPECT_EQ(device.clock_monitor(why_not), nullptr);
  EXPECT_EQ(why_not, "the CPU backend has no clocks to watch");
}

} // namespace
} // namespace gpurun::cpu
