#pragma once
// Combining the results of a suite's shards (`gpurun merge`, docs/cluster.md) into one report:
// the same gpurun bench JSON that `gpurun compare` reads, each case with the host and device that
// measured it. The shards must come from one suite, expanded the same way, one gpurun version and
// one shard count N, each K once; a case no shard holds or two shards hold is an error unless the
// merge is allowed to be partial.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/report.hpp"

namespace gpurun::bench {

/// One shard's result as read; `label` names it in messages.
struct ShardResult {
  std::string label;
  BenchReport report;
};

/// Reads a `gpurun bench --json` file of one shard (bench/result_json). Throws usage Error naming
/// the file when it cannot be read or is not a gpurun bench result.
[[nodiscard]] ShardResult read_shard_result(const std::filesystem::path& path);

struct MergeOptions {
  bool allow_partial = false; ///< missing or duplicated cases are warnings instead of errors
};

struct MergedReport {
  BenchReport report; ///< the merged report, written as gpurun bench JSON (bench/result_json)
  std::string suite;
  std::size_t shard_count = 0;         ///< N
  std::vector<std::size_t> shards;     ///< the K given, ascending
  std::size_t cases = 0;               ///< cases in the merged report
  std::vector<std::string> hosts;      ///< that measured cases, in shard order
  std::vector<std::string> devices;    ///< device models that measured cases, in shard order
  std::vector<std::string> missing;    ///< cases no shard holds (only when partial)
  std::vector<std::string> duplicated; ///< cases several shards hold; the lowest K's is kept
  std::vector<std::string> warnings;   ///< one line each, without the "gpurun: warning: "
};

/// Merges the shards. The merged report is the lowest shard's with the cases of all of them in
/// suite order, each naming its host and device, its shard replaced by a MergeRecord (N, per
/// shard its index, file, host, device, date and case count; hosts; devices; what is missing or
/// duplicated). Throws usage Error naming the file and the field for a file that is not a shard's
/// result, for shards of different suites, case lists, versions or N, for a K given twice, for a
/// case outside the suite, and — unless `options.allow_partial` — for missing or duplicated cases.
[[nodiscard]] MergedReport merge_shards(const std::vector<ShardResult>& shards,
                                        const MergeOptions& options = {});

} // namespace gpurun::bench
