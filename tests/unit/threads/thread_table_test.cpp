#include "threads/thread_table.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "output/thread_report.hpp"

namespace gpurun {
namespace {

TEST(ThreadLayout, RowsFollowLaunchOrderXFastest) {
  const ThreadLayout layout({3, 2, 2}, {5, 3, 2}, 8);
  // index 0: the first thread of the first block.
  auto r = layout.row(0);
  EXPECT_EQ(r[col_block_x], 0u);
  EXPECT_EQ(r[col_linear], 0u);
  // 30 threads per block: index 30·7 + 22 is block linear 7 = (1,0,1), linear 22 = thread (2,1,1).
  r = layout.row(30 * 7 + 22);
  EXPECT_EQ(r[col_block_x], 1u);
  EXPECT_EQ(r[col_block_y], 0u);
  EXPECT_EQ(r[col_block_z], 1u);
  EXPECT_EQ(r[col_thread_x], 2u);
  EXPECT_EQ(r[col_thread_y], 1u);
  EXPECT_EQ(r[col_thread_z], 1u);
  EXPECT_EQ(r[col_global_x], 1u * 5 + 2);
  EXPECT_EQ(r[col_global_y], 0u * 3 + 1);
  EXPECT_EQ(r[col_global_z], 1u * 2 + 1);
  EXPECT_EQ(r[col_linear], 22u);
  EXPECT_EQ(r[col_warp], 2u);
  EXPECT_EQ(r[col_lane], 6u);
}

TEST(ThreadLayout, GlobalIndicesDoNotWrapAt32Bits) {
  const ThreadLayout layout({2147483647u, 1, 1}, {1024, 1, 1}, 32);
  const auto last = layout.row(layout.total_threads() - 1);
  EXPECT_EQ(last[col_block_x], 2147483646u);
  EXPECT_EQ(last[col_global_x], 2147483646ull * 1024 + 1023);
  EXPECT_EQ(last[col_warp], 31u);
  EXPECT_EQ(last[col_lane], 31u);
}

TEST(ThreadLayout, RejectsZeroWarpSize) {
  try {
    (void)ThreadLayout({1, 1, 1}, {32, 1, 1}, 0);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("--warp-size"), std::string::npos);
  }
}

TEST(WarpSummary, PartialWarpOfABlockOf100) {
  const auto s = summarize(ThreadLayout({2, 1, 1}, {100, 1, 1}, 32));
  EXPECT_EQ(s.blocks, 2u);
  EXPECT_EQ(s.threads_per_block, 100u);
  EXPECT_EQ(s.total_threads, 200u);
  EXPECT_EQ(s.warps_per_block, 4u);
  EXPECT_EQ(s.full_warps_per_block, 3u);
  EXPECT_EQ(s.partial_warps_per_block, 1u);
  EXPECT_EQ(s.partial_warp_active_lanes, 4u);
  EXPECT_EQ(s.idle_lanes_per_block, 28u);
  EXPECT_DOUBLE_EQ(s.idle_lane_share, 28.0 / 128.0);
  EXPECT_EQ(s.total_warps, 8u);
  EXPECT_EQ(s.total_idle_lanes, 56u);

  const std::string text = format_summary(s);
  EXPECT_NE(text.find("warps per block: 4 (3 full, 1 partial with 4 active lanes and 28 idle "
                      "(21.9% of lanes idle))"),
            std::string::npos)
      << text;

  const auto j = to_json(s);
  EXPECT_EQ(j.at("full_warps_per_block"), 3);
  EXPECT_EQ(j.at("partial_warp_active_lanes"), 4);
  EXPECT_EQ(j.at("idle_lanes_per_block"), 28);
  EXPECT_DOUBLE_EQ(j.at("idle_lane_share").get<double>(), 0.21875);
}

TEST(WarpSummary, WholeWarpsLeaveNoLaneIdle) {
  const auto s = summarize(ThreadLayout({1, 1, 1}, {8, 8, 1}, 32));
  EXPECT_EQ(s.full_warps_per_block, 2u);
  EXPECT_EQ(s.partial_warps_per_block, 0u);
  EXPECT_EQ(s.partial_warp_active_lanes, 0u);
  EXPECT_EQ(s.idle_lanes_per_block, 0u);
  EXPECT_EQ(s.idle_lane_share, 0.0);
  EXPECT_NE(format_summary(s).find("2 full, no partial warp"), std::string::npos);
}

TEST(WarpSummary, BlockSmallerThanAWarp) {
  const auto s = summarize(ThreadLayout({1, 1, 1}, {3, 1, 1}, 32));
  EXPECT_EQ(s.full_warps_per_block, 0u);
  EXPECT_EQ(s.partial_warp_active_lanes, 3u);
  EXPECT_EQ(s.idle_lanes_per_block, 29u);
}

} // namespace
} // namespace gpurun
