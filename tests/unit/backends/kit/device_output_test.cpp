#include "backends/kit/device_output.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace gpurun {
namespace {

void write_stdout(const std::string& text) {
  ASSERT_EQ(::write(STDOUT_FILENO, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(DeviceOutputScope, HandsWhatWasWrittenToTheSink) {
  std::string received;
  int calls = 0;
  const DeviceOutputSink sink = [&](std::string_view text) {
    received += text;
    ++calls;
  };
  {
    kit::DeviceOutputScope scope(sink, kit::CaptureFailure::raise);
    write_stdout("from the device\n");
    std::printf("and through stdio\n");
  }
  EXPECT_EQ(received, "from the device\nand through stdio\n");
  EXPECT_EQ(calls, 1);
}

TEST(DeviceOutputScope, CallsTheSinkOnlyWhenThereIsText) {
  int calls = 0;
  const DeviceOutputSink sink = [&](std::string_view) { ++calls; };
  { kit::DeviceOutputScope scope(sink, kit::CaptureFailure::let_through); }
  EXPECT_EQ(calls, 0);
}

TEST(DeviceOutputScope, HandsTheTextOverWhenTheScopeEndsByAnException) {
  std::string received;
  const DeviceOutputSink sink = [&](std::string_view text) { received += text; };
  try {
    kit::DeviceOutputScope scope(sink, kit::CaptureFailure::raise);
    write_stdout("before the fault\n");
    throw std::runtime_error("fault");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(received, "before the fault\n");
}

TEST(DeviceOutputScope, WithoutASinkCapturesNothing) {
  const DeviceOutputSink none;
  testing::internal::CaptureStdout();
  {
    kit::DeviceOutputScope scope(none, kit::CaptureFailure::raise);
    write_stdout("passes\n");
  }
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "passes\n");
}

} // namespace
} // namespace gpurun
