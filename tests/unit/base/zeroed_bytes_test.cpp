#include "base/zeroed_bytes.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <gtest/gtest.h>

namespace gpurun {
namespace {

bool all_zero(const ZeroedBytes& b) {
  return std::all_of(b.data(), b.data() + b.size(), [](std::byte x) { return x == std::byte{0}; });
}

// Below and above the size from which the pages are mapped: both kinds start zeroed, copy deeply
// and move without copying.
class ZeroedBytesSizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(ZeroedBytesSizes, StartZeroedCopyDeeplyAndMove) {
  const std::size_t n = GetParam();
  ZeroedBytes a(n);
  ASSERT_EQ(a.size(), n);
  ASSERT_NE(a.data(), nullptr);
  EXPECT_TRUE(all_zero(a));
  a.data()[0] = std::byte{7};
  a.data()[n - 1] = std::byte{9};

  ZeroedBytes copy(a);
  ASSERT_NE(copy.data(), a.data());
  EXPECT_EQ(copy.data()[0], std::byte{7});
  EXPECT_EQ(copy.data()[n - 1], std::byte{9});
  copy.data()[0] = std::byte{1};
  EXPECT_EQ(a.data()[0], std::byte{7}) << "the copy shares the original's bytes";

  const std::byte* where = a.data();
  ZeroedBytes moved(std::move(a));
  EXPECT_EQ(moved.data(), where);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(a.data(), nullptr);

  ZeroedBytes assigned;
  assigned = moved;
  EXPECT_EQ(assigned.span().size(), n);
  EXPECT_EQ(assigned.data()[n - 1], std::byte{9});
  EXPECT_NE(assigned.data(), moved.data());
}

INSTANTIATE_TEST_SUITE_P(HeapAndMapped, ZeroedBytesSizes,
                         ::testing::Values(std::size_t{2}, std::size_t{4096},
                                           ZeroedBytes::kMappedFrom - 1, ZeroedBytes::kMappedFrom,
                                           ZeroedBytes::kHugeFrom - 1, ZeroedBytes::kHugeFrom,
                                           (std::size_t{3} << 20) + 1));

// Huge-page mappings start at a huge page's boundary (or the hint could never be honoured), and
// every byte of a length that is not a multiple of the huge page is usable.
TEST(ZeroedBytes, LargeArraysStartAtAHugePageBoundary) {
  const std::size_t n = ZeroedBytes::kHugePage + 12345;
  ZeroedBytes a(n);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % ZeroedBytes::kHugePage, 0u);
  std::fill(a.data(), a.data() + n, std::byte{5});
  EXPECT_EQ(a.data()[n - 1], std::byte{5});
  for (int i = 0; i < 64; ++i) // mappings released whole: no address space leak in a loop
    ZeroedBytes b(std::size_t{64} << 20);
}

TEST(ZeroedBytes, EmptyHasAnAddressOfItsOwn) {
  ZeroedBytes a(0), b(0);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_NE(a.data(), nullptr);
  EXPECT_NE(a.data(), b.data());
}

} // namespace
} // namespace gpurun
