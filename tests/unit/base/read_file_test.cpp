#include "base/read_file.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

TEST(ReadFile, ReturnsEveryByteIncludingNul) {
  const auto path = test::temp_dir() / "bytes.bin";
  const std::string bytes("a\0b\r\n", 5);
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_EQ(read_file(path), bytes);
}

TEST(ReadFile, MissingFileIsNullopt) {
  EXPECT_FALSE(read_file(test::temp_dir() / "absent.txt").has_value());
}

} // namespace
} // namespace gpurun
