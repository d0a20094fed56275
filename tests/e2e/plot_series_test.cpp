// End-to-end: `gpurun plot` on results with many cases. Series are grouped in one pass over the
// cases, and more lines than a plot can show are refused with their count (exit 2). gnuplot is a
// stand-in that keeps the script gpurun wrote, so the test sees what would be drawn.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

/// Results of `series` cases, each swept over N = 1 … `points`.
fs::path results(const fs::path& dir, std::size_t series, int points) {
  nlohmann::json benchmarks = nlohmann::json::array();
  for (std::size_t s = 0; s < series; ++s)
    for (int n = 1; n <= points; ++n)
      benchmarks.push_back({{"name", "c" + std::to_string(s) + "/N:" + std::to_string(n)},
                            {"gpurun",
                             {{"case", "c" + std::to_string(s)},
                              {"axes", {{"N", std::to_string(n)}}},
                              {"status", "ok"},
                              {"median_s", 1e-6 * n}}}});
  const auto path = dir / ("r" + std::to_string(series) + ".json");
  std::ofstream(path) << nlohmann::json{{"benchmarks", benchmarks}}.dump();
  return path;
}

/// Runs `gpurun ARGS` with a gnuplot that copies its script to the SVG's place.
RunResult with_gnuplot(const fs::path& dir, const std::string& args) {
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "gnuplot")
      << "#!/bin/sh\ncp \"$1\" \"$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" \"$1\")\"\n";
  fs::permissions(dir / "bin" / "gnuplot", fs::perms::owner_all);
  return run_shell("PATH=" + (dir / "bin").string() + ":$PATH " + gpurun_bin() + " " + args, dir);
}

RunResult plot(const fs::path& dir, const std::string& args) {
  return with_gnuplot(dir, "plot " + args);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(PlotSeriesE2E, SixtyFourSeriesOfManyPointsAreDrawn) {
  const auto dir = temp_dir();
  results(dir, 64, 1000);
  const auto r = plot(dir, "r64.json -o many.svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote many.svg (64 series against N)\n");
  const std::string script = slurp(dir / "many.svg");
  EXPECT_EQ(count(script, " << EOD\n"), 64u);
  EXPECT_EQ(count(script, "\n1000 "), 64u) << "every series has all its points";
}

TEST(PlotSeriesE2E, MoreLinesThanAPlotCanShowAreRefusedWithTheirCount) {
  const auto dir = temp_dir();
  results(dir, 65, 2);
  auto r = plot(dir, "r65.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: r65.json: 65 lines to draw (one per case and value of its "
                   "other axes against 'N'), more than a plot can show (64 at most): narrow the "
                   "cases with bench --filter, or plot against another axis\n");
  EXPECT_FALSE(fs::exists(dir / "r65.svg"));
  // Fifty thousand distinct cases: counted in one pass.
  results(dir, 50'000, 1);
  r = plot(dir, "r50000.json --x N");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("r50000.json: 50000 lines to draw"), std::string::npos) << r.err;
}

TEST(PlotSeriesE2E, BenchRefusesTooManyLinesBeforeAnyCaseRuns) {
  const auto dir = temp_dir();
  const auto r = with_gnuplot(
      dir, "bench " + (source_dir() / "tests/data/bench/mixed.cu").string() +
               " --kernel fill_index --grid 1 --block 1 --arg 'out=f32[1]:0' --arg n=1 "
               "-a 'N=[1,2]' -a 'B=[1:65]' --backend cpu --plot-x N --plot sweep.svg "
               "--csv r.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: --plot: 65 lines to draw (one per case and value of its other "
                   "axes against 'N'), more than a plot can show (64 at most): narrow the cases "
                   "with bench --filter, or plot against another axis\n");
  EXPECT_EQ(r.out, "") << "no case ran";
  EXPECT_FALSE(fs::exists(dir / "r.csv"));
}

} // namespace
} // namespace gpurun::test
