#include "output/color.hpp"

#include <iostream>
#include <sstream>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

TEST(Color, PaintWrapsTheTextInAnsiCodesOnlyWhenOn) {
  EXPECT_EQ(paint(Tone::good, "ok", false), "ok");
  const std::string green = paint(Tone::good, "ok", true);
  EXPECT_EQ(green, "\x1b[32mok\x1b[0m");
  const std::string red = paint(Tone::bad, "FAILED", true);
  EXPECT_NE(red.find("\x1b[1m"), std::string::npos) << red; // bold
  EXPECT_NE(red.find("\x1b[31m"), std::string::npos) << red;
  EXPECT_NE(red.find("FAILED"), std::string::npos);
  EXPECT_EQ(paint(Tone::warn, "warning:", true), "\x1b[33mwarning:\x1b[0m");
}

TEST(Color, ChoiceIsParsedAndAnythingElseIsAUsageError) {
  EXPECT_EQ(parse_color_choice("auto"), ColorChoice::automatic);
  EXPECT_EQ(parse_color_choice("always"), ColorChoice::always);
  EXPECT_EQ(parse_color_choice("never"), ColorChoice::never);
  try {
    (void)parse_color_choice("sometimes");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "--color: 'sometimes' is not one of auto, always, never");
  }
}

TEST(Color, OnlyTheStandardStreamsFollowTheChoice) {
  std::ostringstream file;
  set_color_choice(ColorChoice::always);
  EXPECT_TRUE(colors_for(std::cout));
  EXPECT_TRUE(colors_for(std::cerr));
  EXPECT_FALSE(colors_for(file)); // a file or a string never gets colour
  EXPECT_NE(warning_prefix().find("\x1b["), std::string::npos);
  set_color_choice(ColorChoice::never);
  EXPECT_FALSE(colors_for(std::cout));
  EXPECT_EQ(warning_prefix(), "gpurun: warning: ");
  EXPECT_EQ(error_prefix(), "gpurun: error: ");
  EXPECT_EQ(error_prefix("internal error"), "gpurun: internal error: ");
  set_color_choice(ColorChoice::automatic);
}

} // namespace
} // namespace gpurun
