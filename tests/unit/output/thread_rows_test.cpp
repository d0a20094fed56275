#include "output/thread_rows.hpp"

#include <chrono>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "output/thread_report.hpp"
#include "threads/thread_filter.hpp"

namespace gpurun {
namespace {

std::string render(const ThreadTable& table, TableView view) {
  std::ostringstream out;
  write_rows(out, table, view);
  return out.str();
}

std::string csv_of(Dim3 grid, Dim3 block, unsigned warp_size = 32) {
  return render(ArithmeticTable(ThreadLayout(grid, block, warp_size)),
                TableView{OutputFormat::csv, std::nullopt, nullptr});
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(ThreadTableCsv, Grid2x2x1Block4x4x2IsExact) {
  const std::string csv = csv_of({2, 2, 1}, {4, 4, 2});
  EXPECT_EQ(count_lines(csv), 129u);
  EXPECT_TRUE(csv.starts_with("block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,"
                              "global_y,global_z,linear,warp,lane\n"
                              "0,0,0,0,0,0,0,0,0,0,0,0\n"
                              "0,0,0,1,0,0,1,0,0,1,0,1\n"));
  // thread (3,3,1) of block (0,0,0) is the block's last; block (1,0,0) follows it.
  EXPECT_NE(csv.find("\n0,0,0,3,3,1,3,3,1,31,0,31\n1,0,0,0,0,0,4,0,0,0,0,0\n"), std::string::npos);
  EXPECT_NE(csv.find("\n0,1,0,2,1,0,2,5,0,6,0,6\n"), std::string::npos);
  EXPECT_TRUE(csv.ends_with("\n1,1,0,3,3,1,7,7,1,31,0,31\n"));

  // The whole text, rebuilt with nested loops in the programming model's own terms.
  std::string expected = "block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,global_y,"
                         "global_z,linear,warp,lane\n";
  for (unsigned by = 0; by < 2; ++by)
    for (unsigned bx = 0; bx < 2; ++bx)
      for (unsigned tz = 0; tz < 2; ++tz)
        for (unsigned ty = 0; ty < 4; ++ty)
          for (unsigned tx = 0; tx < 4; ++tx) {
            const unsigned linear = tx + 4 * ty + 16 * tz;
            expected += fmt::format("{},{},0,{},{},{},{},{},{},{},{},{}\n", bx, by, tx, ty, tz,
                                    bx * 4 + tx, by * 4 + ty, tz, linear, linear / 32, linear % 32);
          }
  EXPECT_EQ(csv, expected);
  EXPECT_EQ(fnv1a(csv), 0xbf8fd5303b653428ull) << fmt::format("{:#x}", fnv1a(csv));
}

TEST(ThreadTableCsv, WarpSizeSplitsLanes) {
  const std::string csv = csv_of({1, 1, 1}, {40, 1, 1}, 16);
  EXPECT_NE(csv.find("\n0,0,0,33,0,0,33,0,0,33,2,1\n"), std::string::npos);
}

TEST(ThreadTableView, TableGroupsByBlockAndSeparatesWarps) {
  const ArithmeticTable table(ThreadLayout({2, 1, 1}, {3, 1, 1}, 2));
  const std::string text = render(table, TableView{});
  EXPECT_EQ(text, "block (0,0,0)\n"
                  "  thread_x thread_y thread_z global_x global_y global_z linear warp lane\n"
                  "         0        0        0        0        0        0      0    0    0\n"
                  "         1        0        0        1        0        0      1    0    1\n"
                  "\n"
                  "         2        0        0        2        0        0      2    1    0\n"
                  "\n"
                  "block (1,0,0)\n"
                  "  thread_x thread_y thread_z global_x global_y global_z linear warp lane\n"
                  "         0        0        0        3        0        0      0    0    0\n"
                  "         1        0        0        4        0        0      1    0    1\n"
                  "\n"
                  "         2        0        0        5        0        0      2    1    0\n");
}

TEST(ThreadTableView, TableElidesTheMiddleOfLargeLaunches) {
  const ArithmeticTable table(ThreadLayout({4, 1, 1}, {100, 1, 1}, 32));
  const std::string text = render(table, TableView{OutputFormat::human, 6, nullptr});
  EXPECT_NE(text.find("  … 394 rows not shown …\n"), std::string::npos) << text;
  // first three rows of block 0 and the last three of block 3
  EXPECT_TRUE(text.starts_with("block (0,0,0)\n"));
  EXPECT_NE(text.find("block (3,0,0)\n"), std::string::npos);
  EXPECT_NE(text.find("       99        0        0      399"), std::string::npos) << text;
  EXPECT_EQ(text.find("        3        0        0        3"), std::string::npos);
}

TEST(ThreadTableView, DefaultLimitKeepsHugeLaunchesFast) {
  const auto start = std::chrono::steady_clock::now();
  const ArithmeticTable table(ThreadLayout({2147483647u, 65535, 1}, {1024, 1, 1}, 32));
  const std::string text = render(table, TableView{});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  EXPECT_NE(text.find(fmt::format("… {} rows not shown …", table.size() - 64)), std::string::npos);
  EXPECT_NE(text.find("block (2147483646,65534,0)\n"), std::string::npos);
  EXPECT_LE(count_lines(text), 80u);
}

TEST(ThreadTableView, FilterSelectsRowsAndCountsTheElided) {
  const ArithmeticTable table(ThreadLayout({2, 1, 1}, {100, 1, 1}, 32));
  const auto filter = RowFilter::parse("warp==1 && lane<4", table.columns());
  const std::string csv = render(table, TableView{OutputFormat::csv, std::nullopt, &filter});
  EXPECT_EQ(csv, "block_x,block_y,block_z,thread_x,thread_y,thread_z,global_x,global_y,global_z,"
                 "linear,warp,lane\n"
                 "0,0,0,32,0,0,32,0,0,32,1,0\n"
                 "0,0,0,33,0,0,33,0,0,33,1,1\n"
                 "0,0,0,34,0,0,34,0,0,34,1,2\n"
                 "0,0,0,35,0,0,35,0,0,35,1,3\n"
                 "1,0,0,32,0,0,132,0,0,32,1,0\n"
                 "1,0,0,33,0,0,133,0,0,33,1,1\n"
                 "1,0,0,34,0,0,134,0,0,34,1,2\n"
                 "1,0,0,35,0,0,135,0,0,35,1,3\n");
  const std::string text = render(table, TableView{OutputFormat::human, 4, &filter});
  EXPECT_NE(text.find("… 4 rows not shown …"), std::string::npos) << text;
  EXPECT_NE(text.find("       35        0        0      135"), std::string::npos) << text;
  EXPECT_EQ(text.find("       33        0        0      133"), std::string::npos) << text;
}

TEST(ThreadTableView, NoElisionWhenEverythingFits) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {8, 1, 1}, 32));
  const auto filter = RowFilter::parse("lane%2==0", table.columns());
  const std::string text = render(table, TableView{OutputFormat::human, 4, &filter});
  EXPECT_EQ(text.find("…"), std::string::npos) << text;
  EXPECT_EQ(count_lines(text), 2u + 4u);
}

TEST(ThreadTableView, CsvLimitKeepsTheFirstRows) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {10, 1, 1}, 32));
  std::ostringstream out;
  const auto written = write_rows(out, table, TableView{OutputFormat::csv, 3, nullptr});
  EXPECT_EQ(written.shown, 3u);
  EXPECT_TRUE(written.truncated);
  EXPECT_EQ(count_lines(out.str()), 4u);
  std::ostringstream none;
  const auto zero = write_rows(none, table, TableView{OutputFormat::csv, 0, nullptr});
  EXPECT_EQ(zero.shown, 0u);
  EXPECT_EQ(count_lines(none.str()), 1u);
}

TEST(ThreadTableView, MarkdownIsAPipeTable) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {2, 1, 1}, 32));
  EXPECT_EQ(render(table, TableView{OutputFormat::md, std::nullopt, nullptr}),
            "| block_x | block_y | block_z | thread_x | thread_y | thread_z | global_x | global_y "
            "| global_z | linear | warp | lane |\n"
            "| ------: | ------: | ------: | -------: | -------: | -------: | -------: | -------: "
            "| -------: | -----: | ---: | ---: |\n"
            "|       0 |       0 |       0 |        0 |        0 |        0 |        0 |        0 "
            "|        0 |      0 |    0 |    0 |\n"
            "|       0 |       0 |       0 |        1 |        0 |        0 |        1 |        0 "
            "|        0 |      1 |    0 |    1 |\n");
}

TEST(ThreadTableView, MarkdownElisionStaysInsideTheTable) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {10, 1, 1}, 32));
  const std::string text = render(table, TableView{OutputFormat::md, 2, nullptr});
  EXPECT_NE(text.find("|       … |"), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("|        0 |      9 |    0 |    9 |\n\n_8 rows not shown._\n"))
      << text;
}

TEST(ThreadTableJson, DocumentCarriesSummaryAndRows) {
  const ThreadLayout layout({2, 1, 1}, {100, 1, 1}, 32);
  const ArithmeticTable table(layout);
  std::ostringstream out;
  nlohmann::ordered_json head{{"summary", to_json(summarize(layout))}};
  write_json_document(out, head, table, TableView{OutputFormat::json, 150, nullptr});
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j.at("summary").at("partial_warp_active_lanes"), 4);
  EXPECT_EQ(j.at("rows").size(), 150u);
  EXPECT_EQ(j.at("rows_shown"), 150);
  EXPECT_EQ(j.at("truncated"), true);
  const auto& row = j.at("rows").at(133);
  ASSERT_EQ(row.size(), thread_columns.size());
  for (auto name : thread_columns)
    EXPECT_TRUE(row.contains(std::string(name))) << name;
  EXPECT_EQ(row.at("block_x"), 1);
  EXPECT_EQ(row.at("global_x"), 133);
  EXPECT_EQ(row.at("warp"), 1);
  EXPECT_EQ(row.at("lane"), 1);
}

TEST(ThreadTableJson, EmptyDocumentAndNoRows) {
  const ArithmeticTable table(ThreadLayout({1, 1, 1}, {4, 1, 1}, 32));
  std::ostringstream out;
  write_json_document(out, nlohmann::ordered_json::object(), table,
                      TableView{OutputFormat::json, 0, nullptr});
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_TRUE(j.at("rows").empty());
  EXPECT_EQ(j.at("truncated"), true);
}

} // namespace
} // namespace gpurun
