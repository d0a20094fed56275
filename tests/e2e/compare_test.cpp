// End-to-end: `gpurun compare` gates on a significant regression (exit 1), passes otherwise
// (exit 0), and names the file and field of a file it cannot use (exit 2).
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

using nlohmann::json;

/// A gpurun bench file: each case with `count` samples of `seconds` ± 1% in a fixed pattern.
std::filesystem::path write_results(const std::filesystem::path& dir, const std::string& file,
                                    const std::vector<std::pair<std::string, double>>& cases,
                                    std::size_t count = 20, const json& environment = nullptr) {
  json benchmarks = json::array();
  for (const auto& [name, seconds] : cases) {
    json samples = json::array();
    for (std::size_t i = 0; i < count; ++i)
      samples.push_back(seconds * (1 + 0.01 * (static_cast<double>(i % 5) - 2) / 2));
    benchmarks.push_back({{"name", name},
                          {"run_name", name},
                          {"run_type", "iteration"},
                          {"iterations", count},
                          {"real_time", seconds * 1e6},
                          {"time_unit", "us"},
                          {"gpurun", {{"case", name}, {"status", "ok"}, {"samples_s", samples}}}});
  }
  const auto path = dir / file;
  json gpurun{{"suite", "stream"}};
  if (!environment.is_null())
    gpurun["environment"] = environment;
  std::ofstream(path) << json{{"context", {{"gpurun", gpurun}}}, {"benchmarks", benchmarks}}.dump(2);
  return path;
}

TEST(CompareE2E, RegressionFailsTheGate) {
  const auto dir = temp_dir();
  write_results(dir, "base.json", {{"copy/N:1024", 10e-6}, {"triad/N:1024", 20e-6}});
  write_results(dir, "new.json", {{"copy/N:1024", 11e-6}, {"triad/N:1024", 20e-6}});
  const auto r = run_gpurun("compare base.json new.json", dir);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("| case "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| copy/N:1024  |    10 µs | 11 µs | +10.00% | <0.0001 | slower  |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("slower"), std::string::npos);
  EXPECT_NE(r.out.find("1 slower, 0 faster, 1 same, 0 noisy\n"), std::string::npos) << r.out;
}

// Every file but the last is a baseline run: runs whose medians wander by up to 10% show that a
// 10% change can be drift, so the gate that one of them alone would fail passes, undecided.
TEST(CompareE2E, SeveralBaselineRunsCountTheDriftBetweenRuns) {
  const auto dir = temp_dir();
  write_results(dir, "base-1.json", {{"copy", 10e-6}});
  write_results(dir, "base-2.json", {{"copy", 11e-6}});
  write_results(dir, "base-3.json", {{"copy", 9.5e-6}});
  write_results(dir, "new.json", {{"copy", 11e-6}});
  EXPECT_EQ(run_gpurun("compare base-1.json new.json", dir).exit_code, 1);
  auto r = run_gpurun("compare base-1.json base-2.json base-3.json new.json --json", dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto doc = json::parse(r.out);
  EXPECT_EQ(doc["baseline"]["runs"], 3);
  EXPECT_EQ(doc["baseline"]["file"], "base-1.json, base-2.json, base-3.json");
  EXPECT_EQ(doc["cases"][0]["verdict"], "noisy");
  EXPECT_EQ(doc["cases"][0]["baseline_runs"], 3);
  EXPECT_EQ(doc["cases"][0]["baseline_samples"], 60);
  r = run_gpurun("compare base-1.json", dir);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
}

TEST(CompareE2E, ResultsTakenUnderDifferentSettingsAreNamedButDoNotFailTheGate) {
  const auto dir = temp_dir();
  const json base_env{{"power_limit_w", "700"}, {"ecc", "enabled"}, {"build_type", "release"},
                      {"cpu", "EPYC"}};
  const json new_env{{"power_limit_w", "500"}, {"ecc", "enabled"}, {"build_type", "debug"},
                     {"gpurun_version", "1.0"}};
  write_results(dir, "base.json", {{"copy", 10e-6}}, 20, base_env);
  write_results(dir, "new.json", {{"copy", 10e-6}}, 20, new_env);
  auto r = run_gpurun("compare base.json new.json", dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("taken under different settings: power_limit_w: 700 in the baseline, 500 "
                       "in the new file"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("build_type: release in the baseline, debug in the new file"),
            std::string::npos)
      << r.err;
  // Equal settings and settings one side lacks are not news.
  EXPECT_EQ(r.err.find("ecc"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("cpu"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("gpurun_version"), std::string::npos) << r.err;
  r = run_gpurun("compare base.json new.json --json", dir);
  const json doc = json::parse(r.out);
  ASSERT_TRUE(doc.contains("warnings")) << r.out;
  EXPECT_EQ(doc["warnings"].size(), 2u) << doc["warnings"].dump();
  // The same settings: no warning.
  write_results(dir, "same.json", {{"copy", 10e-6}}, 20, base_env);
  r = run_gpurun("compare base.json same.json", dir);
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(CompareE2E, ImprovementAndUnchangedPass) {
  const auto dir = temp_dir();
  write_results(dir, "base.json", {{"copy", 10e-6}, {"scale", 10e-6}, {"gone", 1e-6}});
  write_results(dir, "new.json", {{"copy", 8e-6}, {"scale", 10.1e-6}, {"added", 1e-6}});
  const auto r = run_gpurun("compare base.json new.json", dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("faster"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 slower, 1 faster, 1 same, 0 noisy; 1 only in baseline, 1 only in new"),
            std::string::npos)
      << r.out;
}

TEST(CompareE2E, ThresholdFlagIsPercent) {
  const auto dir = temp_dir();
  write_results(dir, "base.json", {{"copy", 10e-6}});
  write_results(dir, "new.json", {{"copy", 11e-6}});
  EXPECT_EQ(run_gpurun("compare base.json new.json --threshold 15", dir).exit_code, 0);
  EXPECT_EQ(run_gpurun("compare base.json new.json --threshold 5", dir).exit_code, 1);
}

TEST(CompareE2E, JsonOnStdoutAndMarkdownFile) {
  const auto dir = temp_dir();
  write_results(dir, "base.json", {{"copy", 10e-6}});
  write_results(dir, "new.json", {{"copy", 11e-6}});
  const auto r = run_gpurun("compare base.json new.json --json --md table.md", dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto doc = json::parse(r.out);
  EXPECT_EQ(doc["exit_code"], 1);
  EXPECT_EQ(doc["cases"][0]["verdict"], "slower");
  EXPECT_EQ(doc["summary"]["slower"], 1);
  std::ifstream md(dir / "table.md");
  const std::string table((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_EQ(table.rfind("| case ", 0), 0u) << table;
  EXPECT_NE(table.find("slower"), std::string::npos) << table;
}

TEST(CompareE2E, UnusableFilesExitTwoNamingFileAndField) {
  const auto dir = temp_dir();
  write_results(dir, "base.json", {{"copy", 10e-6}});
  std::ofstream(dir / "bad.json") << R"({"benchmarks": [{"name": "copy", "gpurun": {}}]})";
  auto r = run_gpurun("compare base.json bad.json", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: bad.json: benchmarks[0].gpurun.samples_s: missing\n");
  EXPECT_TRUE(r.out.empty()) << r.out;

  r = run_gpurun("compare base.json missing.json", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "gpurun: error: missing.json: cannot read the result file: No such file or directory\n");

  r = run_gpurun("compare base.json missing.json --json", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(json::parse(r.out)["error"]["category"], "usage");

  r = run_gpurun("compare base.json base.json --alpha 1.5", dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--alpha"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
