#pragma once
// One shard of a suite (docs/cluster.md): which 1/N of the expanded cases a job of an array runs.
// The assignment depends only on the case list and the cases' estimated costs — never on time,
// host or environment — so the jobs of an array, each on its own machine, agree on it without
// talking to each other.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/report.hpp"
#include "bench/suite.hpp"

namespace gpurun::bench {

/// Shard `index` of `count` (0 ≤ index < count), and what said so.
struct ShardSpec {
  std::size_t index = 0;
  std::size_t count = 1;
  std::string source; ///< "--shard 2/8", "SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=8", …
};

/// "K/N" with 0 ≤ K < N. Anything else is a usage Error naming `field` and the part at fault
/// ("--shard 5/4: K = 5 must be below N = 4").
[[nodiscard]] ShardSpec parse_shard(std::string_view text, std::string_view field = "--shard");

/// A variable of the environment, nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
/// The process's own environment.
[[nodiscard]] EnvLookup process_environment();

/// The shard a job array gives this job, nullopt outside one:
/// - Slurm: K = SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN (0 when MIN is unset), N =
///   SLURM_ARRAY_TASK_COUNT, else MAX − MIN + 1; a COUNT that disagrees with MIN..MAX (an array
///   with gaps or a step) is an error;
/// - Kubernetes (an Indexed Job): K = JOB_COMPLETION_INDEX, N = GPURUN_SHARD_COUNT (Kubernetes
///   has no variable for the count; the manifest sets it to the Job's `completions`).
/// Slurm's variables are read first. A value that is not a number, a missing count or K outside
/// 0..N−1 is a usage Error naming the variable.
[[nodiscard]] std::optional<ShardSpec> shard_from_environment(const EnvLookup& env);

/// What a case's cost estimate is made of, for the whole case list at once.
enum class CostBasis {
  timings, ///< seconds each case took in an earlier run (--balance-from)
  bytes,   ///< the bytes each case declares per launch
  flops,   ///< the flops each case declares per launch
  axes,    ///< the product of each case's numeric axis values (1 for none)
};
[[nodiscard]] std::string_view to_string(CostBasis basis);

struct CaseCosts {
  CostBasis basis = CostBasis::axes;
  std::vector<double> costs; ///< one per case, ≥ 0
};

/// One unit for every case: `timings` when `timings` is given and names a case of the list (a case
/// it lacks gets the mean of those it has); else `bytes` when every case that can run declares
/// bytes above 0; else `flops` likewise; else `axes`. A case that cannot run (a spec error at its
/// point) costs 0: it is skipped at once.
[[nodiscard]] CaseCosts estimate_costs(const std::vector<BenchCase>& cases,
                                       const std::map<std::string, double>* timings = nullptr);

/// The shard of each case, by longest processing time first: the cases by cost, largest first
/// (equal costs in list order), each to the shard with the least cost so far (ties: the one with
/// fewer cases, then the lower index). Every case lands in exactly one shard, and the most loaded
/// shard exceeds the least loaded by at most the largest single cost. `count` ≥ 1.
[[nodiscard]] std::vector<std::size_t> assign_shards(std::span<const double> costs,
                                                     std::size_t count);

/// The seconds each case took in an earlier `gpurun bench --json` run (its `wall_s`, else the sum
/// of its samples), by case name; skipped cases are left out. A file that is not a gpurun bench
/// result is a usage Error naming `field` and the file.
[[nodiscard]] std::map<std::string, double>
read_case_timings(const std::filesystem::path& path, std::string_view field = "--balance-from");
/// The same from a report read back (bench/result_json).
[[nodiscard]] std::map<std::string, double> case_timings(const BenchReport& report);

} // namespace gpurun::bench
