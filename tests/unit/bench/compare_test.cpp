#include "bench/compare.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

using nlohmann::json;
using Cases = std::vector<std::pair<std::string, std::vector<double>>>;

/// `count` samples around `center` with a relative spread of ±`spread`, from a fixed LCG.
std::vector<double> samples(double center, double spread, std::size_t count, std::uint64_t seed) {
  std::vector<double> out;
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < count; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(x >> 11) / 9007199254740992.0; // [0, 1)
    out.push_back(center * (1 + spread * (2 * unit - 1)));
  }
  return out;
}

json gpurun_document(const Cases& cases) {
  json benchmarks = json::array();
  for (const auto& [name, s] : cases) {
    benchmarks.push_back({{"name", name},
                          {"run_name", name},
                          {"run_type", "iteration"},
                          {"real_time", s.front() * 1e6},
                          {"time_unit", "us"},
                          {"gpurun", {{"case", name}, {"status", "ok"}, {"samples_s", s}}}});
    // What gpurun bench adds for Google Benchmark's tools; compare must not count it.
    benchmarks.push_back({{"name", name + "_median"},
                          {"run_name", name},
                          {"run_type", "aggregate"},
                          {"aggregate_name", "median"},
                          {"real_time", 1e9},
                          {"time_unit", "us"}});
  }
  return {{"context", {{"gpurun", {{"version", "0.3.0"}}}}}, {"benchmarks", benchmarks}};
}

ComparisonReport compare_documents(const json& baseline, const json& fresh,
                                   CompareOptions options = {}) {
  return compare_results(parse_result_document(baseline, "base.json", "."),
                         parse_result_document(fresh, "new.json", "."), options);
}

const CaseComparison& find_case(const ComparisonReport& report, const std::string& name) {
  for (const auto& c : report.cases)
    if (c.name == name)
      return c;
  throw std::runtime_error("no case " + name);
}

TEST(Decide, VerdictRules) {
  const CompareOptions options; // alpha 0.05, threshold 5%
  EXPECT_EQ(decide(0.10, 0.001, options), Verdict::slower);
  EXPECT_EQ(decide(-0.10, 0.001, options), Verdict::faster);
  EXPECT_EQ(decide(0.05, 0.001, options), Verdict::same); // the threshold itself is the same
  EXPECT_EQ(decide(-0.04, 0.001, options), Verdict::same);
  EXPECT_EQ(decide(0.10, 0.05, options), Verdict::noisy); // p must be below alpha
  EXPECT_EQ(decide(0.10, std::nullopt, options), Verdict::noisy);
  EXPECT_EQ(decide(0.02, std::nullopt, options), Verdict::same);
  EXPECT_EQ(decide(0.10, 0.001, CompareOptions{0.05, 0.2}), Verdict::same);
  EXPECT_EQ(decide(0.10, 0.03, CompareOptions{0.01, 0.05}), Verdict::noisy);
  // Within the threshold, "same" only when the interval rules out a change as large as it.
  EXPECT_EQ(decide(0.01, 0.5, options, ChangeInterval{-0.02, 0.03}), Verdict::same);
  EXPECT_EQ(decide(0.01, 0.5, options, ChangeInterval{-0.02, 0.08}), Verdict::noisy);
  EXPECT_EQ(decide(-0.01, 0.5, options, ChangeInterval{-0.06, 0.01}), Verdict::noisy);
  EXPECT_EQ(decide(0.10, 0.001, options, ChangeInterval{0.08, 0.12}), Verdict::slower);
}

// Medians 1% apart, but ±30% noise on ten samples a side: a 5% change could hide in it, so the
// verdict is undecided, not "same" (a wrong verdict for a kernel that did get 5% slower).
TEST(Compare, NoiseTooHighForTheThresholdIsUndecidedNotSame) {
  auto base = samples(1e-3, 0.3, 10, 11);
  auto fresh = base;
  for (double& x : fresh)
    x *= 1.01;
  const auto report = compare_documents(gpurun_document({{"k", base}}),
                                        gpurun_document({{"k", fresh}}));
  const auto& c = report.cases.at(0);
  EXPECT_NEAR(*c.change, 0.01, 1e-9);
  ASSERT_TRUE(c.interval);
  EXPECT_GT(c.interval->high, 0.05);
  EXPECT_EQ(c.verdict, Verdict::noisy);
  EXPECT_EQ(report.exit_code(), 0);
  // The same change on quiet samples is "same".
  auto quiet = samples(1e-3, 0.01, 30, 12), quiet_new = quiet;
  for (double& x : quiet_new)
    x *= 1.01;
  EXPECT_EQ(compare_documents(gpurun_document({{"k", quiet}}), gpurun_document({{"k", quiet_new}}))
                .cases.at(0)
                .verdict,
            Verdict::same);
}

TEST(Compare, TenPercentRegressionIsCaught) {
  const auto report = compare_documents(gpurun_document({{"copy", samples(1e-5, 0.01, 30, 1)}}),
                                        gpurun_document({{"copy", samples(1.1e-5, 0.01, 30, 2)}}));
  ASSERT_EQ(report.cases.size(), 1u);
  const auto& c = report.cases[0];
  EXPECT_EQ(c.verdict, Verdict::slower);
  ASSERT_TRUE(c.change);
  EXPECT_NEAR(*c.change, 0.10, 0.01);
  ASSERT_TRUE(c.p_value);
  EXPECT_LT(*c.p_value, 1e-6);
  EXPECT_EQ(c.baseline_samples, 30u); // the aggregate entry is not a sample
  EXPECT_EQ(c.new_samples, 30u);
  EXPECT_EQ(report.exit_code(), 1);
}

TEST(Compare, NoiseIsNotFlagged) {
  // Medians 1.0 and 1.1 (+10%), but the samples overlap: not significant.
  const auto report = compare_documents(gpurun_document({{"k", {1.0, 1.5, 0.8, 1.3, 0.9}}}),
                                        gpurun_document({{"k", {1.2, 0.85, 1.6, 1.1, 0.95}}}));
  const auto& c = report.cases.at(0);
  EXPECT_NEAR(*c.change, 0.10, 1e-12);
  EXPECT_GT(*c.p_value, 0.5);
  EXPECT_EQ(c.verdict, Verdict::noisy);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, SameDistributionIsSame) {
  const auto report = compare_documents(gpurun_document({{"k", samples(2e-3, 0.02, 50, 3)}}),
                                        gpurun_document({{"k", samples(2e-3, 0.02, 50, 4)}}));
  EXPECT_EQ(report.cases.at(0).verdict, Verdict::same);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, ImprovementPasses) {
  const auto report = compare_documents(gpurun_document({{"k", samples(1e-3, 0.01, 20, 5)}}),
                                        gpurun_document({{"k", samples(0.8e-3, 0.01, 20, 6)}}));
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.verdict, Verdict::faster);
  EXPECT_NEAR(*c.change, -0.2, 0.01);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, MismatchedCaseSetsAreListedNotFailed) {
  const auto report = compare_documents(gpurun_document({{"a", {1, 1, 1}}, {"b", {2, 2, 2}}}),
                                        gpurun_document({{"b", {2, 2, 2}}, {"c", {3, 3, 3}}}));
  ASSERT_EQ(report.cases.size(), 3u);
  EXPECT_EQ(report.cases[0].name, "a");
  EXPECT_EQ(report.cases[0].verdict, Verdict::only_in_baseline);
  EXPECT_DOUBLE_EQ(*report.cases[0].baseline_median_s, 1);
  EXPECT_FALSE(report.cases[0].new_median_s);
  EXPECT_EQ(report.cases[1].name, "b");
  EXPECT_EQ(report.cases[1].verdict, Verdict::same);
  EXPECT_EQ(report.cases[2].name, "c");
  EXPECT_EQ(report.cases[2].verdict, Verdict::only_in_new);
  const auto s = report.summary();
  EXPECT_EQ(s.only_in_baseline, 1u);
  EXPECT_EQ(s.only_in_new, 1u);
  EXPECT_EQ(s.same, 1u);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, SkippedCasesAreListedNotFailed) {
  json skipped = gpurun_document({{"k", {1.0}}});
  skipped["benchmarks"][0]["gpurun"] = {
      {"case", "k"}, {"status", "skipped"}, {"reason", "compile error: expected ';'"}};
  const auto report = compare_documents(gpurun_document({{"k", samples(1, 0.01, 10, 7)}}), skipped);
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.verdict, Verdict::skipped);
  EXPECT_EQ(c.reason, "new: compile error: expected ';'");
  EXPECT_EQ(report.summary().skipped, 1u);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, OneSampleASideIsNoisyBeyondTheThreshold) {
  const auto report = compare_documents(gpurun_document({{"k", {1.0}}, {"j", {1.0}}}),
                                        gpurun_document({{"k", {1.5}}, {"j", {1.01}}}));
  EXPECT_EQ(find_case(report, "k").verdict, Verdict::noisy);
  EXPECT_FALSE(find_case(report, "k").p_value);
  EXPECT_EQ(find_case(report, "j").verdict, Verdict::same);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(Compare, ThresholdAndAlphaAreHonoured) {
  const auto base = gpurun_document({{"k", samples(1e-5, 0.01, 30, 1)}});
  const auto slower = gpurun_document({{"k", samples(1.1e-5, 0.01, 30, 2)}});
  EXPECT_EQ(compare_documents(base, slower, {0.05, 0.15}).cases[0].verdict, Verdict::same);
  EXPECT_EQ(compare_documents(base, slower, {1e-30, 0.05}).cases[0].verdict, Verdict::noisy);
}

// ---- Several baseline runs

/// `count` samples of run `run`: a run-wide offset `drift` (the run's clock, placement, load)
/// times the small noise of its samples.
std::vector<double> run_samples(double center, double drift, std::size_t count, std::uint64_t seed) {
  return samples(center * (1 + drift), 0.005, count, seed);
}

// Runs of identical code whose medians wander by ±6% while each run's samples spread by ±0.5%:
// one baseline run against one new run calls a 6% drift "slower" with a tiny p-value; the
// baseline's five runs show the drift, and the same new run is undecided.
TEST(CompareRuns, DriftBetweenBaselineRunsKeepsAGateFromCallingItSlower) {
  const double drifts[] = {-0.06, 0.03, -0.01, 0.05, 0.0};
  std::vector<ResultFile> runs;
  for (int i = 0; i < 5; ++i)
    runs.push_back(parse_result_document(
        gpurun_document({{"k", run_samples(1e-3, drifts[i], 30, 100 + i)}}), "base.json", "."));
  const ResultFile fresh = parse_result_document(
      gpurun_document({{"k", run_samples(1e-3, 0.06, 30, 200)}}), "new.json", ".");
  const auto one = compare_results(runs[4], fresh, {});
  EXPECT_EQ(one.cases.at(0).verdict, Verdict::slower);
  const auto all = compare_results(runs, fresh, {});
  ASSERT_EQ(all.cases.size(), 1u);
  const auto& c = all.cases[0];
  EXPECT_EQ(c.verdict, Verdict::noisy);
  EXPECT_EQ(c.baseline_runs, 5u);
  EXPECT_EQ(all.baseline_runs, 5u);
  EXPECT_EQ(c.baseline_samples, 150u);
  ASSERT_TRUE(c.interval);
  EXPECT_LT(c.interval->low, 0);
  EXPECT_GT(*c.p_value, 0.05);
  EXPECT_EQ(all.exit_code(), 0);
}

// Quiet runs (±0.3% from run to run): a real 10% slowdown is still caught, a 1% change is "same".
TEST(CompareRuns, QuietRunsStillCatchARealSlowdown) {
  const double drifts[] = {-0.003, 0.002, 0.0, 0.003};
  std::vector<ResultFile> runs;
  for (int i = 0; i < 4; ++i)
    runs.push_back(parse_result_document(
        gpurun_document({{"k", run_samples(1e-3, drifts[i], 30, 300 + i)}}), "base.json", "."));
  const auto slower = compare_results(
      runs,
      parse_result_document(gpurun_document({{"k", run_samples(1e-3, 0.10, 30, 400)}}), "n", "."),
      {});
  EXPECT_EQ(slower.cases.at(0).verdict, Verdict::slower);
  const auto same = compare_results(
      runs,
      parse_result_document(gpurun_document({{"k", run_samples(1e-3, 0.01, 30, 401)}}), "n", "."),
      {});
  EXPECT_EQ(same.cases.at(0).verdict, Verdict::same);
}

// A case that only later runs measured, or that one run skipped, takes the runs that have it.
TEST(CompareRuns, CasesArePooledByNameAcrossTheRuns) {
  const ResultFile a = parse_result_document(
      gpurun_document({{"k", samples(1e-3, 0.01, 10, 1)}}), "a.json", ".");
  const ResultFile b = parse_result_document(
      gpurun_document({{"k", samples(1e-3, 0.01, 10, 2)}, {"j", samples(2e-3, 0.01, 10, 3)}}),
      "b.json", ".");
  const ResultFile fresh = parse_result_document(
      gpurun_document({{"k", samples(1e-3, 0.01, 10, 4)}, {"j", samples(2e-3, 0.01, 10, 5)}}),
      "n.json", ".");
  const auto report = compare_results(std::vector{a, b}, fresh, {});
  ASSERT_EQ(report.cases.size(), 2u);
  EXPECT_EQ(find_case(report, "k").baseline_runs, 2u);
  EXPECT_EQ(find_case(report, "k").baseline_samples, 20u);
  EXPECT_EQ(find_case(report, "j").baseline_runs, 1u);
  EXPECT_EQ(find_case(report, "j").baseline_samples, 10u);
  EXPECT_EQ(report.baseline_file, "a.json, b.json");
}

// ---- Google Benchmark
// ----------------------------------------------------------------------------

/// A Google Benchmark document with repetitions: iteration entries, then the aggregates.
json gbench_document(const Cases& cases, bool aggregates_only = false) {
  json benchmarks = json::array();
  for (const auto& [name, s] : cases) {
    if (!aggregates_only)
      for (std::size_t i = 0; i < s.size(); ++i)
        benchmarks.push_back({{"name", name},
                              {"run_name", name},
                              {"run_type", "iteration"},
                              {"repetitions", s.size()},
                              {"repetition_index", i},
                              {"iterations", 1000},
                              {"real_time", s[i] * 1e9},
                              {"cpu_time", s[i] * 1e9},
                              {"time_unit", "ns"}});
    for (const char* aggregate : {"mean", "median", "stddev", "cv"})
      benchmarks.push_back(
          {{"name", name + "_" + aggregate},
           {"run_name", name},
           {"run_type", "aggregate"},
           {"aggregate_name", aggregate},
           {"aggregate_unit", std::string(aggregate) == "cv" ? "percentage" : "time"},
           {"real_time", std::string(aggregate) == "median" ? s.front() * 1e9 : 0.5},
           {"time_unit", "ns"}});
  }
  return {{"context", {{"library_build_type", "release"}}}, {"benchmarks", benchmarks}};
}

TEST(Compare, GoogleBenchmarkRepetitionsAreTheSamples) {
  const auto report =
      compare_documents(gbench_document({{"BM_copy/64", samples(2e-6, 0.01, 12, 8)}}),
                        gbench_document({{"BM_copy/64", samples(2.2e-6, 0.01, 12, 9)}}));
  EXPECT_EQ(report.baseline_format, ResultFormat::google_benchmark);
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.baseline_samples, 12u);
  EXPECT_NEAR(*c.baseline_median_s, 2e-6, 2e-8); // nanoseconds read as seconds
  EXPECT_EQ(c.verdict, Verdict::slower);
  EXPECT_EQ(report.exit_code(), 1);
}

TEST(Compare, GoogleBenchmarkAggregatesAloneGiveOneValue) {
  const auto report = compare_documents(gbench_document({{"BM_x", {3e-6}}}, true),
                                        gbench_document({{"BM_x", {3.6e-6}}}, true));
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.baseline_samples, 1u);
  EXPECT_NEAR(*c.baseline_median_s, 3e-6, 1e-15); // the median aggregate, not the mean (0.5 ns)
  EXPECT_NEAR(*c.change, 0.2, 1e-9);
  EXPECT_EQ(c.verdict, Verdict::noisy);
}

// ---- nvbench
// -------------------------------------------------------------------------------------

json nvbench_summary(const std::string& tag,
                     std::vector<std::pair<std::string, std::string>> data) {
  json values = json::array();
  for (const auto& [name, value] : data)
    values.push_back({{"name", name}, {"type", "string"}, {"value", value}});
  return {{"tag", tag}, {"name", tag}, {"data", values}};
}

/// An nvbench document with one benchmark "copy", one state, a mean and median summary of
/// `median_s`, and a sample file summary pointing at `sample_file` when it is not empty.
json nvbench_document(double median_s, const std::string& sample_file, std::size_t size) {
  json summaries = json::array();
  summaries.push_back(nvbench_summary("nv/cold/sample_size", {{"value", std::to_string(size)}}));
  summaries.push_back(nvbench_summary("nv/cold/time/gpu/mean", {{"value", "1.0"}}));
  summaries.push_back(
      nvbench_summary("nv/cold/time/gpu/median", {{"value", fmt::format("{}", median_s)}}));
  if (!sample_file.empty())
    summaries.push_back(
        nvbench_summary("nv/json/bin:nv/cold/sample_times",
                        {{"filename", sample_file}, {"size", std::to_string(size)}}));
  json state{{"name", "Device=0 Elements=2^20"}, {"is_skipped", false}, {"summaries", summaries}};
  return {{"meta", {{"version", {{"json", {{"string", "1.0.0"}}}}}}},
          {"benchmarks", json::array({{{"name", "copy"}, {"states", json::array({state})}}})}};
}

void write_float32(const std::filesystem::path& path, const std::vector<double>& values) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  for (double v : values) {
    const auto f = static_cast<float>(v);
    char bytes[4];
    std::memcpy(bytes, &f, 4); // this machine is little-endian, as the format is
    out.write(bytes, 4);
  }
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(Compare, NvbenchWithSampleFiles) {
  const auto dir = test::temp_dir();
  const auto base = samples(1e-5, 0.01, 40, 10);
  const auto fresh = samples(1.1e-5, 0.01, 40, 11);
  write_float32(dir / "base.json-bin" / "0.bin", base);
  write_float32(dir / "new.json-bin" / "0.bin", fresh);
  write_text(dir / "base.json", nvbench_document(1e-5, "base.json-bin/0.bin", 40).dump());
  write_text(dir / "new.json", nvbench_document(1.1e-5, "new.json-bin/0.bin", 40).dump());
  const auto baseline_file = read_result_file(dir / "base.json");
  EXPECT_EQ(baseline_file.format, ResultFormat::nvbench);
  EXPECT_TRUE(baseline_file.warnings.empty());
  const auto report = compare_results(baseline_file, read_result_file(dir / "new.json"), {});
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.name, "copy/Device=0 Elements=2^20");
  EXPECT_EQ(c.baseline_samples, 40u);
  EXPECT_EQ(c.new_samples, 40u);
  EXPECT_EQ(c.verdict, Verdict::slower);
  EXPECT_EQ(report.exit_code(), 1);
}

TEST(Compare, NvbenchWithoutSampleFilesUsesTheMedianSummary) {
  const auto dir = test::temp_dir();
  // The summary names a file that is not there (copied without its folder): one value a side.
  write_text(dir / "base.json", nvbench_document(1e-5, "base.json-bin/0.bin", 40).dump());
  write_text(dir / "new.json", nvbench_document(1.1e-5, "", 40).dump());
  const auto baseline_file = read_result_file(dir / "base.json");
  ASSERT_EQ(baseline_file.warnings.size(), 1u);
  EXPECT_NE(baseline_file.warnings[0].find("0.bin cannot be read"), std::string::npos)
      << baseline_file.warnings[0];
  const auto report = compare_results(baseline_file, read_result_file(dir / "new.json"), {});
  const auto& c = report.cases.at(0);
  EXPECT_EQ(c.baseline_samples, 1u);
  EXPECT_DOUBLE_EQ(*c.baseline_median_s, 1e-5); // the median summary, not the mean (1.0)
  EXPECT_NEAR(*c.change, 0.1, 1e-12);
  EXPECT_EQ(c.verdict, Verdict::noisy); // one value cannot show significance
  EXPECT_EQ(report.exit_code(), 0);
}

StoredCase measured(std::string name, std::string device, double seconds) {
  StoredCase c;
  c.name = std::move(name);
  c.device = std::move(device);
  c.samples_s = {seconds, seconds * 1.001, seconds * 0.999, seconds, seconds * 1.002};
  return c;
}

TEST(CompareModels, SeveralModelsInAFilePairByNameAndModel) {
  ResultFile base{"base.json", ResultFormat::gpurun,
                  {measured("copy", "H200", 1e-3), measured("copy", "A100", 2e-3)}, {}, {}};
  ResultFile fresh{"new.json", ResultFormat::gpurun,
                   {measured("copy", "A100", 2e-3), measured("copy", "H200", 1e-3)}, {}, {}};
  const auto report = compare_results(base, fresh, CompareOptions{});
  ASSERT_EQ(report.cases.size(), 2u);
  EXPECT_EQ(report.cases[0].name, "copy [H200]");
  EXPECT_EQ(report.cases[0].verdict, Verdict::same) << "not the A100's 2 ms";
  EXPECT_EQ(report.cases[1].name, "copy [A100]");
  EXPECT_EQ(report.cases[1].verdict, Verdict::same);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(CompareModels, ACaseOnOneModelOnlyIsNotComparedWithAnother) {
  ResultFile base{"base.json", ResultFormat::gpurun,
                  {measured("copy", "H200", 1e-3), measured("add", "A100", 2e-3)}, {}, {}};
  ResultFile fresh{"new.json", ResultFormat::gpurun,
                   {measured("copy", "A100", 2e-3), measured("add", "A100", 2e-3)}, {}, {}};
  const auto report = compare_results(base, fresh, CompareOptions{});
  ASSERT_EQ(report.cases.size(), 3u);
  EXPECT_EQ(report.cases[0].verdict, Verdict::only_in_baseline);
  EXPECT_EQ(report.cases[1].verdict, Verdict::same);
  EXPECT_EQ(report.cases[2].name, "copy [A100]");
  EXPECT_EQ(report.cases[2].verdict, Verdict::only_in_new);
  EXPECT_FALSE(report.warnings.empty());
}

TEST(CompareEnvironment, ASettingThatDiffersIsAWarningAndNotAVerdict) {
  ResultFile base{"base.json", ResultFormat::gpurun, {measured("copy", "H200", 1e-3)}, {},
                  {{"ecc", "enabled"}, {"power_limit_w", "700"}}};
  ResultFile fresh{"new.json", ResultFormat::gpurun, {measured("copy", "H200", 1e-3)}, {},
                   {{"power_limit_w", "500"}, {"ecc", "enabled"}}};
  const auto report = compare_results(base, fresh, CompareOptions{});
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0], "taken under different settings: power_limit_w: 700 in the "
                                "baseline, 500 in the new file");
  EXPECT_EQ(report.cases[0].verdict, Verdict::same);
  EXPECT_EQ(report.exit_code(), 0);
}

TEST(CompareModels, OneModelEachThatDifferIsComparedWithAWarning) {
  ResultFile base{"base.json", ResultFormat::gpurun, {measured("copy", "A100", 2e-3)}, {}, {}};
  ResultFile fresh{"new.json", ResultFormat::gpurun, {measured("copy", "H200", 1e-3)}, {}, {}};
  const auto report = compare_results(base, fresh, CompareOptions{});
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_EQ(report.cases[0].name, "copy");
  EXPECT_EQ(report.cases[0].verdict, Verdict::faster);
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_NE(report.warnings[0].find("A100"), std::string::npos);
}

} // namespace
} // namespace gpurun::bench
