#include "capture/pointer_scan.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace gpurun::capture {
namespace {

template <class T> void put(std::vector<std::byte>& bytes, std::size_t at, T value) {
  if (bytes.size() < at + sizeof(T))
    bytes.resize(at + sizeof(T));
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

AllocationMap two_allocations() {
  AllocationMap map;
  map.add({0x7f0000000000, 4096, MemoryKind::device});
  map.add({0x7f0000100000, 256, MemoryKind::pool});
  return map;
}

// kernel(float* x, int n, float* y_plus_16, struct { int a; float* p; double d; } s, char c)
TEST(PointerScan, FindsPointerParametersAndPointersInsideStructs) {
  std::vector<std::byte> params;
  put<std::uint64_t>(params, 0, 0x7f0000000000);
  put<std::int32_t>(params, 8, 1000);
  put<std::uint64_t>(params, 16, 0x7f0000100010);
  put<std::int32_t>(params, 24, 7);
  put<std::uint64_t>(params, 32, 0x7f0000000ff8);
  put<double>(params, 40, 2.5);
  put<char>(params, 48, 'c');
  const std::vector<ParamSlot> slots{{0, 8}, {8, 4}, {16, 8}, {24, 24}, {48, 1}};
  const auto found = find_pointers(params, slots, two_allocations());
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].param, 0u);
  EXPECT_EQ(found[0].offset_in_param, 0u);
  EXPECT_EQ(found[0].offset_in_allocation, 0u);
  EXPECT_EQ(found[1].param, 2u);
  EXPECT_EQ(found[1].allocation.kind, MemoryKind::pool);
  EXPECT_EQ(found[1].offset_in_allocation, 16u);
  EXPECT_EQ(found[2].param, 3u);
  EXPECT_EQ(found[2].offset_in_param, 8u);
  EXPECT_EQ(found[2].allocation.base, 0x7f0000000000u);
  EXPECT_EQ(found[2].offset_in_allocation, 0xff8u);
}

TEST(PointerScan, LeavesOutNullsValuesOutsideAndWordsCutShort) {
  std::vector<std::byte> params;
  put<std::uint64_t>(params, 0, 0);               // nullptr
  put<std::uint64_t>(params, 8, 0x7f0000001000);  // one past the first allocation
  put<std::uint32_t>(params, 16, 0x00001000);     // 4 bytes: no pointer fits
  put<std::uint64_t>(params, 24, 0x7f0000000010); // a slot past the bytes
  const std::vector<ParamSlot> slots{{0, 8}, {8, 8}, {16, 4}, {24, 8}, {64, 8}};
  std::vector<std::byte> cut(params.begin(), params.begin() + 28); // the last word cut short
  EXPECT_TRUE(find_pointers(cut, slots, two_allocations()).empty());
  EXPECT_EQ(find_pointers(params, slots, two_allocations()).size(), 1u);
}

} // namespace
} // namespace gpurun::capture
