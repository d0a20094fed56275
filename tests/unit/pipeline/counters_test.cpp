// --metrics as written: comma-separated names, the roofline preset expanded once, `list` alone,
// and one clear usage error for a malformed name.
#include "pipeline/counters.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "pipeline/roofline.hpp"

namespace gpurun {
namespace {

ExitCode code_of(const std::vector<std::string>& texts, std::string* message = nullptr) {
  try {
    (void)parse_metrics(texts);
  } catch (const Error& e) {
    if (message != nullptr)
      *message = e.what();
    return e.code();
  }
  return ExitCode::ok;
}

TEST(ParseMetrics, CommasAndRepeatsMakeOneOrderedListWithoutDuplicates) {
  const auto s = parse_metrics({"dram__bytes.sum,gpu__time_duration.sum", "dram__bytes.sum",
                                "sm__throughput.avg.pct_of_peak_sustained_elapsed"});
  EXPECT_EQ(s.metrics, (std::vector<std::string>{
                           "dram__bytes.sum", "gpu__time_duration.sum",
                           "sm__throughput.avg.pct_of_peak_sustained_elapsed"}));
  EXPECT_FALSE(s.roofline);
  EXPECT_FALSE(s.list);
  EXPECT_TRUE(parse_metrics({}).empty());
}

TEST(ParseMetrics, TheRooflinePresetIsItsMetricsOnce) {
  const auto s = parse_metrics({"dram__bytes.sum,roofline,l1tex__t_bytes.sum"});
  EXPECT_TRUE(s.roofline);
  EXPECT_EQ(s.metrics.front(), "dram__bytes.sum");
  EXPECT_EQ(s.metrics.back(), "l1tex__t_bytes.sum");
  EXPECT_EQ(std::count(s.metrics.begin(), s.metrics.end(), "dram__bytes.sum"), 1);
  for (const std::string& m : roofline_metrics())
    EXPECT_NE(std::find(s.metrics.begin(), s.metrics.end(), m), s.metrics.end()) << m;
  EXPECT_EQ(s.metrics.size(), roofline_metrics().size() + 1);
}

TEST(ParseMetrics, ListStandsAlone) {
  EXPECT_TRUE(parse_metrics({"list"}).list);
  EXPECT_TRUE(parse_metrics({"list"}).metrics.empty());
  std::string message;
  EXPECT_EQ(code_of({"list,dram__bytes.sum"}, &message), ExitCode::usage);
  EXPECT_NE(message.find("alone"), std::string::npos) << message;
}

TEST(ParseMetrics, EmptyAndMalformedNamesAreUsageErrorsNamingThem) {
  std::string message;
  EXPECT_EQ(code_of({"a__b.sum,,c__d.sum"}, &message), ExitCode::usage);
  EXPECT_NE(message.find("'a__b.sum,,c__d.sum'"), std::string::npos) << message;
  EXPECT_EQ(code_of({"dram__bytes.sum,"}), ExitCode::usage);
  EXPECT_EQ(code_of({""}), ExitCode::usage);
  EXPECT_EQ(code_of({"dram bytes"}, &message), ExitCode::usage);
  EXPECT_NE(message.find("'dram bytes'"), std::string::npos) << message;
  EXPECT_EQ(code_of({"x;rm -rf"}), ExitCode::usage);
}

TEST(CountersJson, EveryMetricByNameWithItsUnitAndNonFiniteAsNull) {
  CounterReport r;
  r.collector = "CUPTI 13.0 range profiler, GH100";
  r.passes = 3;
  r.values = {{"dram__bytes.sum", 1024, "byte"},
              {"sm__warps_active.avg.pct_of_peak_sustained_active", 87.5, "%"},
              {"x__y.ratio", std::numeric_limits<double>::quiet_NaN(), ""}};
  const auto j = counters_json(r);
  EXPECT_EQ(j.at("passes"), 3);
  EXPECT_EQ(j.at("collector"), r.collector);
  EXPECT_EQ(j.at("metrics").at("dram__bytes.sum").at("value"), 1024);
  EXPECT_EQ(j.at("metrics").at("dram__bytes.sum").at("unit"), "byte");
  EXPECT_EQ(j.at("metrics").at("sm__warps_active.avg.pct_of_peak_sustained_active").at("value"),
            87.5);
  EXPECT_TRUE(j.at("metrics").at("x__y.ratio").at("value").is_null());
}

} // namespace
} // namespace gpurun
