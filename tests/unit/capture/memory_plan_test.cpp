#include "capture/memory_plan.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace gpurun::capture {
namespace {

constexpr std::uint64_t unlimited = std::numeric_limits<std::uint64_t>::max();

FoundPointer at(const Allocation& a, std::uint64_t offset, std::size_t param = 0) {
  return {param, 0, a, offset};
}

TEST(MemoryPlan, SavesEachAllocationWholeOnceWhileTheBudgetLasts) {
  const Allocation x{0x1000, 256, MemoryKind::device};
  const Allocation y{0x8000, 64, MemoryKind::pool};
  const std::vector<FoundPointer> pointers{at(y, 16), at(x, 0), at(y, 0)};
  const MemoryPlan plan = plan_memory(pointers, unlimited);
  ASSERT_EQ(plan.windows.size(), 2u);
  EXPECT_EQ(plan.windows[0].allocation.base, 0x8000u); // first referenced first
  EXPECT_TRUE(plan.windows[0].whole());
  EXPECT_TRUE(plan.windows[1].whole());
  EXPECT_TRUE(plan.left_out.empty());
  EXPECT_EQ(window_index(plan.windows, pointers[0]), 0u);
  EXPECT_EQ(window_index(plan.windows, pointers[1]), 1u);
}

TEST(MemoryPlan, PastTheBudgetAnAllocationIsSavedAsWindowsAtItsPointers) {
  // A pool slab of 1 MiB holding the launch's two buffers at 4096 and 12288.
  const Allocation slab{0x10000000, 1 << 20, MemoryKind::device};
  const std::vector<FoundPointer> pointers{at(slab, 12288, 1), at(slab, 4096, 0)};
  const MemoryPlan plan = plan_memory(pointers, 40000);
  ASSERT_EQ(plan.windows.size(), 2u);
  // From each pointer to the next (8192 bytes), then an equal share of what is left.
  EXPECT_EQ(plan.windows[0].offset, 4096u);
  EXPECT_EQ(plan.windows[0].saved, 8192u);
  EXPECT_EQ(plan.windows[1].offset, 12288u);
  EXPECT_EQ(plan.windows[1].saved, 40000u - 8192u);
  ASSERT_EQ(plan.left_out.size(), 2u);
  EXPECT_NE(plan.left_out[1].find("a1: bytes [12288, 44096) of a 1048576-byte"), std::string::npos)
      << plan.left_out[1];
  EXPECT_EQ(window_index(plan.windows, pointers[0]), 1u);
  EXPECT_EQ(window_index(plan.windows, pointers[1]), 0u);
  EXPECT_FALSE(plan.windows[0].whole());
}

TEST(MemoryPlan, AnAllocationThatFitsIsWholeAndTheNextSharesWhatIsLeft) {
  const Allocation small{0x1000, 100, MemoryKind::device};
  const Allocation big{0x100000, 1000, MemoryKind::device};
  const MemoryPlan plan = plan_memory(std::vector{at(small, 0), at(big, 10)}, 300);
  ASSERT_EQ(plan.windows.size(), 2u);
  EXPECT_TRUE(plan.windows[0].whole());
  EXPECT_EQ(plan.windows[1].offset, 10u);
  EXPECT_EQ(plan.windows[1].saved, 200u);
}

TEST(MemoryPlan, AllocationsPastTheBudgetShareItWhateverTheirOrder) {
  const Allocation a{0x1000, 1000, MemoryKind::device};
  const Allocation b{0x100000, 1000, MemoryKind::device};
  const MemoryPlan plan = plan_memory(std::vector{at(a, 0), at(b, 0)}, 100);
  ASSERT_EQ(plan.windows.size(), 2u);
  EXPECT_EQ(plan.windows[0].saved, 50u);
  EXPECT_EQ(plan.windows[1].saved, 50u);
}

TEST(MemoryPlan, AnExhaustedBudgetLeavesEmptyWindowsThatStillLocateTheirPointers) {
  const Allocation a{0x1000, 100, MemoryKind::device};
  const std::vector<FoundPointer> pointers{at(a, 40)};
  const MemoryPlan plan = plan_memory(pointers, 0);
  ASSERT_EQ(plan.windows.size(), 1u);
  EXPECT_EQ(plan.windows[0].saved, 0u);
  EXPECT_EQ(window_index(plan.windows, pointers[0]), 0u);
  EXPECT_EQ(plan.left_out.size(), 1u);
}

TEST(MemoryPlan, APointerOutsideEveryWindowHasNoIndex) {
  const Allocation a{0x1000, 100, MemoryKind::device};
  const std::vector<MemoryWindow> windows{{a, 0, 10}};
  EXPECT_FALSE(window_index(windows, at(a, 50)));
  EXPECT_EQ(window_index(windows, at(a, 10)), 0u); // one past its end
}

} // namespace
} // namespace gpurun::capture
