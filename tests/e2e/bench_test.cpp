// End-to-end: `gpurun bench` through the real binary on the CPU backend.
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

// Quick settings: the emulator's timings are noisy, so the tests bound the sampling instead of
// waiting for 0.5% noise.
const std::string quick = " --backend cpu --min-time 0.01 --timeout 2 --max-samples 40";

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The kernel-file example of `gpurun bench --help` runs as written (with a smaller sweep): no
// case is skipped, so every flag of it means what the help says.
TEST(BenchE2E, TheHelpsKernelFileExampleRuns) {
  const auto help = run_gpurun("bench --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  std::istringstream lines(help.out);
  std::string example;
  for (std::string line; std::getline(lines, line);)
    if (line.find("gpurun bench kernels/examples/saxpy.cu") != std::string::npos)
      example = line.substr(line.find("bench "));
  ASSERT_FALSE(example.empty()) << help.out;
  const auto sweep = example.find("[16:24]");
  ASSERT_NE(sweep, std::string::npos) << example;
  example.replace(sweep, 7, "[8:9]");
  const auto r = run_gpurun(example + " --min-samples 2" + quick);
  ASSERT_EQ(r.exit_code, 0) << example << "\n" << r.err << r.out;
  EXPECT_EQ(r.out.find("skipped"), std::string::npos) << example << "\n" << r.out;
  EXPECT_NE(r.out.find("| 512 |"), std::string::npos) << r.out;
}

TEST(BenchE2E, KernelFileWithAxesWritesGoogleBenchmarkJson) {
  const auto dir = temp_dir();
  const auto json_path = dir / "out.json";
  auto r = run_gpurun("bench tests/data/bench/mixed.cu --kernel fill_index --grid '(N+63)/64' "
                      "--block 64 --arg 'out=f32[N]:0' --arg 'n=N' -a 'N[pow2]=[8:9]' "
                      "--bytes '4*N' --flops N --min-samples 5 --json " +
                      json_path.string() + quick);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("| case"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| 256 |"), std::string::npos) << r.out;
  const auto doc = read_json(json_path);
  EXPECT_EQ(doc["context"]["json_schema_version"], 1);
  EXPECT_EQ(doc["context"]["gpurun"]["backend"], "cpu");
  std::vector<nlohmann::json> iterations;
  for (const auto& b : doc["benchmarks"])
    if (b["run_type"] == "iteration")
      iterations.push_back(b);
  ASSERT_EQ(iterations.size(), 2u);
  EXPECT_EQ(iterations[0]["name"], "mixed/N:256");
  EXPECT_EQ(iterations[1]["name"], "mixed/N:512");
  for (const auto& b : iterations) {
    const auto samples = b["gpurun"]["samples_s"].get<std::vector<double>>();
    ASSERT_GE(samples.size(), 5u) << "--min-samples";
    ASSERT_LE(samples.size(), 40u) << "--max-samples";
    EXPECT_EQ(b["iterations"], samples.size());
    const double median = median_of(samples);
    EXPECT_DOUBLE_EQ(b["gpurun"]["median_s"].get<double>(), median);
    EXPECT_NEAR(b["real_time"].get<double>(), median * 1e6, median * 1e-3) << "microseconds";
    EXPECT_EQ(b["time_unit"], "us");
    const double bytes = b["gpurun"]["bytes"].get<double>();
    EXPECT_DOUBLE_EQ(bytes, 4.0 * std::stod(b["gpurun"]["axes"]["N"].get<std::string>()));
    EXPECT_NEAR(b["bytes_per_second"].get<double>(), bytes / median, bytes / median * 1e-9);
  }
  // Google Benchmark's aggregates follow each case.
  const auto has = [&](const std::string& name) {
    return std::any_of(doc["benchmarks"].begin(), doc["benchmarks"].end(),
                       [&](const nlohmann::json& b) { return b["name"] == name; });
  };
  EXPECT_TRUE(has("mixed/N:256_median"));
  EXPECT_TRUE(has("mixed/N:512_cv"));
}

TEST(BenchE2E, FailingCasesAreSkippedAndTheSuiteGoesOn) {
  const auto dir = temp_dir();
  const auto csv_path = dir / "out.csv";
  auto r = run_gpurun("bench tests/data/bench/mixed.json --csv " + csv_path.string() + quick);
  EXPECT_EQ(r.exit_code, 1) << "a failed case fails the command\n" << r.err << r.out;
  EXPECT_NE(r.out.find("skipped: check out failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 of 4 cases skipped"), std::string::npos) << r.out;
  std::ifstream in(csv_path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string csv = text.str();
  EXPECT_TRUE(csv.starts_with("name,case,N,status,samples,median_s")) << csv;
  EXPECT_NE(csv.find("\nindex/N:256,index,256,ok,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nindex/N:512,index,512,ok,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nwrong/N:256,wrong,256,skipped,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nbroken,broken,,skipped,"), std::string::npos) << csv;
}

TEST(BenchE2E, AxisOverrideListAndFilter) {
  auto r = run_gpurun("bench tests/data/bench/mixed.json --list -a 'N=[8,16,32]'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "index/N:8\nindex/N:16\nindex/N:32\nwrong/N:8\nwrong/N:16\nwrong/N:32\n"
                   "broken\n");
  r = run_gpurun("bench tests/data/bench/mixed.json --list --filter '^index/N:5'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "index/N:512\n");
  r = run_gpurun("bench tests/data/bench/mixed.json --list -a 'M=[1]'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("-a M: no case of suite 'mixed' has an axis named 'M'"), std::string::npos)
      << r.err;
}

TEST(BenchE2E, StopsAtMaxSamplesAndSaysSo) {
  auto r = run_gpurun("bench tests/data/bench/mixed.json --filter index/N:256 --min-samples 3 "
                      "--max-samples 3 --json -" +
                      std::string(" --backend cpu --min-time 0"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto& g = doc["benchmarks"][0]["gpurun"];
  EXPECT_EQ(g["samples_s"].size(), 3u);
  EXPECT_EQ(g["stop_reason"], "max_samples");
}

TEST(BenchE2E, BadFlagsAreUsageErrors) {
  auto r = run_gpurun("bench tests/data/bench/mixed.json --max-noise 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--max-noise"), std::string::npos) << r.err;
  r = run_gpurun("bench tests/data/bench/mixed.json --grid 4");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--grid: applies to a kernel file"), std::string::npos) << r.err;
  r = run_gpurun("bench tests/data/bench/mixed.cu --kernel fill_index --grid 1 --block 1 "
                 "--arg 'out=f32[1]' --arg n=1 -a 'N=[1:0]'");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(BenchE2E, InterleavePeakAndBatchOnTheCpuBackend) {
  const auto dir = temp_dir();
  auto r = run_gpurun("bench tests/data/bench/mixed.json --filter '^index/' --interleave --peak "
                      "--min-samples 3 --json " +
                      (dir / "i.json").string() + quick);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("measured peak bandwidth:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("% measured"), std::string::npos) << r.out;
  const auto doc = read_json(dir / "i.json");
  EXPECT_GT(doc["context"]["gpurun"]["measured_peak_gbs"].get<double>(), 0);
  EXPECT_EQ(doc["benchmarks"][0]["gpurun"]["status"], "ok");

  r = run_gpurun(
      "bench tests/data/bench/mixed.json --filter '^index/N:256' --batch --min-samples 3 "
      "--json -" +
      quick);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto batch = nlohmann::json::parse(r.out);
  EXPECT_EQ(batch["context"]["gpurun"]["mode"], "batch");
  const auto& g = batch["benchmarks"][0]["gpurun"];
  EXPECT_GE(g["batch_launches"].get<int>(), 1);
  EXPECT_EQ(g["batch_samples_s"], g["samples_s"]) << "in batch mode the batch is the result";
}

// What bench writes, compare reads: a file against itself is the same everywhere (exit 0).
TEST(BenchE2E, CompareReadsWhatBenchWrites) {
  const auto dir = temp_dir();
  auto r = run_gpurun("bench tests/data/bench/mixed.json --filter '^index/' --min-samples 5 "
                      "--json " +
                      (dir / "a.json").string() + quick);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("compare " + (dir / "a.json").string() + " " + (dir / "a.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("index/N:256"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 slower"), std::string::npos) << r.out;
}

} // namespace
} // namespace gpurun::test
