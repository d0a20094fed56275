// The lines of a failed device assert, found in what the driver printed on standard error.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backends/cuda/device_assert.hpp"

namespace gpurun::cuda {
namespace {

const std::string line_3 = "/src/k.cu:12: void k(float *, int): block: [1,0,0], thread: [3,0,0] "
                           "Assertion `i < n` failed.";
const std::string line_4 = "/src/k.cu:12: void k(float *, int): block: [1,0,0], thread: [4,0,0] "
                           "Assertion `i < n` failed.";

TEST(DeviceAssert, FindsTheAssertionLinesAmongOtherText) {
  const auto found = find_assertions("gpurun: warning: something\n" + line_3 +
                                     "\nAssertion `not one` failed.\n" + line_4 + "\r\n");
  EXPECT_EQ(found.first, line_3);
  EXPECT_EQ(found.count, 2u);
}

TEST(DeviceAssert, ALineWithoutAFunctionNameCounts) {
  const std::string line = "C:/src/k.cu:78: block: [34,0,0], thread: [110,0,0] Assertion `false` "
                           "failed.";
  const auto found = find_assertions(line);
  EXPECT_EQ(found.first, line);
  EXPECT_EQ(found.count, 1u);
}

TEST(DeviceAssert, OtherTextAloneHasNone) {
  const auto found = find_assertions("block: [1,0,0], thread: [3,0,0]\nAssertion `x` failed.\n"
                                     "k.cu:1: f: block: [1,0,0], thread: [3,0,0] Assertion `x`\n");
  EXPECT_EQ(found.count, 0u);
  EXPECT_EQ(found.first, "");
}

TEST(DeviceAssert, DescriptionNamesKernelFirstLineAndTheOthers) {
  EXPECT_EQ(describe_assertion("k", {line_3, 1}), "kernel 'k' failed an assertion: " + line_3);
  EXPECT_EQ(describe_assertion("k", {line_3, 2}),
            "kernel 'k' failed an assertion: " + line_3 + " (and 1 more thread)");
  EXPECT_EQ(describe_assertion("k", {line_3, 64}),
            "kernel 'k' failed an assertion: " + line_3 + " (and 63 more threads)");
}

TEST(DeviceAssert, ModulesThatCallAssertfailAreRecognized) {
  auto bytes = [](const std::string& s) {
    std::vector<std::byte> out(s.size());
    std::memcpy(out.data(), s.data(), s.size());
    return out;
  };
  EXPECT_TRUE(calls_assertfail(bytes(".extern .func __assertfail\n(\n")));
  // A cubin's symbol names sit between other bytes, NUL-separated.
  EXPECT_TRUE(calls_assertfail(bytes(std::string("\x7f"
                                                 "ELF\0vprintf\0__assertfail\0",
                                                 26))));
  EXPECT_FALSE(calls_assertfail(bytes(".extern .func vprintf\n")));
  EXPECT_FALSE(calls_assertfail({}));
}

} // namespace
} // namespace gpurun::cuda
