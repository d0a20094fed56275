#include "backends/cuda/nvml.hpp"

#include <cstdlib>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace gpurun::cuda {
namespace {

TEST(ClocksEventReasons, NoBitIsNone) {
  EXPECT_EQ(describe_clocks_event_reasons(0), "none");
}

TEST(ClocksEventReasons, EachBitHasItsName) {
  EXPECT_EQ(describe_clocks_event_reasons(0x1), "gpu_idle");
  EXPECT_EQ(describe_clocks_event_reasons(0x2), "applications_clocks");
  EXPECT_EQ(describe_clocks_event_reasons(0x4), "sw_power_cap");
  EXPECT_EQ(describe_clocks_event_reasons(0x8), "hw_slowdown");
  EXPECT_EQ(describe_clocks_event_reasons(0x10), "sync_boost");
  EXPECT_EQ(describe_clocks_event_reasons(0x20), "sw_thermal");
  EXPECT_EQ(describe_clocks_event_reasons(0x40), "hw_thermal");
  EXPECT_EQ(describe_clocks_event_reasons(0x80), "hw_power_brake");
  EXPECT_EQ(describe_clocks_event_reasons(0x100), "display_clocks");
}

TEST(ClocksEventReasons, SeveralBitsInBitOrder) {
  EXPECT_EQ(describe_clocks_event_reasons(0x20 | 0x8), "hw_slowdown, sw_thermal");
  EXPECT_EQ(describe_clocks_event_reasons(0x1ff),
            "gpu_idle, applications_clocks, sw_power_cap, hw_slowdown, sync_boost, sw_thermal, "
            "hw_thermal, hw_power_brake, display_clocks");
}

TEST(ClocksEventReasons, BitsWithoutANameAreHex) {
  EXPECT_EQ(describe_clocks_event_reasons(0x800), "0x800");
  EXPECT_EQ(describe_clocks_event_reasons(0x4 | 0x600), "sw_power_cap, 0x600");
  EXPECT_EQ(describe_clocks_event_reasons(1ull << 63), "0x8000000000000000");
}

TEST(Nvml, AFileThatDoesNotExistGivesTheLoadersReason) {
  const Nvml nvml("/nonexistent/libnvidia-ml.so.1", "GPURUN_NVML_LIBRARY");
  EXPECT_EQ(nvml.error().rfind("GPURUN_NVML_LIBRARY: /nonexistent/libnvidia-ml.so.1", 0), 0u)
      << nvml.error();
  EXPECT_EQ(nvml.api().init, nullptr);
}

TEST(Nvml, ALibraryWithoutNvmlSaysWhatItLacks) {
  const Nvml nvml("libm.so.6", "libm.so.6");
  EXPECT_EQ(nvml.error(), "libm.so.6 lacks nvmlInit_v2: the driver is too old");
  EXPECT_EQ(nvml.api().init, nullptr);
}

TEST(Nvml, WhereTheDriverIsAbsentTheSonameIsNotFound) {
  const Nvml nvml("libnvidia-ml.so.1", "libnvidia-ml.so.1");
  if (nvml.error().empty() || nvml.error().rfind("nvmlInit_v2: ", 0) == 0)
    GTEST_SKIP() << "libnvidia-ml.so.1 is installed here (" << nvml.error() << ")";
  EXPECT_EQ(nvml.error(), "libnvidia-ml.so.1 not found");
}

TEST(Nvml, ReturnCodesWithoutTheLibraryAreNumbers) {
  const Nvml nvml("/nonexistent/libnvidia-ml.so.1", "GPURUN_NVML_LIBRARY");
  EXPECT_EQ(nvml.describe(NVML_ERROR_NOT_SUPPORTED), "nvmlReturn_t 3");
}

// The only test in this binary that opens the process's NVML, so the variable is read here first.
TEST(Nvml, EnvironmentVariableNamesTheOneFileToTry) {
  const char* saved = std::getenv("GPURUN_NVML_LIBRARY");
  const std::optional<std::string> previous =
      saved != nullptr ? std::optional<std::string>(saved) : std::nullopt;
  ::setenv("GPURUN_NVML_LIBRARY", "/nonexistent", 1);
  const std::string error = nvml().error();
  if (previous)
    ::setenv("GPURUN_NVML_LIBRARY", previous->c_str(), 1);
  else
    ::unsetenv("GPURUN_NVML_LIBRARY");
  EXPECT_EQ(error.rfind("GPURUN_NVML_LIBRARY: /nonexistent", 0), 0u) << error;
  EXPECT_EQ(&nvml(), &nvml()); // opened once per process
}

} // namespace
} // namespace gpurun::cuda
