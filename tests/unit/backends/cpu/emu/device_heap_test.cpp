// The device heap behind in-kernel malloc/free (emu/device_heap.cpp).
#include "backends/cpu/emu/device_heap.hpp"

#include <gtest/gtest.h>

namespace gpurun::emu {
namespace {

constexpr std::uint64_t kBase = 0x10000;

TEST(DeviceHeap, BlocksAreAlignedDistinctAndInsideTheHeap) {
  DeviceHeap heap(kBase, 1024);
  const auto a = heap.allocate(10);
  const auto b = heap.allocate(1);
  EXPECT_EQ(a, kBase);
  EXPECT_EQ(b, kBase + 16);
  EXPECT_TRUE(heap.contains(a));
  EXPECT_FALSE(heap.contains(kBase + 1024));
  EXPECT_EQ(heap.live().size(), 2u);
}

TEST(DeviceHeap, AFullHeapReturnsNull) {
  DeviceHeap heap(kBase, 64);
  EXPECT_NE(heap.allocate(48), 0u);
  EXPECT_EQ(heap.allocate(32), 0u);
  EXPECT_NE(heap.allocate(16), 0u);
}

TEST(DeviceHeap, FreeTellsADoubleFreeAndAForeignPointerApart) {
  DeviceHeap heap(kBase, 1024);
  const auto a = heap.allocate(32);
  EXPECT_EQ(heap.release(a + 4), DeviceHeap::FreeResult::not_a_block);
  EXPECT_EQ(heap.release(a), DeviceHeap::FreeResult::ok);
  EXPECT_EQ(heap.release(a), DeviceHeap::FreeResult::double_free);
  EXPECT_EQ(heap.release(0), DeviceHeap::FreeResult::null);
  EXPECT_TRUE(heap.live().empty());
}

TEST(DeviceHeap, FreedSpaceIsReusedOnlyWhenTheRestIsGone) {
  DeviceHeap heap(kBase, 64);
  const auto a = heap.allocate(16);
  ASSERT_EQ(heap.release(a), DeviceHeap::FreeResult::ok);
  // The untouched rest comes first, so a read after free still finds the block freed …
  EXPECT_EQ(heap.allocate(16), kBase + 16);
  EXPECT_NE(heap.check_access(a, 4)->find("that was freed"), std::string::npos);
  EXPECT_EQ(heap.allocate(32), kBase + 32);
  // … and the freed block is handed out again once nothing else is left.
  EXPECT_EQ(heap.allocate(16), a);
  EXPECT_FALSE(heap.check_access(a, 4).has_value());
}

TEST(DeviceHeap, AccessesPastABlockAreNamed) {
  DeviceHeap heap(kBase, 1024);
  const auto a = heap.allocate(20);
  EXPECT_FALSE(heap.check_access(a + 16, 4).has_value());
  EXPECT_EQ(*heap.check_access(a + 20, 4),
            "0 bytes past the end of a 20-byte device heap block at 0x10000");
  EXPECT_EQ(*heap.check_access(a + 18, 4),
            "offset 18 of a 20-byte device heap block at 0x10000 (the access runs past its end)");
}

} // namespace
} // namespace gpurun::emu
