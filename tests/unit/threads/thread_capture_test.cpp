#include "threads/thread_capture.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "output/thread_report.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

// What a correct device would write: records in launch order, arrivals in `arrival_of` order.
Capture ideal_capture(const ThreadLayout& layout, unsigned threads_per_sm_block = 0) {
  Capture c{layout, {}, layout.total_threads()};
  for (std::uint64_t i = 0; i < layout.total_threads(); ++i) {
    const auto row = layout.row(i);
    CapturedThread r{};
    r.block = {static_cast<std::uint32_t>(row[col_block_x]),
               static_cast<std::uint32_t>(row[col_block_y]),
               static_cast<std::uint32_t>(row[col_block_z])};
    r.thread = {static_cast<std::uint32_t>(row[col_thread_x]),
                static_cast<std::uint32_t>(row[col_thread_y]),
                static_cast<std::uint32_t>(row[col_thread_z])};
    r.warpid = static_cast<std::uint32_t>(row[col_warp]);
    r.laneid = static_cast<std::uint32_t>(row[col_lane]);
    r.smid = static_cast<std::uint32_t>(i / layout.threads_per_block() % 3);
    r.arrival = static_cast<std::uint32_t>(layout.total_threads() - 1 - i); // reverse order
    r.globaltimer = 1'000'000 + 10 * r.arrival;
    r.clock = 5;
    c.threads.push_back(r);
  }
  return c;
}

CapturedThread unwritten_record() {
  CapturedThread r;
  std::memset(&r, 0xff, sizeof r);
  return r;
}

TEST(ThreadCaptureSource, EmbeddedTextEqualsTheKernelFile) {
  std::ifstream in(test::source_dir() / "kernels/internal/threads_capture.cu", std::ios::binary);
  ASSERT_TRUE(in) << "kernels/internal/threads_capture.cu not found";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(threads_capture_source(), text.str());
  EXPECT_NE(threads_capture_source().find("extern \"C\" __global__ void threads_capture("),
            std::string_view::npos);
}

TEST(CaptureCheck, IdealCaptureMatches) {
  const ThreadLayout layout({3, 2, 1}, {10, 4, 1}, 32);
  const auto capture = ideal_capture(layout);
  const auto check = check_capture(capture);
  EXPECT_TRUE(check.ok());
  EXPECT_EQ(check.compared, 240u);
  EXPECT_EQ(check.differing, 0u);
  EXPECT_NE(format_check(check).find("all 240 threads match"), std::string::npos);
  EXPECT_EQ(to_json(check).at("status"), "ok");
}

TEST(CaptureCheck, HardwareWarpIdIsNotCompared) {
  const ThreadLayout layout({1, 1, 1}, {64, 1, 1}, 32);
  auto capture = ideal_capture(layout);
  for (auto& r : capture.threads)
    r.warpid += 7;
  EXPECT_TRUE(check_capture(capture).ok());
}

TEST(CaptureCheck, ReportsTheFirstDifferingRows) {
  const ThreadLayout layout({2, 1, 1}, {40, 1, 1}, 32);
  auto capture = ideal_capture(layout);
  capture.threads[35].laneid = 9;     // lane should be 3
  capture.threads[50].thread[0] = 11; // thread x should be 10
  capture.threads[70] = unwritten_record();
  capture.arrivals = 79;
  const auto check = check_capture(capture, 2);
  EXPECT_FALSE(check.ok());
  EXPECT_EQ(check.differing, 3u);
  ASSERT_EQ(check.first.size(), 2u);
  EXPECT_EQ(check.first[0].index, 35u);
  ASSERT_TRUE(check.first[0].captured.has_value());
  EXPECT_EQ((*check.first[0].captured)[col_lane], 9u);
  EXPECT_EQ(check.first[0].expected[col_lane], 3u);
  EXPECT_EQ(check.first[1].index, 50u);
  const auto text = format_check(check);
  EXPECT_NE(text.find("3 of 80 threads differ"), std::string::npos) << text;
  EXPECT_NE(text.find("thread 35: expected block (0,0,0) thread (35,0,0) lane 3, captured block "
                      "(0,0,0) thread (35,0,0) lane 9"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("79 threads arrived, 80 were launched"), std::string::npos) << text;

  const auto all = check_capture(capture);
  ASSERT_EQ(all.first.size(), 3u);
  EXPECT_FALSE(all.first[2].captured.has_value());
  EXPECT_NE(format_check(all).find("thread 70: expected block (1,0,0) thread (30,0,0) lane 30, "
                                   "captured nothing (the thread did not run)"),
            std::string::npos);
  EXPECT_EQ(to_json(all).at("status"), "mismatch");
  EXPECT_TRUE(to_json(all).at("first_differences").at(2).at("captured").is_null());
}

TEST(CaptureCheck, MissingArrivalsAloneFail) {
  const ThreadLayout layout({1, 1, 1}, {8, 1, 1}, 32);
  auto capture = ideal_capture(layout);
  capture.arrivals = 7;
  EXPECT_FALSE(check_capture(capture).ok());
}

TEST(Placement, CountsBlocksPerSm) {
  const ThreadLayout layout({7, 1, 1}, {16, 1, 1}, 32);
  auto capture = ideal_capture(layout); // block b ran on SM b % 3
  auto p = placement_of(capture);
  ASSERT_EQ(p.blocks_per_sm.size(), 3u);
  EXPECT_EQ(p.blocks_per_sm.at(0), 3u);
  EXPECT_EQ(p.blocks_per_sm.at(1), 2u);
  EXPECT_EQ(p.blocks_per_sm.at(2), 2u);
  EXPECT_EQ(p.split_blocks, 0u);
  const auto text = format_placement(p, 132);
  EXPECT_NE(text.find("placement: 7 blocks on 3 SMs of 132 · blocks per SM: min 2, max 3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  sm 0: 3  sm 1: 2  sm 2: 2\n"), std::string::npos) << text;
  const auto j = to_json(p);
  EXPECT_EQ(j.at("sms_used"), 3);
  EXPECT_EQ(j.at("blocks_per_sm").at("0"), 3);

  capture.threads[17].smid = 2; // a thread of block 1 (SM 1) claims SM 2
  EXPECT_EQ(placement_of(capture).split_blocks, 1u);
}

TEST(CapturedTable, SortedRowsFollowLaunchOrderAndCarryHardwareColumns) {
  const ThreadLayout layout({2, 1, 1}, {4, 1, 1}, 32);
  const auto capture = ideal_capture(layout);
  const CapturedTable table(capture, CaptureOrder::sorted);
  ASSERT_EQ(table.columns().size(), 16u);
  EXPECT_EQ(table.columns()[12], "hw_warp");
  EXPECT_EQ(table.columns()[13], "sm");
  EXPECT_EQ(table.columns()[14], "arrival");
  EXPECT_EQ(table.columns()[15], "timestamp");
  EXPECT_EQ(table.timestamp_unit(), "globaltimer_ns");
  const auto row = table.row(5); // block 1, thread 1
  EXPECT_EQ(row[col_block_x], 1u);
  EXPECT_EQ(row[col_thread_x], 1u);
  EXPECT_EQ(row[col_global_x], 5u);
  EXPECT_EQ(row[13], 1u);  // sm
  EXPECT_EQ(row[14], 2u);  // arrival: 8 - 1 - 5
  EXPECT_EQ(row[15], 20u); // 10 ns per arrival since the earliest
}

TEST(CapturedTable, CaptureOrderSortsByArrival) {
  const ThreadLayout layout({2, 1, 1}, {4, 1, 1}, 32);
  auto capture = ideal_capture(layout);
  capture.threads[3] = unwritten_record();
  const CapturedTable table(capture, CaptureOrder::capture);
  EXPECT_EQ(table.row(0)[col_global_x], 7u); // arrived first
  EXPECT_EQ(table.row(0)[14], 0u);
  EXPECT_EQ(table.row(0)[15], 0u);
  EXPECT_EQ(table.row(6)[col_global_x], 0u);
  EXPECT_EQ(table.row(7)[14], 0xffffffffu); // the thread that never ran sorts last
}

TEST(CapturedTable, FallsBackToClockWhenTheGlobalTimerReadsZero) {
  const ThreadLayout layout({1, 1, 1}, {4, 1, 1}, 32);
  auto capture = ideal_capture(layout);
  for (std::size_t i = 0; i < 4; ++i) {
    capture.threads[i].globaltimer = 0;
    capture.threads[i].clock = 100 + 3 * i;
  }
  const CapturedTable table(capture, CaptureOrder::sorted);
  EXPECT_EQ(table.timestamp_unit(), "clock64_cycles");
  EXPECT_EQ(table.row(2)[15], 6u);
}

TEST(CaptureOrder, ParsesNames) {
  EXPECT_EQ(parse_capture_order("capture"), CaptureOrder::capture);
  EXPECT_THROW((void)parse_capture_order("random"), Error);
}

} // namespace
} // namespace gpurun
