#include "bench/result_json.hpp"

#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "bench/statistics.hpp"
#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

using nlohmann::json;

CaseResult measured(std::string name, std::string case_name, AxisPoint point,
                    std::vector<double> samples) {
  CaseResult c;
  c.name = std::move(name);
  c.case_name = std::move(case_name);
  c.point = std::move(point);
  c.ok = true;
  c.measurement.samples_s = std::move(samples);
  c.summary = summarize(c.measurement.samples_s);
  return c;
}

BenchReport two_cases() {
  BenchReport r;
  r.suite = "s";
  r.version = "1.2.3";
  r.backend = "cuda";
  r.device = "GPU";
  r.peak_bandwidth_gbs = 1000;
  r.mode = "cold";
  r.axis_names = {"N"};
  CaseResult ok = measured("copy/N:1024", "copy", {{"N", "1024"}}, {2e-6, 1e-6, 3e-6});
  ok.bytes = 8192;
  ok.bandwidth_gbs = 8192 / 2e-6 / 1e9;
  ok.peak_fraction = *ok.bandwidth_gbs / 1000;
  ok.warnings = {"one, with a comma"};
  CaseResult skipped;
  skipped.name = "bad/N:1024";
  skipped.case_name = "bad";
  skipped.point = {{"N", "1024"}};
  skipped.reason = "check out failed";
  r.cases = {ok, skipped};
  return r;
}

/// Every field the document has: several devices, p2p, a shard, batch samples, clocks, energy,
/// a case measured on another host.
BenchReport every_field() {
  BenchReport r = two_cases();
  r.date = "2026-12-05T10:00:00+00:00";
  r.host_name = "node0";
  r.device_index = 1;
  r.arch = "sm_90";
  r.driver_version = "13.0";
  r.l2_bytes = 50u << 20;
  r.measured_peak_gbs = 4100.5;
  r.environment = {{"gpurun_version", "0.9.0"}, {"power_limit_w", "700"}, {"ecc", "enabled"},
                   {"mig", "disabled"}};
  r.hold = false;
  r.rules.max_noise = 0.01;
  r.rules.min_samples = 7;
  r.rules.min_time_s = 0.25;
  r.rules.timeout_s = 3;
  r.clocks = "nvml";
  r.axis_names = {"N", "T"};
  CaseResult& ok = r.cases[0];
  ok.measurement.stop_reason = StopReason::settled;
  ok.measurement.batch_samples_s = {1.5e-6, 1.25e-6};
  ok.measurement.batch_launches = 64;
  ok.batch = summarize(ok.measurement.batch_samples_s);
  ok.measurement.throttled_discarded = 2;
  ok.measurement.clocks = ClockSummary{1500, 1700.25, 1980, 0};
  ok.measurement.energy_j = 0.125;
  ok.measurement.power_w = 350.5;
  ok.measurement.sample_clock_mhz = {1980, 1965, 1980};
  ok.measurement.sample_power_w = {410.5, std::nullopt, 402.25};
  ok.counters = CounterReport{{{"dram__bytes.sum", 8192, "byte"},
                               {"gpu__time_duration.sum", 2048, "nsecond"}},
                              2,
                              "CUPTI 13.0 range profiler, GH100"};
  ok.roofline = RooflinePoint{"fp32", 1e6, 8192, 2e-6, 122.0703125, 5e11, 6e11, 0.8333,
                              13.9, "compute", "counters"};
  r.roofline =
      Roofline{4.8e12, {{"fp32", 6.69e13}, {"fp64", 3.35e13}, {"fp16", 1.34e14}}, "counters"};
  ok.measurement.wall_s = 0.75;
  ok.flops = 1e6;
  ok.gflops = 0.5;
  ok.measured_peak_fraction = 0.3;
  ok.outliers = 1;
  ok.device = "GPU";
  ok.device_index = 1;
  CaseResult other = measured("triad/N:2/T:double", "triad", {{"N", "2"}, {"T", "double"}}, {5});
  other.host_name = "node7";
  other.device = "Other GPU";
  other.device_index = 0;
  r.cases.push_back(other);
  DeviceRecord d0{0,         "Other GPU", "sm_80", "12.0", 1024,  2000, std::nullopt,
                  "no peak", "nvml",      1,       0.5,    "lost",   std::nullopt};
  DeviceRecord d1{1,  "GPU", "sm_90", "13.0", 2048, 4800, 4100.5, "", "nvml", 2, 1.5, "", std::nullopt};
  r.devices = {d0, d1};
  r.wall_s = 2.5;
  r.p2p = PeerMatrix{{0, 1},
                     1 << 20,
                     {{10.0, std::nullopt}, {20.5, 30.0}},
                     {{"", ""}, {"staged", ""}},
                     {"0→1 failed"}};
  r.shard = ShardInfo{1, 4, "--shard 1/4", "bytes", {"copy/N:1024", "bad/N:1024", "x"}};
  return r;
}

TEST(ResultJson, FollowsGoogleBenchmarksSchema) {
  const auto j = result_json(two_cases());
  EXPECT_EQ(j["context"]["json_schema_version"], 1);
  EXPECT_EQ(j["context"]["library_version"], "gpurun 1.2.3");
  const auto& b = j["benchmarks"];
  ASSERT_EQ(b.size(), 6u) << "ok case + 4 aggregates + skipped case";
  EXPECT_EQ(b[0]["name"], "copy/N:1024");
  EXPECT_EQ(b[0]["run_type"], "iteration");
  EXPECT_EQ(b[0]["iterations"], 3);
  EXPECT_DOUBLE_EQ(b[0]["real_time"].get<double>(), 2.0);
  EXPECT_EQ(b[0]["time_unit"], "us");
  EXPECT_DOUBLE_EQ(b[0]["bytes_per_second"].get<double>(), 8192 / 2e-6);
  EXPECT_EQ(b[0]["gpurun"]["samples_s"].size(), 3u);
  EXPECT_EQ(b[2]["name"], "copy/N:1024_median");
  EXPECT_EQ(b[2]["run_type"], "aggregate");
  EXPECT_EQ(b[2]["aggregate_name"], "median");
  EXPECT_EQ(b[5]["error_occurred"], true);
  EXPECT_EQ(b[5]["error_message"], "check out failed");
  EXPECT_EQ(b[5]["gpurun"]["status"], "skipped");
}

// What is written reads back into the report it came from: written again, byte for byte the
// same document.
TEST(ResultJson, ReadsBackEveryFieldItWrites) {
  for (BenchReport report : {two_cases(), every_field()}) {
    const std::string text = json_text(result_json(report), 2);
    const BenchReport back = parse_result_json(json::parse(text), "r.json");
    EXPECT_EQ(json_text(result_json(back), 2), text);
    EXPECT_EQ(back.axis_names, report.axis_names);
    ASSERT_EQ(back.cases.size(), report.cases.size());
    EXPECT_EQ(back.cases[0].measurement.samples_s, report.cases[0].measurement.samples_s);
    EXPECT_EQ(back.cases[0].summary.count, 3u);
    EXPECT_FALSE(back.cases[1].ok);
    EXPECT_EQ(back.cases[1].reason, "check out failed");
  }
  const BenchReport back =
      parse_result_json(json::parse(json_text(result_json(every_field()))), "r.json");
  EXPECT_EQ(back.cases[0].measurement.stop_reason, StopReason::settled);
  EXPECT_EQ(back.cases[0].measurement.batch_launches, 64);
  EXPECT_EQ(back.cases[2].host_name, "node7");
  EXPECT_EQ(back.devices.size(), 2u);
  EXPECT_EQ(back.devices[0].error, "lost");
  ASSERT_TRUE(back.p2p.has_value());
  EXPECT_FALSE(back.p2p->gbs[0][1].has_value());
  EXPECT_EQ(back.p2p->path[1][0], "staged");
  ASSERT_TRUE(back.shard.has_value());
  EXPECT_EQ(back.shard->count, 4u);
  EXPECT_FALSE(back.hold);
  EXPECT_EQ(back.rules.min_samples, 7u);
  const Measurement& m = back.cases[0].measurement;
  EXPECT_EQ(m.sample_clock_mhz, (std::vector<double>{1980, 1965, 1980}));
  ASSERT_EQ(m.sample_power_w.size(), 3u);
  EXPECT_FALSE(m.sample_power_w[1].has_value());
  EXPECT_EQ(m.sample_power_w[2], 402.25);
  ASSERT_TRUE(back.cases[0].counters.has_value());
  EXPECT_EQ(back.cases[0].counters->passes, 2);
  EXPECT_EQ(back.cases[0].counters->values.at(0).unit, "byte");
  ASSERT_TRUE(back.cases[0].roofline.has_value());
  EXPECT_EQ(back.cases[0].roofline->bound, "compute");
  EXPECT_DOUBLE_EQ(back.cases[0].roofline->intensity, 122.0703125);
  ASSERT_TRUE(back.roofline.has_value());
  EXPECT_EQ(back.roofline->compute.at(1).precision, "fp64");
  EXPECT_EQ(back.roofline->compute.at(2).precision, "fp16");
  EXPECT_EQ(back.roofline->source, "counters");
  // The settings, by name.
  const std::map<std::string, std::string> env(back.environment.begin(), back.environment.end());
  EXPECT_EQ(env, (std::map<std::string, std::string>{{"gpurun_version", "0.9.0"},
                                                      {"power_limit_w", "700"},
                                                      {"ecc", "enabled"},
                                                      {"mig", "disabled"}}));
}

TEST(ResultJson, PerSampleReadingsMatchTheSamples) {
  json doc = result_json(two_cases());
  doc["benchmarks"][0]["gpurun"]["sample_sm_clock_mhz"] = {1980, 1980};
  try {
    (void)parse_result_json(doc, "r.json");
    FAIL() << "two readings for three samples";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("sample_sm_clock_mhz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2 readings for 3 samples"), std::string::npos)
        << e.what();
  }
  doc["benchmarks"][0]["gpurun"].erase("sample_sm_clock_mhz");
  doc["benchmarks"][0]["gpurun"]["sample_power_w"] = {400.5, "x", 401};
  try {
    (void)parse_result_json(doc, "r.json");
    FAIL() << "a text among the readings";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sample_power_w[1]"), std::string::npos) << e.what();
  }
}

TEST(ResultJson, AMergeRecordReadsBack) {
  BenchReport report = two_cases();
  report.merged =
      MergeRecord{2,
                  {{0, "a.json", "n0", "GPU", "d", 1}, {1, "b.json", "n1", "GPU", "d", 1}},
                  {"n0", "n1"},
                  {"GPU"},
                  true,
                  {"x"},
                  {},
                  3};
  const std::string text = json_text(result_json(report));
  EXPECT_EQ(json_text(result_json(parse_result_json(json::parse(text), "m.json"))), text);
}

/// The message of reading `text` as a result.
std::string usage_message(const std::string& text) {
  return test::usage_message([&] { (void)parse_result_json(json::parse(text), "r.json"); });
}

TEST(ResultJson, NamesTheFieldThatIsWrong) {
  EXPECT_EQ(usage_message("[]"), "r.json: not a JSON object");
  EXPECT_EQ(usage_message("{}"), "r.json: benchmarks: missing: not a gpurun bench result");
  EXPECT_EQ(usage_message(R"({"benchmarks": [{"name": "BM_x", "real_time": 1}]})"),
            "r.json: not a gpurun bench result (gpurun bench --json FILE)");
  EXPECT_EQ(usage_message(R"({"benchmarks": [{"name": "a", "gpurun": {"status": "ok"}}]})"),
            "r.json: benchmarks[0].gpurun.samples_s: missing");
  EXPECT_EQ(usage_message(R"({"benchmarks": [{"name": "a", "gpurun": {"samples_s": [1, "x"]}}]})"),
            "r.json: benchmarks[0].gpurun.samples_s[1]: expected a number");
  EXPECT_EQ(
      usage_message(
          R"({"benchmarks": [{"name": "a", "gpurun": {"samples_s": [], "stop_reason": 3}}]})"),
      "r.json: benchmarks[0].gpurun.stop_reason: expected a string");
  EXPECT_EQ(usage_message(R"({"context": {"gpurun": {"l2_bytes": -1}}, "benchmarks": []})"),
            "r.json: context.gpurun.l2_bytes: expected a whole number ≥ 0");
  EXPECT_EQ(usage_message(R"({"context": {"gpurun": {"shard": {"index": 3, "count": 2,
            "suite_cases": []}}}, "benchmarks": []})"),
            "r.json: context.gpurun.shard: shard 3/2 is not one of N");
  EXPECT_EQ(usage_message(R"({"context": {"gpurun": {"p2p": {"devices": [0, 1], "gbs": [[1]],
            "path": []}}}, "benchmarks": []})"),
            "r.json: context.gpurun.p2p.gbs: expected 2 rows of GB/s and of paths, one per device");
  EXPECT_EQ(usage_message(R"({"context": {"gpurun": {"environment": {"ecc": 1}}},
            "benchmarks": []})"),
            "r.json: context.gpurun.environment.ecc: expected a string");
}

// A hand-written file: only samples, the statistics come from them; or only a median.
TEST(ResultJson, StatisticsAFileLeavesOutComeFromTheSamples) {
  const BenchReport r = parse_result_json(
      json::parse(R"({"benchmarks": [{"name": "a", "gpurun": {"samples_s": [1, 2, 6]}}]})"),
      "r.json");
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].ok);
  EXPECT_EQ(r.cases[0].case_name, "a");
  EXPECT_EQ(r.cases[0].summary.count, 3u);
  EXPECT_DOUBLE_EQ(r.cases[0].summary.median, 2);
  EXPECT_DOUBLE_EQ(r.cases[0].summary.mean, 3);
  const BenchReport m = parse_result_json(
      json::parse(R"({"benchmarks": [{"name": "a", "gpurun": {"median_s": 0.5}}]})"), "r.json");
  EXPECT_TRUE(m.cases[0].measurement.samples_s.empty());
  EXPECT_DOUBLE_EQ(m.cases[0].summary.median, 0.5);
}

} // namespace
} // namespace gpurun::bench
