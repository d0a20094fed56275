// `gpurun threads` through the real binary: the arithmetic table, the summary, the filter, the
// launch limits and --run on the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

using test::run_gpurun;

std::string reference_csv_2x2x1_by_4x4x2() {
  std::string csv = "block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,global_y,"
                    "global_z,linear,warp,lane\n";
  for (unsigned by = 0; by < 2; ++by)
    for (unsigned bx = 0; bx < 2; ++bx)
      for (unsigned tz = 0; tz < 2; ++tz)
        for (unsigned ty = 0; ty < 4; ++ty)
          for (unsigned tx = 0; tx < 4; ++tx) {
            const unsigned linear = tx + 4 * ty + 16 * tz;
            csv += fmt::format("{},{},0,{},{},{},{},{},{},{},{},{}\n", bx, by, tx, ty, tz,
                               bx * 4 + tx, by * 4 + ty, tz, linear, linear / 32, linear % 32);
          }
  return csv;
}

TEST(ThreadsCommand, CsvForGrid2x2x1Block4x4x2IsExact) {
  const auto r = run_gpurun("threads --grid 2,2,1 --block 4,4,2 --warp-size 32 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 129);
  EXPECT_TRUE(r.out.starts_with("block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,"
                                "global_y,global_z,linear,warp,lane\n0,0,0,0,0,0,0,0,0,0,0,0\n"));
  EXPECT_NE(r.out.find("\n1,0,0,3,3,1,7,3,1,31,0,31\n0,1,0,0,0,0,0,4,0,0,0,0\n"),
            std::string::npos);
  EXPECT_EQ(r.out, reference_csv_2x2x1_by_4x4x2());
  const auto sum = test::run_shell(fmt::format(
      "('{}' threads --grid 2,2,1 --block 4,4,2 --warp-size 32 --format csv | sha256sum)",
      test::gpurun_bin()));
  EXPECT_EQ(sum.out.substr(0, 64),
            "509afce0d5afd4549002b7ef84142353948e1a563f7f84d348bb3042b34d571b");
}

TEST(ThreadsCommand, SummaryShowsThePartialWarp) {
  const auto r = run_gpurun("threads --grid 2 --block 100 --warp-size 32");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("blocks: 2 · threads per block: 100 · total threads: 200"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("warps per block: 4 (3 full, 1 partial with 4 active lanes and 28 idle "
                       "(21.9% of lanes idle))"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("warp size from: --warp-size"), std::string::npos);
  // 200 rows, the default limit of 64 elides the middle
  EXPECT_NE(r.out.find("… 136 rows not shown …"), std::string::npos) << r.out;
}

TEST(ThreadsCommand, LimitZeroPrintsTheSummaryAlone) {
  const auto r = run_gpurun("threads --grid 2 --block 64 --limit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("total threads: 128"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("not shown"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("block (0,0,0)"), std::string::npos) << r.out;
}

TEST(ThreadsCommand, JsonCarriesSummaryAndRows) {
  const auto r = run_gpurun("threads --block 100 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("warp_size"), 32); // the CPU emulator's (or a GPU's) warp size
  const auto& s = j.at("summary");
  EXPECT_EQ(s.at("full_warps_per_block"), 3);
  EXPECT_EQ(s.at("partial_warp_active_lanes"), 4);
  EXPECT_EQ(s.at("idle_lanes_per_block"), 28);
  ASSERT_EQ(j.at("rows").size(), 100u);
  EXPECT_EQ(j.at("rows").at(99).at("warp"), 3);
  EXPECT_EQ(j.at("rows").at(99).at("lane"), 3);
  EXPECT_EQ(j.at("truncated"), false);
}

TEST(ThreadsCommand, WhereFiltersRows) {
  const auto r = run_gpurun(
      "threads --grid 3 --block 64 --warp-size 32 --format csv --where 'warp==1 && lane<2'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,global_y,global_z,"
                   "linear,warp,lane\n"
                   "0,0,0,32,0,0,32,0,0,32,1,0\n"
                   "0,0,0,33,0,0,33,0,0,33,1,1\n"
                   "1,0,0,32,0,0,96,0,0,32,1,0\n"
                   "1,0,0,33,0,0,97,0,0,33,1,1\n"
                   "2,0,0,32,0,0,160,0,0,32,1,0\n"
                   "2,0,0,33,0,0,161,0,0,33,1,1\n");
}

TEST(ThreadsCommand, MarkdownHasSummaryListAndPipeTable) {
  const auto r = run_gpurun("threads --block 2 --warp-size 32 --format md");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("- grid (1,1,1) × block (2,1,1), warp size 32\n")) << r.out;
  EXPECT_NE(r.out.find("| block_x | block_y |"), std::string::npos);
  EXPECT_NE(r.out.find("|       0 |       0 |       0 |        1 |"), std::string::npos);
}

TEST(ThreadsCommand, BadInputIsAUsageErrorNamingTheField) {
  auto r = run_gpurun("threads --block 64 --where 'wrap==1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--where: unknown column 'wrap' at 1"), std::string::npos) << r.err;
  r = run_gpurun("threads --block 64 --where 'lane = 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unexpected '=' at 6 (use '==')"), std::string::npos) << r.err;
  r = run_gpurun("threads --block 64 --format xml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format 'xml'"), std::string::npos) << r.err;
  r = run_gpurun("threads --block 64 --order capture");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--order"), std::string::npos) << r.err;
  r = run_gpurun("threads --block 64 --warp-size 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--warp-size"), std::string::npos) << r.err;
}

// 20,000 parentheses or 120,000 signs are refused by depth, with the value quoted by its start
// only: a usage error on one line, not a stack overflow.
TEST(ThreadsCommand, DeepNestingIsAUsageError) {
  std::string where = "threads --block 32 --where '";
  where.append(20'000, '(').append("lane").append(20'000, ')').append("'");
  auto r = run_gpurun(where);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err.rfind("gpurun: error: --where: nesting too deep (more than 256 levels) at 257", 0), 0u)
      << r.err.substr(0, 300);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_LT(r.err.size(), 400u);
  std::string grid = "threads --block 32 --grid ";
  grid.append(120'000, '-').append("1");
  r = run_gpurun(grid);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("': nesting too deep (more than 256 levels) at position 257"),
            std::string::npos)
      << r.err.substr(0, 300);
  EXPECT_LT(r.err.size(), 400u);
}

TEST(ThreadsCommand, LaunchLimitsAreCheckedLikeRun) {
  auto r = run_gpurun("threads --block 64,32");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--block: 2048 threads per block exceeds the device limit 1024"),
            std::string::npos)
      << r.err;
  r = run_gpurun("threads --block 2048");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--block.x = 2048 exceeds the device limit 1024"), std::string::npos)
      << r.err;
  r = run_gpurun("threads --block 1,1,128");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--block.z = 128 exceeds the device limit 64"), std::string::npos) << r.err;
  r = run_gpurun("threads --grid 1,70000 --block 32");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--grid.y = 70000 exceeds the device limit 65535"), std::string::npos)
      << r.err;
}

TEST(ThreadsRunCpu, CapturedTableMatchesTheArithmetic) {
  const auto r = run_gpurun("threads --run --backend cpu --grid 2,2 --block 20,3 --limit 1000");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("capture check: all 240 threads match the arithmetic table"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("captured on cpu:0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hw_warp"), std::string::npos);
  EXPECT_NE(r.out.find("placement: 4 blocks on"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("block (1,1,0)\n"), std::string::npos);
}

TEST(ThreadsRunCpu, JsonRowsCarryHardwareColumnsAndTheCheck) {
  const auto r = run_gpurun("threads --run --backend cpu --grid 3 --block 50 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("check").at("status"), "ok");
  EXPECT_EQ(j.at("check").at("compared"), 150);
  EXPECT_EQ(j.at("check").at("arrivals"), 150);
  EXPECT_EQ(j.at("backend"), "cpu");
  EXPECT_EQ(j.at("summary").at("partial_warp_active_lanes"), 18);
  ASSERT_EQ(j.at("rows").size(), 150u);
  std::vector<bool> seen(150, false);
  for (std::size_t i = 0; i < 150; ++i) {
    const auto& row = j.at("rows").at(i);
    EXPECT_EQ(row.at("global_x"), i);
    EXPECT_EQ(row.at("lane"), row.at("linear").get<unsigned>() % 32);
    for (const char* extra : {"hw_warp", "sm", "arrival", "timestamp"})
      EXPECT_TRUE(row.contains(extra)) << extra;
    const auto arrival = row.at("arrival").get<std::size_t>();
    ASSERT_LT(arrival, 150u);
    EXPECT_FALSE(seen[arrival]) << "arrival " << arrival << " twice";
    seen[arrival] = true;
  }
  EXPECT_GE(j.at("placement").at("sms_used").get<int>(), 1);
}

TEST(ThreadsRunCpu, CaptureOrderListsThreadsByArrival) {
  const auto r =
      run_gpurun("threads --run --backend cpu --grid 4 --block 40 --format csv --order capture");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream in(r.out);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,global_y,global_z,"
                  "linear,warp,lane,hw_warp,sm,arrival,timestamp");
  int expected_arrival = 0;
  while (std::getline(in, line)) {
    // arrival is the third column from the end
    std::vector<std::string> cells;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');)
      cells.push_back(cell);
    ASSERT_EQ(cells.size(), 16u) << line;
    EXPECT_EQ(std::stoi(cells[14]), expected_arrival++) << line;
  }
  EXPECT_EQ(expected_arrival, 160);
}

TEST(ThreadsRunCpu, WhereWorksOnCapturedColumns) {
  const auto r = run_gpurun(
      "threads --run --backend cpu --grid 2 --block 64 --format csv --where 'hw_warp>=0 && "
      "lane==31 && block_x==1'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3); // header + lane 31 of two warps
  EXPECT_NE(r.out.find("\n1,0,0,31,0,0,95,0,0,31,0,31,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1,0,0,63,0,0,127,0,0,63,1,31,"), std::string::npos) << r.out;
}

TEST(ThreadsRunCpu, WarpSizeMustMatchTheDevice) {
  const auto r = run_gpurun("threads --run --backend cpu --block 64 --warp-size 16");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--warp-size 16 differs from the warp size 32"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun
