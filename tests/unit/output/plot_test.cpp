#include "output/plot.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "bench/result_json.hpp"

namespace gpurun {
namespace {

using nlohmann::json;

json bench_case(const std::string& name, json axes, double median_s,
                std::optional<double> gbs = std::nullopt, const std::string& status = "ok") {
  json g{{"case", name}, {"axes", std::move(axes)}, {"status", status}};
  if (status == "ok") {
    g["samples_s"] = {median_s};
    g["median_s"] = median_s;
    g["bandwidth_gbs"] = gbs ? json(*gbs) : json();
  }
  return {{"name", name}, {"gpurun", g}};
}

/// The plot of a result document, read as `gpurun plot` reads it.
PlotData plot_of(const json& document, std::string_view label,
                 const std::optional<std::string>& x_axis, PlotMetric metric) {
  return gpurun::make_plot(bench::parse_result_json(document, label), label, x_axis, metric);
}

json sweep_document() {
  json benchmarks = json::array();
  for (int k = 10; k <= 14; ++k)
    for (const char* t : {"float", "double"}) {
      const double n = static_cast<double>(1 << k);
      benchmarks.push_back(bench_case("copy", {{"N", std::to_string(1 << k)}, {"T", t}}, n * 1e-9,
                                      2 * n * 4 / (n * 1e-9) / 1e9));
    }
  benchmarks.push_back(bench_case("copy", {{"N", "32768"}, {"T", "float"}}, 0, {}, "skipped"));
  // An aggregate entry for Google Benchmark's tools: no gpurun member.
  benchmarks.push_back({{"name", "copy_mean"}, {"real_time", 1}});
  return {{"context",
           {{"gpurun",
             {{"suite", "stream"},
              {"device", "NVIDIA H200"},
              {"mode", "cold"},
              {"peak_bandwidth_gbs", 4800.0},
              {"measured_peak_gbs", 4150.0}}}}},
          {"benchmarks", benchmarks}};
}

TEST(Plot, SweepAxisSeriesAndLogScaleComeFromTheCases) {
  const PlotData plot = plot_of(sweep_document(), "r.json", std::nullopt, PlotMetric::time);
  EXPECT_EQ(plot.x_axis, "N"); // T is not numeric
  EXPECT_EQ(plot.title, "stream on NVIDIA H200 (cold)");
  ASSERT_EQ(plot.series.size(), 2u);
  EXPECT_EQ(plot.series[0].title, "copy T=float");
  EXPECT_EQ(plot.series[1].title, "copy T=double");
  ASSERT_EQ(plot.series[0].points.size(), 5u);
  EXPECT_EQ(plot.series[0].points.front().x, 1024);
  EXPECT_EQ(plot.series[0].points.back().x, 16384);
  // Times of 1–16 µs print in µs.
  EXPECT_EQ(plot.y_label, "median time (µs)");
  EXPECT_DOUBLE_EQ(plot.series[0].points.front().y, 1.024);
  EXPECT_TRUE(plot.log_x);
  EXPECT_EQ(plot.log_x_base, 2);
  EXPECT_TRUE(plot.log_y);
  EXPECT_EQ(plot.skipped, 1u);
  EXPECT_FALSE(plot.peak_gbs); // only on bandwidth plots
}

TEST(Plot, AutomaticMetricIsBandwidthWithPeakLinesWhenCasesHaveBytes) {
  const PlotData plot = plot_of(sweep_document(), "r.json", std::nullopt, PlotMetric::automatic);
  EXPECT_EQ(plot.metric, PlotMetric::bandwidth);
  EXPECT_EQ(plot.y_label, "bandwidth (GB/s)");
  EXPECT_DOUBLE_EQ(plot.series[0].points.front().y, 8.0);
  EXPECT_FALSE(plot.log_y);
  EXPECT_EQ(plot.peak_gbs, 4800.0);
  EXPECT_EQ(plot.measured_peak_gbs, 4150.0);
  const std::string script = gnuplot_script(plot, "/tmp/out.svg");
  EXPECT_NE(script.find("set terminal svg"), std::string::npos);
  EXPECT_NE(script.find("set output '/tmp/out.svg'"), std::string::npos);
  EXPECT_NE(script.find("set logscale x 2"), std::string::npos);
  EXPECT_NE(script.find("title 'copy T=double'"), std::string::npos);
  EXPECT_NE(script.find("theoretical peak 4800 GB/s"), std::string::npos);
  EXPECT_NE(script.find("measured peak 4150 GB/s"), std::string::npos);
  EXPECT_NE(script.find("$s1 << EOD\n1024 "), std::string::npos) << script;
}

TEST(Plot, LinearSweepsAndQuotesInTitles) {
  json benchmarks = json::array();
  for (int b : {64, 96, 128})
    benchmarks.push_back(bench_case("it's", {{"block", std::to_string(b)}}, 1e-3 * b));
  const PlotData plot =
      plot_of({{"benchmarks", benchmarks}}, "r.json", std::nullopt, PlotMetric::automatic);
  EXPECT_EQ(plot.metric, PlotMetric::time); // no bytes
  EXPECT_FALSE(plot.log_x);
  EXPECT_EQ(plot.y_label, "median time (ms)");
  EXPECT_EQ(plot.title, "r.json");
  EXPECT_NE(gnuplot_script(plot, "o.svg").find("title 'it''s'"), std::string::npos);
}

void expect_usage_error(const json& document, const std::optional<std::string>& x,
                        PlotMetric metric, const std::string& message) {
  try {
    (void)plot_of(document, "r.json", x, metric);
    FAIL() << "no error for " << message;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), message);
  }
}

TEST(Plot, ErrorsNameTheFileAndWhatIsWrong) {
  expect_usage_error(json::object(), std::nullopt, PlotMetric::time,
                     "r.json: benchmarks: missing: not a gpurun bench result");
  expect_usage_error({{"benchmarks", json::array({{{"name", "x"}}})}}, std::nullopt,
                     PlotMetric::time,
                     "r.json: not a gpurun bench result (gpurun bench --json FILE)");
  expect_usage_error(sweep_document(), "M", PlotMetric::time, "r.json: no case has an axis 'M'");
  expect_usage_error(sweep_document(), "T", PlotMetric::time,
                     "r.json: axis 'T' has the value 'float', which is not a number");
  expect_usage_error(sweep_document(), std::nullopt, PlotMetric::flops,
                     "r.json: no case has a value to plot against 'N' (GFLOP/s needs --flops)");
  json one{{"benchmarks", json::array({bench_case("c", {{"N", "4"}}, 1.0)})}};
  expect_usage_error(one, std::nullopt, PlotMetric::time,
                     "r.json: nothing to plot against: no numeric axis takes two or more values "
                     "(sweep one with -a, e.g. -a 'N[pow2]=[16:24]')");
  EXPECT_THROW((void)parse_plot_metric("speed", "--y"), Error);
  EXPECT_EQ(parse_plot_metric("gbs", "--y"), PlotMetric::bandwidth);
}

/// `series` cases, each swept over N = 1 … `points`, interleaved so that every series' points are
/// spread over the whole document.
json many_series_document(std::size_t series, int points) {
  json benchmarks = json::array();
  for (int n = 1; n <= points; ++n)
    for (std::size_t s = 0; s < series; ++s)
      benchmarks.push_back(
          bench_case("case" + std::to_string(s), {{"N", std::to_string(n)}}, 1e-6 * n));
  return {{"benchmarks", benchmarks}};
}

TEST(Plot, ManyCasesGroupIntoTheirSeriesInOrder) {
  const PlotData plot =
      plot_of(many_series_document(k_max_plot_series, 500), "r.json", "N", PlotMetric::time);
  ASSERT_EQ(plot.series.size(), k_max_plot_series);
  for (std::size_t s = 0; s < plot.series.size(); ++s) {
    EXPECT_EQ(plot.series[s].title, "case" + std::to_string(s));
    ASSERT_EQ(plot.series[s].points.size(), 500u);
    EXPECT_EQ(plot.series[s].points.front().x, 1);
    EXPECT_EQ(plot.series[s].points.back().x, 500);
  }
}

TEST(Plot, MoreLinesThanAPlotCanShowAreRefusedWithTheirCount) {
  expect_usage_error(many_series_document(k_max_plot_series + 1, 2), std::nullopt, PlotMetric::time,
                     "r.json: 65 lines to draw (one per case and value of its other axes against "
                     "'N'), more than a plot can show (64 at most): narrow the cases with bench "
                     "--filter, or plot against another axis");
  // Tens of thousands of distinct cases: counted in one pass and refused, not compared with
  // every series found before them.
  expect_usage_error(many_series_document(20'000, 2), std::nullopt, PlotMetric::time,
                     "r.json: 20000 lines to draw (one per case and value of its other axes "
                     "against 'N'), more than a plot can show (64 at most): narrow the cases "
                     "with bench --filter, or plot against another axis");
}

} // namespace
} // namespace gpurun

namespace gpurun {
namespace {

json roofline_document(bool with_roofs) {
  json benchmarks = json::array();
  const auto point = [](double intensity, double gflops, const char* bound) {
    return json{{"precision", "fp32"},     {"intensity", intensity},
                {"bound", bound},          {"achieved_flops_per_s", gflops * 1e9},
                {"flops", 1},              {"bytes", 1},
                {"seconds", 1},            {"roof_flops_per_s", 1},
                {"fraction", 0.5},         {"ridge", 13.9},
                {"source", "counters"}};
  };
  json copy = bench_case("copy", {{"N", "1024"}}, 1e-6);
  copy["gpurun"]["roofline"] = point(0, 0, "memory"); // no flops: off a log-log plot
  json triad = bench_case("triad", {{"N", "1024"}}, 1e-6);
  triad["gpurun"]["roofline"] = point(0.1667, 700, "memory");
  json matmul = bench_case("matmul", {{"N", "1024"}}, 1e-3);
  matmul["gpurun"]["roofline"] = point(85.3, 21000, "compute");
  benchmarks = {copy, triad, matmul, bench_case("bad", {{"N", "1"}}, 0, {}, "skipped")};
  json gpurun{{"suite", "mixed"}, {"device", "NVIDIA H200"}, {"mode", "cold"}};
  if (with_roofs)
    gpurun["roofline"] = {{"bandwidth_bytes_per_s", 4.8e12},
                          {"compute_flops_per_s", {{"fp32", 6.69e13}, {"fp64", 3.35e13}}},
                          {"source", "counters"}};
  return {{"context", {{"gpurun", gpurun}}}, {"benchmarks", benchmarks}};
}

TEST(RooflinePlot, OnePointPerCaseUnderEveryRoof) {
  const auto plot =
      make_roofline_plot(bench::parse_result_json(roofline_document(true), "r.json"), "r.json");
  EXPECT_EQ(plot.title, "mixed on NVIDIA H200: roofline (counters)");
  ASSERT_EQ(plot.points.size(), 2u);
  EXPECT_EQ(plot.points[0].title, "triad");
  EXPECT_DOUBLE_EQ(plot.points[1].gflops, 21000);
  EXPECT_EQ(plot.skipped, 2u) << "the copy without flops and the skipped case";
  const std::string script = roofline_gnuplot_script(plot, "/tmp/out.svg");
  EXPECT_NE(script.find("set logscale xy 10"), std::string::npos) << script;
  EXPECT_NE(script.find("fp32 roof 66.9 TFLOP/s (4.80 TB/s DRAM)"), std::string::npos) << script;
  EXPECT_NE(script.find("fp64 roof 33.5 TFLOP/s"), std::string::npos) << script;
  // The bandwidth roof meets the fp32 peak at its ridge: x * bw < peak, in GFLOP/s.
  EXPECT_NE(script.find("bw = 4800\n"), std::string::npos) << script;
  EXPECT_NE(script.find("$p0 << EOD\n0.1666"), std::string::npos) << script;
  // The range spans the points and ridges (0.1667 … 85.3, ridges 7 and 14) with a decade spare.
  EXPECT_NE(script.find("set xrange [0.01:1000]"), std::string::npos) << script;
}

TEST(RooflinePlot, WithoutRoofsOrPointsTheErrorSaysWhatIsMissing) {
  try {
    (void)make_roofline_plot(bench::parse_result_json(roofline_document(false), "r.json"),
                             "r.json");
    FAIL() << "no roofs";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("r.json: no roofline"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--metrics roofline"), std::string::npos) << e.what();
  }
  json no_bandwidth = roofline_document(true);
  no_bandwidth["context"]["gpurun"]["roofline"].erase("bandwidth_bytes_per_s");
  try {
    (void)make_roofline_plot(bench::parse_result_json(no_bandwidth, "r.json"), "r.json");
    FAIL() << "no bandwidth";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no DRAM bandwidth"), std::string::npos) << e.what();
  }
  json only_copy = roofline_document(true);
  only_copy["benchmarks"] = json::array({only_copy["benchmarks"][0]});
  try {
    (void)make_roofline_plot(bench::parse_result_json(only_copy, "r.json"), "r.json");
    FAIL() << "no points";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no case has a point"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace gpurun
