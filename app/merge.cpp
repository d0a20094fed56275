// `gpurun merge OUT.json SHARD...`: one report from the results of a suite's shards
// (docs/cluster.md). Exit 2 when the shards do not belong together or cases are missing or
// duplicated (unless --allow-partial).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/file_identity.hpp"
#include "base/format.hpp"
#include "base/json_text.hpp"
#include "bench/merge.hpp"
#include "bench/result_json.hpp"
#include "output/color.hpp"

namespace gpurun {

namespace {

struct MergeArgs {
  std::string output;
  std::vector<std::string> shards;
  bool allow_partial = false;
};

/// A shard's result given first by mistake (`gpurun merge shard-*.json`) would be overwritten:
/// refuse an output that is one of the inputs or holds a shard's result.
void check_output(const MergeArgs& args) {
  for (const auto& shard : args.shards)
    if (same_regular_file(args.output, shard))
      throw usage_error(fmt::format("{}: is also a shard to merge; the first argument is the "
                                    "merged file to write",
                                    args.output));
  bool holds_a_shard = false;
  try {
    holds_a_shard = bench::read_result_json(args.output, "merged").shard.has_value();
  } catch (const Error&) {
    return; // not there yet, unreadable or not a result: nothing to lose, or the write will say so
  }
  if (holds_a_shard)
    throw usage_error(fmt::format("{}: holds a shard's result; the first argument is the merged "
                                  "file to write",
                                  args.output));
}

void run_merge(const MergeArgs& args) {
  check_output(args);
  std::vector<bench::ShardResult> inputs;
  for (const auto& path : args.shards)
    inputs.push_back(bench::read_shard_result(path));
  const auto merged = bench::merge_shards(inputs, {args.allow_partial});
  for (const auto& warning : merged.warnings)
    std::cerr << warning_prefix() << one_line(warning) << '\n';
  write_file_atomic(args.output, json_text(bench::result_json(merged.report), 2) + "\n");
  // On stderr when the merged file itself goes to standard output.
  fmt::print(writes_to_standard_output(args.output) ? stderr : stdout,
             "merged {} of {} shards of suite '{}': {} cases, measured on {} ({}) into {}\n",
             merged.shards.size(), merged.shard_count, merged.suite, merged.cases,
             fmt::join(merged.hosts, ", "), fmt::join(merged.devices, ", "), args.output);
}

} // namespace

void add_merge_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "merge", "Merge the results of a suite's shards (bench --shard, job arrays) into one file");
  cmd->footer("Examples:\n"
              "  gpurun merge all.json shard-*.json\n"
              "  gpurun merge all.json shard-0.json shard-2.json --allow-partial\n"
              "\n"
              "gpurun help cluster has the job-array recipes.");
  auto args = std::make_shared<MergeArgs>();
  cmd->add_option("OUT", args->output, "The merged result file to write (gpurun bench JSON)")
      ->required();
  cmd->add_option("SHARD", args->shards, "The shards' result files (gpurun bench --json)")
      ->required();
  cmd->add_flag("--allow-partial", args->allow_partial,
                "Merge even when cases are missing or duplicated (a warning lists them)");
  cmd->callback([args, &env] {
    run_merge(*args);
    env.exit_code = 0;
  });
}

} // namespace gpurun
