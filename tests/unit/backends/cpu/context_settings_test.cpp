#include "backends/cpu/context_settings.hpp"

#include <gtest/gtest.h>

namespace gpurun::cpu {
namespace {

TEST(ContextSettings, DefaultsWhenNothingIsSet) {
  const auto s = ContextSettings::from(ContextOptions{});
  EXPECT_FALSE(s.memcheck);
  EXPECT_FALSE(s.stats);
  EXPECT_EQ(s.threads, 0);
  EXPECT_EQ(s.printf_buffer, k_default_printf_buffer);
  EXPECT_EQ(s.heap_bytes, std::size_t{8} << 20);
  EXPECT_EQ(s.max_findings, 10u);
}

TEST(ContextSettings, TakesWhatWasGiven) {
  ContextOptions o;
  o.settings.memcheck = true;
  o.settings.leak_check = true;
  o.settings.host_threads = 3;
  o.settings.heap_bytes = 4096;
  o.settings.max_findings = 0;
  o.settings.printf_buffer = 100;
  const auto s = ContextSettings::from(o);
  EXPECT_TRUE(s.memcheck);
  EXPECT_TRUE(s.leakcheck);
  EXPECT_FALSE(s.racecheck);
  EXPECT_EQ(s.threads, 3);
  EXPECT_EQ(s.heap_bytes, 4096u);
  EXPECT_EQ(s.max_findings, 0u);
  EXPECT_EQ(s.printf_buffer, 100u);
}

TEST(ContextSettings, NegativeThreadCountMeansAllCores) {
  ContextOptions o;
  o.settings.host_threads = -4;
  EXPECT_EQ(ContextSettings::from(o).threads, 0);
}

} // namespace
} // namespace gpurun::cpu
