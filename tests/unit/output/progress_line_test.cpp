#include "output/progress_line.hpp"

#include <gtest/gtest.h>

#include "base/format.hpp"

namespace gpurun {
namespace {

TEST(ProgressLine, TextIsCutToTheTerminalWidthOnCharacterBoundaries) {
  EXPECT_EQ(fit_to_columns("short", 80), "short");
  EXPECT_EQ(fit_to_columns("abcdefghij", 10), "abcdefghij");
  EXPECT_EQ(fit_to_columns("abcdefghijk", 10), "abcdefghi…");
  // "µ" is two bytes and one column: never cut in half.
  const std::string cut = fit_to_columns("µµµµµµ", 4);
  EXPECT_EQ(cut, "µµµ…");
  EXPECT_EQ(display_width(cut), 4u);
  EXPECT_EQ(fit_to_columns("abc", 0), "");
}

TEST(ProgressLine, RoughDurationsKeepFewDigits) {
  EXPECT_EQ(rough_duration(0.8504), "850 ms");
  EXPECT_EQ(rough_duration(3.2049), "3.2 s");
  EXPECT_EQ(rough_duration(41.4), "41 s");
  EXPECT_EQ(rough_duration(725.9), "12 min 5 s");
  EXPECT_EQ(rough_duration(-1), "?");
}

TEST(ProgressLine, DisabledLineNeverCallsItsStatus) {
  bool called = false;
  {
    ProgressLine line(false, std::chrono::milliseconds(0));
    line.show([&called] {
      called = true;
      return std::string("x");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_FALSE(called);
}

} // namespace
} // namespace gpurun
