#include "base/read_file.hpp"

#include <cstdint>
#include <filesystem>
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

TEST(ReadFile, AFileLargerThanTheLimitIsRefusedWithItsSize) {
  const auto path = test::temp_dir() / "five.txt";
  std::ofstream(path) << "12345";
  std::string why;
  EXPECT_FALSE(read_file(path, &why, 4).has_value());
  EXPECT_EQ(why, "is 5 bytes, more than the 4 bytes gpurun reads");
  EXPECT_EQ(read_file(path, &why, 5), "12345");
}

// Sparse: 16 GiB by its size and nothing on disk. Read whole, it once ended in std::bad_alloc.
TEST(ReadFile, A16GiBFileIsRefusedBeforeItIsRead) {
  const auto path = test::temp_dir() / "huge.cu";
  std::ofstream(path).close();
  std::filesystem::resize_file(path, std::uint64_t{16} << 30);
  std::string why;
  EXPECT_FALSE(read_file(path, &why).has_value());
  EXPECT_EQ(why, "is 16.0 GiB, more than the 4.00 GiB gpurun reads");
  std::filesystem::remove(path);
}

TEST(ReadFile, MissingFileIsNullopt) {
  EXPECT_FALSE(read_file(test::temp_dir() / "absent.txt").has_value());
}

} // namespace
} // namespace gpurun
