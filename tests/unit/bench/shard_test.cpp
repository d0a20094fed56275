#include "bench/shard.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

using test::usage_message;

EnvLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional(it->second);
  };
}

TEST(Shard, ParsesKOfN) {
  const auto s = parse_shard("2/8");
  EXPECT_EQ(s.index, 2u);
  EXPECT_EQ(s.count, 8u);
  EXPECT_EQ(s.source, "--shard 2/8");
  EXPECT_EQ(parse_shard("0/1").count, 1u);
}

TEST(Shard, BadKOfNNamesTheField) {
  EXPECT_EQ(usage_message([] { (void)parse_shard("5/4"); }),
            "--shard 5/4: K = 5 must be below N = 4 (shards count from 0)");
  EXPECT_EQ(usage_message([] { (void)parse_shard("4/4"); }),
            "--shard 4/4: K = 4 must be below N = 4 (shards count from 0)");
  EXPECT_EQ(usage_message([] { (void)parse_shard("0/0"); }), "--shard 0/0: N must be at least 1");
  for (const char* bad : {"x/y", "3", "1/", "/4", "-1/4", "1/4/2", " 1/4", "1/4 ", "1.0/4",
                          "99999999999999999999999/2"})
    EXPECT_NE(usage_message([&] {
                (void)parse_shard(bad);
              }).find(fmt::format("--shard '{}': expected K/N", bad)),
              std::string::npos)
        << bad;
}

TEST(Shard, NoJobArrayNoShard) {
  EXPECT_FALSE(shard_from_environment(fake_env({})).has_value());
  EXPECT_FALSE(shard_from_environment(fake_env({{"GPURUN_SHARD_COUNT", "4"}})).has_value());
  EXPECT_FALSE(shard_from_environment(fake_env({{"SLURM_ARRAY_TASK_ID", ""}})).has_value())
      << "an empty variable counts as unset";
}

TEST(Shard, SlurmArrayTask) {
  auto s = shard_from_environment(
      fake_env({{"SLURM_ARRAY_TASK_ID", "3"}, {"SLURM_ARRAY_TASK_COUNT", "8"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 3u);
  EXPECT_EQ(s->count, 8u);
  EXPECT_EQ(s->source, "SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_COUNT=8");
  // --array=1-8: K counts from the array's first task.
  s = shard_from_environment(fake_env({{"SLURM_ARRAY_TASK_ID", "1"},
                                       {"SLURM_ARRAY_TASK_MIN", "1"},
                                       {"SLURM_ARRAY_TASK_MAX", "8"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 0u);
  EXPECT_EQ(s->count, 8u);
  s = shard_from_environment(fake_env({{"SLURM_ARRAY_TASK_ID", "8"},
                                       {"SLURM_ARRAY_TASK_MIN", "1"},
                                       {"SLURM_ARRAY_TASK_MAX", "8"},
                                       {"SLURM_ARRAY_TASK_COUNT", "8"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 7u);
  EXPECT_EQ(s->count, 8u);
  // Slurm first, when a Kubernetes index is set too.
  s = shard_from_environment(fake_env({{"SLURM_ARRAY_TASK_ID", "0"},
                                       {"SLURM_ARRAY_TASK_COUNT", "2"},
                                       {"JOB_COMPLETION_INDEX", "5"},
                                       {"GPURUN_SHARD_COUNT", "6"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count, 2u);
}

TEST(Shard, InconsistentSlurmVariablesAreUsageErrors) {
  auto message = [](std::map<std::string, std::string> vars) {
    return usage_message([&] { (void)shard_from_environment(fake_env(vars)); });
  };
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}),
            "SLURM_ARRAY_TASK_ID='x': expected a whole number");
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "1"}}),
            "SLURM_ARRAY_TASK_ID=1 is set but neither SLURM_ARRAY_TASK_COUNT nor "
            "SLURM_ARRAY_TASK_MAX");
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "4"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}),
            "SLURM_ARRAY_TASK_ID=4: outside the array's tasks 0..3");
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "0"},
                     {"SLURM_ARRAY_TASK_MIN", "1"},
                     {"SLURM_ARRAY_TASK_MAX", "4"}}),
            "SLURM_ARRAY_TASK_ID=0: outside the array's tasks 1..4");
  // --array=0-14:2 or --array=1,3,5: a count that is not MAX-MIN+1.
  EXPECT_NE(message({{"SLURM_ARRAY_TASK_ID", "2"},
                     {"SLURM_ARRAY_TASK_COUNT", "8"},
                     {"SLURM_ARRAY_TASK_MIN", "0"},
                     {"SLURM_ARRAY_TASK_MAX", "14"}})
                .find("SLURM_ARRAY_TASK_COUNT=8: disagrees with SLURM_ARRAY_TASK_MIN..MAX = 0..14"),
            std::string::npos);
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "0"}}),
            "SLURM_ARRAY_TASK_COUNT=0: an array has at least one task");
  EXPECT_EQ(message({{"SLURM_ARRAY_TASK_ID", "0"},
                     {"SLURM_ARRAY_TASK_MIN", "3"},
                     {"SLURM_ARRAY_TASK_MAX", "1"}}),
            "SLURM_ARRAY_TASK_MAX=1: below SLURM_ARRAY_TASK_MIN=3");
}

TEST(Shard, KubernetesIndexedJob) {
  const auto s = shard_from_environment(
      fake_env({{"JOB_COMPLETION_INDEX", "2"}, {"GPURUN_SHARD_COUNT", "3"}}));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->index, 2u);
  EXPECT_EQ(s->count, 3u);
  EXPECT_EQ(s->source, "JOB_COMPLETION_INDEX=2, GPURUN_SHARD_COUNT=3");
  auto message = [](std::map<std::string, std::string> vars) {
    return usage_message([&] { (void)shard_from_environment(fake_env(vars)); });
  };
  EXPECT_EQ(message({{"JOB_COMPLETION_INDEX", "2"}}),
            "JOB_COMPLETION_INDEX=2 is set but GPURUN_SHARD_COUNT is not: set it to the Job's "
            "completions (docs/cluster.md)");
  EXPECT_EQ(message({{"JOB_COMPLETION_INDEX", "3"}, {"GPURUN_SHARD_COUNT", "3"}}),
            "JOB_COMPLETION_INDEX=3: must be below GPURUN_SHARD_COUNT=3");
  EXPECT_EQ(message({{"JOB_COMPLETION_INDEX", "0"}, {"GPURUN_SHARD_COUNT", "0"}}),
            "GPURUN_SHARD_COUNT=0: must be at least 1");
  EXPECT_EQ(message({{"JOB_COMPLETION_INDEX", "0"}, {"GPURUN_SHARD_COUNT", "four"}}),
            "GPURUN_SHARD_COUNT='four': expected a whole number");
}

/// Checks the two promises of assign_shards for one cost list and N.
void expect_partition_and_balance(const std::vector<double>& costs, std::size_t count) {
  const auto shard = assign_shards(costs, count);
  ASSERT_EQ(shard.size(), costs.size());
  std::vector<double> load(count, 0);
  std::vector<std::size_t> cases(count, 0);
  for (std::size_t i = 0; i < costs.size(); ++i) {
    ASSERT_LT(shard[i], count) << "case " << i;
    load[shard[i]] += costs[i];
    ++cases[shard[i]];
  }
  // Every case in exactly one shard: the shards' case counts add up to the suite's.
  std::size_t total = 0;
  for (auto n : cases)
    total += n;
  ASSERT_EQ(total, costs.size());
  const double largest = costs.empty() ? 0 : *std::max_element(costs.begin(), costs.end());
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  ASSERT_LE(*hi - *lo, largest * (1 + 1e-12))
      << costs.size() << " cases over " << count << " shards";
  if (costs.size() < count)
    for (auto n : cases)
      ASSERT_LE(n, 1u) << "more shards than cases: one case each at most";
}

TEST(Shard, EveryCaseInExactlyOneShardAndBalancedWithinOneCase) {
  std::mt19937_64 rng(20240611);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 1; n <= 70; ++n)
    sizes.push_back(n);
  for (std::size_t n : {99, 100, 127, 128, 250, 333, 500, 999, 1000})
    sizes.push_back(n);
  for (const std::size_t n : sizes) {
    // Equal costs, random costs, powers of two (pow2 axes), and some free (unrunnable) cases.
    std::vector<std::vector<double>> lists(4, std::vector<double>(n));
    std::uniform_real_distribution<double> uniform(0.001, 10);
    std::uniform_int_distribution<int> exponent(10, 28);
    for (std::size_t i = 0; i < n; ++i) {
      lists[0][i] = 1;
      lists[1][i] = uniform(rng);
      lists[2][i] = std::ldexp(1.0, exponent(rng));
      lists[3][i] = i % 3 == 0 ? 0 : uniform(rng);
    }
    for (std::size_t count = 1; count <= 64; ++count)
      for (const auto& costs : lists)
        expect_partition_and_balance(costs, count);
  }
}

TEST(Shard, EqualCostsSpreadTheCasesEvenly) {
  const std::vector<double> costs(10, 1.0);
  const auto shard = assign_shards(costs, 4);
  std::vector<int> per(4, 0);
  for (auto s : shard)
    ++per[s];
  EXPECT_EQ(per, (std::vector<int>{3, 3, 2, 2}));
  // Free cases too are spread, not piled on shard 0.
  const auto free = assign_shards(std::vector<double>(6, 0.0), 3);
  EXPECT_EQ(free, (std::vector<std::size_t>{0, 1, 2, 0, 1, 2}));
}

TEST(Shard, LargestFirstThenLeastLoaded) {
  // 8 goes to shard 0, 7 to 1, 6 to 2, 5 to 2 (6 < 7 < 8), 4 to 1, 1 to 0 … loads 9, 11, 11.
  const std::vector<double> costs{1, 8, 4, 7, 5, 6};
  EXPECT_EQ(assign_shards(costs, 3), (std::vector<std::size_t>{0, 0, 1, 1, 2, 2}));
  // The same lists give the same answer, and a huge N leaves the extra shards empty.
  EXPECT_EQ(assign_shards(costs, 3), assign_shards(costs, 3));
  EXPECT_EQ(assign_shards(costs, std::size_t{1} << 60),
            (std::vector<std::size_t>{5, 0, 4, 1, 3, 2}));
}

BenchCase bench_case(std::string name, AxisPoint point, std::optional<double> bytes,
                     std::optional<double> flops) {
  BenchCase c;
  c.name = std::move(name);
  c.point = std::move(point);
  c.bytes = bytes;
  c.flops = flops;
  return c;
}

TEST(Shard, CostsFromBytesFlopsOrAxes) {
  std::vector<BenchCase> cases{bench_case("a/N:1024", {{"N", "1024"}}, 8192, 1024),
                               bench_case("a/N:2048", {{"N", "2048"}}, 16384, std::nullopt),
                               bench_case("broken", {}, std::nullopt, std::nullopt)};
  cases[2].error = "spec error";
  auto costs = estimate_costs(cases);
  EXPECT_EQ(costs.basis, CostBasis::bytes);
  EXPECT_EQ(costs.costs, (std::vector<double>{8192, 16384, 0})) << "a case that cannot run is free";

  cases[1].bytes.reset();
  cases[1].flops = 2048;
  costs = estimate_costs(cases);
  EXPECT_EQ(costs.basis, CostBasis::flops);
  EXPECT_EQ(costs.costs, (std::vector<double>{1024, 2048, 0}));

  cases[1].flops.reset();
  cases.push_back(
      bench_case("t/T:float/B:-2", {{"T", "float"}, {"B", "-2"}}, std::nullopt, std::nullopt));
  costs = estimate_costs(cases);
  EXPECT_EQ(costs.basis, CostBasis::axes);
  EXPECT_EQ(costs.costs, (std::vector<double>{1024, 2048, 0, 2})) << "text values count as 1";
  EXPECT_EQ(to_string(CostBasis::axes), "axes");
}

TEST(Shard, CostsFromAnEarlierRunsTimings) {
  const std::vector<BenchCase> cases{bench_case("a", {}, 1, 1), bench_case("b", {}, 1, 1),
                                     bench_case("c", {}, 1, 1)};
  const std::map<std::string, double> timings{{"a", 2.0}, {"c", 4.0}, {"other", 100.0}};
  auto costs = estimate_costs(cases, &timings);
  EXPECT_EQ(costs.basis, CostBasis::timings);
  EXPECT_EQ(costs.costs, (std::vector<double>{2.0, 3.0, 4.0})) << "b: the mean of a and c";
  const std::map<std::string, double> unrelated{{"x", 1.0}};
  EXPECT_EQ(estimate_costs(cases, &unrelated).basis, CostBasis::bytes);
}

TEST(Shard, ReadsCaseTimingsOfABenchResult) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "old.json") << R"({"context": {"gpurun": {"version": "1"}}, "benchmarks": [
    {"name": "a", "gpurun": {"status": "ok", "wall_s": 1.5, "samples_s": [0.1]}},
    {"name": "a_mean", "run_type": "aggregate", "real_time": 3},
    {"name": "b", "gpurun": {"status": "ok", "samples_s": [0.25, 0.5]}},
    {"name": "c", "gpurun": {"status": "skipped", "reason": "compile error"}}]})";
  const auto timings = read_case_timings(dir / "old.json");
  EXPECT_EQ(timings, (std::map<std::string, double>{{"a", 1.5}, {"b", 0.75}}));

  std::ofstream(dir / "gbench.json") << R"({"benchmarks": [{"name": "a", "real_time": 3}]})";
  EXPECT_NE(usage_message([&] {
              (void)read_case_timings(dir / "gbench.json");
            }).find("gbench.json: not a gpurun bench result"),
            std::string::npos);
  EXPECT_NE(usage_message([&] { (void)read_case_timings(dir / "absent.json"); })
                .find("--balance-from " + (dir / "absent.json").string() +
                      ": cannot read the bench result file: No such file or directory"),
            std::string::npos);
}

} // namespace
} // namespace gpurun::bench
