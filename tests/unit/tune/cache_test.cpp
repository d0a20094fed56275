#include "tune/cache.hpp"

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun::tune {
namespace {

CacheHeader header() {
  return {"k", "k.cu", {{"A", {"1", "2"}}, {"T", {"float", "double"}}}, {}, "time", "cpu", "emu"};
}

TEST(TuneCache, AppendsLinesAndReadsThemBackSkippingALineCutShort) {
  const auto path = test::temp_dir() / "a.cache";
  {
    CacheWriter w(path, header());
    Evaluation e;
    e.key = "1,float";
    e.time_s = 2e-6;
    e.samples = 10;
    w.append(e, {{"A", "1"}, {"T", "float"}});
  }
  // A crash in the middle of the next line.
  {
    std::ofstream out(path, std::ios::app);
    out << R"({"key":"2,float","config":{"A":"2","T":"fl)";
  }
  {
    CacheWriter w(path, header());
    Evaluation e;
    e.key = "2,double";
    e.status = Status::compile_error;
    e.reason = "no";
    w.append(e, {{"A", "2"}, {"T", "double"}});
  }
  const Cache c = read_cache(path, "--cache");
  EXPECT_EQ(c.format, "gpurun");
  EXPECT_EQ(c.skipped_lines, 1u);
  ASSERT_EQ(c.evaluations.size(), 2u);
  EXPECT_EQ(c.evaluations.at("1,float").time_s, 2e-6);
  EXPECT_EQ(c.evaluations.at("2,double").status, Status::compile_error);
  EXPECT_EQ(c.configs[1], (std::vector<std::uint32_t>{1, 1}));
  EXPECT_NO_THROW(check_cache_matches(c, header(), "--cache"));
  auto other = header();
  other.device = "H200";
  EXPECT_THROW(check_cache_matches(c, other, "--cache"), Error);
}

TEST(TuneCache, ReadsKernelTunersCacheEvenUnfinished) {
  const auto path = test::temp_dir() / "kt.json";
  {
    std::ofstream out(path);
    out << R"({"device_name": "NVIDIA A100", "kernel_name": "matmul", "problem_size": [4096],
"tune_params_keys": ["block_size_x", "tile"], "tune_params": {"block_size_x": [16, 32], "tile": [1, 2]},
"objective": "time", "cache": {
"16,1": {"block_size_x": 16, "tile": 1, "time": 2.5, "times": [2.5, 2.5], "compile_time": 100.0, "benchmark_time": 10.0},
"32,1": {"block_size_x": 32, "tile": 1, "time": "CompilationFailedConfig"},
"16,2": {"block_size_x": 16, "tile": 2, "time": 1.25, "GFLOP/s": 900.0},
)";
  }
  const Cache c = read_cache(path, "--simulate");
  EXPECT_EQ(c.format, "kernel_tuner");
  EXPECT_EQ(c.header.device, "NVIDIA A100");
  ASSERT_EQ(c.evaluations.size(), 3u);
  EXPECT_DOUBLE_EQ(*c.evaluations.at("16,1").time_s, 2.5e-3);
  EXPECT_DOUBLE_EQ(c.evaluations.at("16,1").wall_s, 0.11);
  EXPECT_EQ(c.evaluations.at("32,1").status, Status::compile_error);
  EXPECT_EQ(c.evaluations.at("16,2").gflops, 900.0);
}

// A line whose key disagrees with its configuration is read by its configuration.
TEST(TuneCache, TheConfigurationNotTheKeyNamesALine) {
  const auto path = test::temp_dir() / "k.cache";
  { CacheWriter w(path, header()); }
  std::ofstream(path, std::ios::app)
      << R"({"key":"9,9","config":{"A":"2","T":"float"},"status":"ok","time_s":1e-6})" << "\n";
  const Cache c = read_cache(path, "--cache");
  ASSERT_EQ(c.evaluations.size(), 1u);
  EXPECT_EQ(c.evaluations.begin()->first, "2,float");
  EXPECT_EQ(c.evaluations.begin()->second.key, "2,float");
}

// A sample count written as a float too large for any integer (a damaged or hand-edited line)
// counts no samples; the line's other figures stay.
TEST(TuneCache, ASampleCountThatIsNoWholeNumberCountsNone) {
  const auto path = test::temp_dir() / "s.cache";
  { CacheWriter w(path, header()); }
  std::ofstream(path, std::ios::app)
      << R"({"config":{"A":"1","T":"float"},"status":"ok","time_s":1e-6,"samples":6e60})" << "\n"
      << R"({"config":{"A":"2","T":"float"},"status":"ok","time_s":2e-6,"samples":-3})" << "\n"
      << R"({"config":{"A":"1","T":"double"},"status":"ok","time_s":3e-6,"samples":7})" << "\n";
  const Cache c = read_cache(path, "--cache");
  ASSERT_EQ(c.evaluations.size(), 3u);
  EXPECT_EQ(c.evaluations.at("1,float").samples, 0u);
  EXPECT_EQ(c.evaluations.at("1,float").time_s, 1e-6);
  EXPECT_EQ(c.evaluations.at("2,float").samples, 0u);
  EXPECT_EQ(c.evaluations.at("1,double").samples, 7u);
}

// The shards of one search, read as one space.
TEST(TuneCache, MergesTheShardsOfOneSpace) {
  const auto dir = test::temp_dir();
  const auto one = [&](const char* name, const char* key, const bench::AxisPoint& point) {
    CacheWriter w(dir / name, header());
    Evaluation e;
    e.key = key;
    e.time_s = 1e-6;
    w.append(e, point);
  };
  one("s0.cache", "2,double", {{"A", "2"}, {"T", "double"}});
  one("s1.cache", "1,float", {{"A", "1"}, {"T", "float"}});
  const Cache m = merge_caches({(dir / "s0.cache").string(), (dir / "s1.cache").string()},
                               "--simulate");
  ASSERT_EQ(m.evaluations.size(), 2u);
  // Cross-product order, whatever the shards' order.
  EXPECT_EQ(m.configs, (std::vector<std::vector<std::uint32_t>>{{0, 0}, {1, 1}}));
}

TEST(TuneCache, RefusesWhatIsNeitherFormat) {
  const auto path = test::temp_dir() / "x.json";
  std::ofstream(path) << R"({"hello": 1})";
  EXPECT_THROW((void)read_cache(path, "--simulate"), Error);
}

TEST(TuneCache, WritesKernelTunersT4Format) {
  const Space space{{bench::parse_axis("A=[1,2]")}, {}};
  SearchResult r;
  r.configs = {0, 1};
  Evaluation ok;
  ok.key = "1";
  ok.time_s = 1e-3;
  Evaluation bad;
  bad.key = "2";
  bad.status = Status::wrong_answer;
  r.evaluations = {ok, bad};
  const auto t4 = t4_results(space, r, Objective::time);
  EXPECT_EQ(t4.at("schema_version"), "1.0.0");
  ASSERT_EQ(t4.at("results").size(), 2u);
  EXPECT_EQ(t4["results"][0]["configuration"]["A"], 1);
  EXPECT_EQ(t4["results"][0]["measurements"][0]["value"], 1.0);
  EXPECT_EQ(t4["results"][1]["invalidity"], "correctness");
}

} // namespace
} // namespace gpurun::tune
