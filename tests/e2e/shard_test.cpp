// End-to-end: `gpurun bench --shard`, the job-array variables, and `gpurun merge`, through the
// real binary on the CPU backend.
#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

// The stream suite at two small sizes: 16 cases.
const std::string stream = "bench kernels/suites/stream.json -a 'N[pow2]=[10:11]'";
const std::string quick =
    " --backend cpu --min-samples 3 --min-time 0.01 --timeout 2 --max-samples 10";

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

/// gpurun with these job-array variables (and none of the others).
RunResult run_in_array(const std::string& variables, const std::string& args) {
  return run_shell("env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT -u SLURM_ARRAY_TASK_MIN "
                   "-u SLURM_ARRAY_TASK_MAX -u JOB_COMPLETION_INDEX -u GPURUN_SHARD_COUNT " +
                   variables + " '" + gpurun_bin() + "' " + args);
}

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::vector<std::string> case_names(const nlohmann::json& doc) {
  std::vector<std::string> names;
  for (const auto& b : doc["benchmarks"])
    if (b.contains("gpurun"))
      names.push_back(b["name"]);
  return names;
}

TEST(ShardE2E, TheShardsPartitionTheSuite) {
  const auto all = run_gpurun(stream + " --list");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto suite = lines(all.out);
  ASSERT_EQ(suite.size(), 16u);
  for (const std::size_t n : {1, 3, 4, 16, 20}) {
    std::multiset<std::string> seen;
    for (std::size_t k = 0; k < n; ++k) {
      const auto r = run_gpurun(stream + fmt::format(" --list --shard {}/{}", k, n));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto mine = lines(r.out);
      seen.insert(mine.begin(), mine.end());
      EXPECT_EQ(r.err,
                fmt::format("gpurun: shard {}/{} (--shard {}/{}): {} of 16 cases, balanced "
                            "by bytes{}\n",
                            k, n, k, n, mine.size(),
                            mine.empty() ? " (an empty shard: more shards than cases)" : ""));
      // The shard keeps the suite's order.
      EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end(), [&](auto& a, auto& b) {
        return std::find(suite.begin(), suite.end(), a) < std::find(suite.begin(), suite.end(), b);
      }));
      if (n == 20)
        EXPECT_LE(mine.size(), 1u);
    }
    EXPECT_EQ(seen, std::multiset<std::string>(suite.begin(), suite.end())) << "N = " << n;
  }
}

TEST(ShardE2E, JobArrayVariablesPickTheShard) {
  const auto flag = run_gpurun(stream + " --list --shard 1/4");
  ASSERT_EQ(flag.exit_code, 0) << flag.err;

  auto r = run_in_array("SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=4", stream + " --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, flag.out);
  EXPECT_TRUE(
      r.err.starts_with("gpurun: shard 1/4 (SLURM_ARRAY_TASK_ID=1, SLURM_ARRAY_TASK_COUNT=4): "))
      << r.err;

  r = run_in_array("SLURM_ARRAY_TASK_ID=6 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_MAX=8",
                   stream + " --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, flag.out) << "--array=5-8: task 6 is shard 1 of 4";

  r = run_in_array("JOB_COMPLETION_INDEX=1 GPURUN_SHARD_COUNT=4", stream + " --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, flag.out);
  EXPECT_TRUE(r.err.starts_with("gpurun: shard 1/4 (JOB_COMPLETION_INDEX=1, GPURUN_SHARD_COUNT=4)"))
      << r.err;

  // --shard wins over the environment; --shard 0/1 runs the whole suite inside an array.
  r = run_in_array("SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4",
                   stream + " --list --shard 1/4");
  EXPECT_EQ(r.out, flag.out);
  r = run_in_array("SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=4",
                   stream + " --list --shard 0/1");
  EXPECT_EQ(lines(r.out).size(), 16u);
}

TEST(ShardE2E, BadShardsAreUsageErrorsNamingTheField) {
  const std::pair<std::string, std::string> flags[] = {
      {"--shard 5/4", "gpurun: error: --shard 5/4: K = 5 must be below N = 4"},
      {"--shard 0/0", "gpurun: error: --shard 0/0: N must be at least 1"},
      {"--shard x/y", "gpurun: error: --shard 'x/y': expected K/N"},
      {"--balance-from old.json", "gpurun: error: --balance-from: applies to a shard"},
      {"--shard 0/2 --balance-from /nonexistent.json",
       "gpurun: error: --balance-from /nonexistent.json: cannot read the bench result file: No "
       "such file or directory"}};
  for (const auto& [args, message] : flags) {
    const auto r = run_gpurun(stream + " --list " + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.err.starts_with(message)) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  const std::pair<std::string, std::string> environments[] = {
      {"SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4",
       "gpurun: error: SLURM_ARRAY_TASK_ID=4: outside the array's tasks 0..3"},
      {"SLURM_ARRAY_TASK_ID=1", "gpurun: error: SLURM_ARRAY_TASK_ID=1 is set but neither"},
      {"SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_MIN=1 "
       "SLURM_ARRAY_TASK_MAX=5",
       "gpurun: error: SLURM_ARRAY_TASK_COUNT=3: disagrees with SLURM_ARRAY_TASK_MIN..MAX"},
      {"JOB_COMPLETION_INDEX=0", "gpurun: error: JOB_COMPLETION_INDEX=0 is set but "
                                 "GPURUN_SHARD_COUNT is not"},
      {"JOB_COMPLETION_INDEX=a GPURUN_SHARD_COUNT=2",
       "gpurun: error: JOB_COMPLETION_INDEX='a': expected a whole number"}};
  for (const auto& [variables, message] : environments) {
    const auto r = run_in_array(variables, stream + " --list");
    EXPECT_EQ(r.exit_code, 2) << variables;
    EXPECT_TRUE(r.err.starts_with(message)) << variables << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(ShardE2E, ShardsRunAndMergeIntoWhatCompareReads) {
  const auto dir = temp_dir();
  const std::string suite = stream + " --filter '^copy'";
  const auto all = run_gpurun(suite + " --list");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  const auto expected = lines(all.out);
  ASSERT_EQ(expected.size(), 4u);

  std::vector<std::string> files;
  for (int k = 0; k < 3; ++k) {
    files.push_back((dir / fmt::format("shard-{}.json", k)).string());
    const auto r = run_in_array(fmt::format("JOB_COMPLETION_INDEX={} GPURUN_SHARD_COUNT=3", k),
                                suite + quick + " --json " + files.back());
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  }
  const auto first = read_json(files[0]);
  const auto& shard = first["context"]["gpurun"]["shard"];
  EXPECT_EQ(shard["index"], 0);
  EXPECT_EQ(shard["count"], 3);
  EXPECT_EQ(shard["source"], "JOB_COMPLETION_INDEX=0, GPURUN_SHARD_COUNT=3");
  EXPECT_EQ(shard["cost_basis"], "bytes");
  EXPECT_EQ(shard["suite_cases"].get<std::vector<std::string>>(), expected);
  EXPECT_EQ(shard["cases"], case_names(first).size());

  const auto merged = dir / "merged.json";
  auto r =
      run_gpurun(fmt::format("merge {} {} {} {}", merged.string(), files[2], files[0], files[1]));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(r.out.starts_with("merged 3 of 3 shards of suite 'stream': 4 cases, measured on "))
      << r.out;
  const auto doc = read_json(merged);
  EXPECT_EQ(case_names(doc), expected) << "every case once, in suite order";
  for (const auto& b : doc["benchmarks"])
    if (b.contains("gpurun")) {
      EXPECT_FALSE(b["gpurun"]["host_name"].get<std::string>().empty());
      EXPECT_FALSE(b["gpurun"]["device"].get<std::string>().empty());
    }
  EXPECT_EQ(doc["context"]["gpurun"]["merged"]["shards"].size(), 3u);
  EXPECT_FALSE(doc["context"]["gpurun"].contains("shard"));

  r = run_gpurun(fmt::format("compare {} {}", merged.string(), merged.string()));
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("0 slower"), std::string::npos) << r.out;

  // An earlier run's timings balance the next one.
  r = run_gpurun(suite + " --list --shard 0/3 --balance-from " + merged.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("balanced by timings"), std::string::npos) << r.err;
}

TEST(ShardE2E, MergeErrors) {
  const auto dir = temp_dir();
  const std::string suite = stream + " --filter '^copy/N:1024$'";
  const auto a = (dir / "a.json").string();
  const auto b = (dir / "b.json").string();
  auto r = run_gpurun(suite + quick + " --shard 0/2 --json " + a);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun(suite + quick + " --shard 1/2 --json " + b);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("0 of 1 cases, balanced by bytes (an empty shard"), std::string::npos)
      << r.err;
  const auto out = (dir / "out.json").string();

  r = run_gpurun("merge " + out + " " + b);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: merge: 1 of 1 cases missing (shards not given: 0/2): "
                   "copy/N:1024 (--allow-partial merges what there is)\n");
  EXPECT_FALSE(std::filesystem::exists(out));

  r = run_gpurun("merge --allow-partial " + out + " " + b);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("gpurun: warning: partial merge: 1 of 1 cases missing")) << r.err;
  EXPECT_EQ(read_json(out)["context"]["gpurun"]["merged"]["partial"], true);

  r = run_gpurun("merge " + out + " " + a + " " + a);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("shard 0/2 given twice"), std::string::npos) << r.err;

  // The shards given without the output first would overwrite a shard: refused.
  r = run_gpurun("merge " + a + " " + b);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(a + ": holds a shard's result"), std::string::npos) << r.err;
  r = run_gpurun("merge " + out + " " + out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("is also a shard to merge"), std::string::npos) << r.err;

  // A plain bench result is not a shard's.
  const auto plain = (dir / "plain.json").string();
  r = run_gpurun(suite + quick + " --json " + plain);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("merge " + out + " " + plain);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(plain + ": context.gpurun.shard: missing"), std::string::npos) << r.err;

  // Another expansion of the suite does not merge with these.
  const auto other = (dir / "other.json").string();
  r = run_gpurun(stream + " --filter '^copy/N:2048$'" + quick + " --shard 0/2 --json " + other);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("merge " + out + " " + other + " " + b);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expanded to other cases than in"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
