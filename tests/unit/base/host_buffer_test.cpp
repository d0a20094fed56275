#include "base/host_buffer.hpp"

#include <cstddef>
#include <utility>

#include <gtest/gtest.h>

namespace gpurun {
namespace {

// Copies share their bytes until one of them is written through; then each keeps its own.
TEST(HostBuffer, CopiesShareBytesUntilOneIsWritten) {
  HostBuffer a(DType::f32, {1u << 20});
  a.data()[0] = std::byte{7};
  const HostBuffer b = a; // a report's "before"
  EXPECT_TRUE(a.shares_bytes_with(b));
  EXPECT_EQ(b.data()[0], std::byte{7});

  a.bytes()[0] = std::byte{9}; // written: a takes a copy first
  EXPECT_FALSE(a.shares_bytes_with(b));
  EXPECT_EQ(a.data()[0], std::byte{9});
  EXPECT_EQ(std::as_const(b).data()[0], std::byte{7}) << "the copy saw the other's write";
  EXPECT_EQ(b.size_bytes(), a.size_bytes());
}

TEST(HostBuffer, AnUnsharedBufferIsWrittenInPlace) {
  HostBuffer a(DType::u8, {64});
  const std::byte* before = std::as_const(a).data();
  *a.element(3) = std::byte{1};
  EXPECT_EQ(std::as_const(a).data(), before) << "copied though nothing shared it";
}

TEST(HostBuffer, EmptyAndMovedFromBuffersHaveNoBytes) {
  HostBuffer empty;
  EXPECT_EQ(empty.size_bytes(), 0u);
  HostBuffer a(DType::i32, {4});
  HostBuffer b = std::move(a);
  EXPECT_EQ(b.size_bytes(), 16u);
  EXPECT_EQ(a.size_bytes(), 0u); // NOLINT(bugprone-use-after-move): the moved-from state
  EXPECT_EQ(a.bytes().size(), 0u);
}

} // namespace
} // namespace gpurun
