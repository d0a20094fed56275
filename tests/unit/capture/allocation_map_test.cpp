#include "capture/allocation_map.hpp"

#include <gtest/gtest.h>

namespace gpurun::capture {
namespace {

TEST(AllocationMap, FindsTheAllocationHoldingAnAddress) {
  AllocationMap map;
  map.add({0x1000, 0x100, MemoryKind::device});
  map.add({0x2000, 0x10, MemoryKind::pool});
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.bytes(), 0x110u);
  EXPECT_FALSE(map.find(0xfff).has_value());
  EXPECT_EQ(map.find(0x1000)->base, 0x1000u);
  EXPECT_EQ(map.find(0x10ff)->base, 0x1000u);
  EXPECT_FALSE(map.find(0x1100).has_value()) << "one past the end";
  EXPECT_EQ(map.find(0x200f)->kind, MemoryKind::pool);
  EXPECT_FALSE(map.find(0x2010).has_value());
  EXPECT_FALSE(map.find(0).has_value());
  EXPECT_FALSE(map.find(~std::uint64_t{0}).has_value());
}

TEST(AllocationMap, FreeForgetsOnlyWhatStartsThere) {
  AllocationMap map;
  map.add({0x1000, 0x100, MemoryKind::device});
  EXPECT_FALSE(map.remove(0x1010)) << "not a base";
  EXPECT_TRUE(map.remove(0x1000));
  EXPECT_FALSE(map.remove(0x1000));
  EXPECT_FALSE(map.find(0x1000).has_value());
  EXPECT_EQ(map.bytes(), 0u);
}

// A free the interposer did not see: the driver hands the range out again, and the new
// allocation replaces every recorded one it overlaps.
TEST(AllocationMap, AReusedRangeReplacesWhatItOverlaps) {
  AllocationMap map;
  map.add({0x1000, 0x100, MemoryKind::device});
  map.add({0x1100, 0x100, MemoryKind::device});
  map.add({0x1200, 0x100, MemoryKind::device});
  map.add({0x10f0, 0x20, MemoryKind::mapped}); // overlaps the first two
  EXPECT_EQ(map.size(), 2u);
  EXPECT_EQ(map.find(0x1000), std::nullopt);
  EXPECT_EQ(map.find(0x1100)->kind, MemoryKind::mapped);
  EXPECT_EQ(map.find(0x1200)->base, 0x1200u);
  EXPECT_EQ(map.bytes(), 0x120u);
  map.add({0x5000, 0, MemoryKind::device});
  map.add({~std::uint64_t{0} - 4, 16, MemoryKind::device}); // wraps: not an allocation
  EXPECT_EQ(map.size(), 2u);
}

} // namespace
} // namespace gpurun::capture
