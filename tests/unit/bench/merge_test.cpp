#include "bench/merge.hpp"

#include <functional>
#include <limits>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "bench/result_file.hpp"
#include "bench/result_json.hpp"
#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

using nlohmann::ordered_json;

const std::vector<std::string> k_suite{"copy/N:1", "copy/N:2", "add/N:1", "add/N:2", "broken"};

struct Shard {
  std::size_t index;
  std::size_t count;
  std::vector<std::string> cases;
  std::string host = "node0";
  std::string device = "NVIDIA H200";
  std::string version = "1.2.0";
  std::string suite = "stream";
  std::vector<std::string> suite_cases = k_suite;
};

/// A shard's result as `gpurun bench --shard` writes it: an iteration entry with a gpurun object
/// and one aggregate per ok case; "broken" is skipped.
ordered_json shard_document(const Shard& s) {
  ordered_json g{{"version", s.version}, {"suite", s.suite}, {"backend", "cuda"},
                 {"device", s.device},   {"mode", "cold"},   {"min_samples", 10}};
  g["shard"] = {{"index", s.index},      {"count", s.count},        {"source", "--shard"},
                {"cost_basis", "bytes"}, {"cases", s.cases.size()}, {"suite_cases", s.suite_cases}};
  ordered_json benchmarks = ordered_json::array();
  for (std::size_t i = 0; i < s.cases.size(); ++i) {
    const std::string& name = s.cases[i];
    if (name == "broken") {
      // Written by an older gpurun: a skipped case without host and device.
      benchmarks.push_back({{"name", name},
                            {"family_index", i},
                            {"run_name", name},
                            {"run_type", "iteration"},
                            {"error_occurred", true},
                            {"gpurun", {{"status", "skipped"}, {"reason", "compile error"}}}});
      continue;
    }
    benchmarks.push_back({{"name", name},
                          {"family_index", i},
                          {"run_name", name},
                          {"run_type", "iteration"},
                          {"real_time", 2.0},
                          {"gpurun",
                           {{"status", "ok"},
                            {"samples_s", {1e-6, 2e-6, 3e-6}},
                            {"device", s.device},
                            {"host_name", s.host}}}});
    benchmarks.push_back({{"name", name + "_median"},
                          {"family_index", i},
                          {"run_name", name},
                          {"run_type", "aggregate"},
                          {"aggregate_name", "median"},
                          {"real_time", 2.0}});
  }
  ordered_json doc{
      {"context", {{"date", "2024-06-11T10:00:00+00:00"}, {"host_name", s.host}, {"gpurun", g}}},
      {"benchmarks", benchmarks}};
  return doc;
}

ShardResult parsed(const std::string& label, const ordered_json& doc) {
  return {label, parse_result_json(nlohmann::json::parse(doc.dump()), label)};
}

ShardResult shard_result(const Shard& s) {
  return parsed(fmt::format("shard-{}.json", s.index), shard_document(s));
}

/// The merged document as `gpurun merge` writes it.
ordered_json document(const MergedReport& merged) {
  return result_json(merged.report);
}

/// The message of merging one shard given as a document.
std::string document_message(const ordered_json& doc, const std::string& label = "shard-0.json") {
  return test::usage_message([&] { (void)merge_shards({parsed(label, doc)}); });
}

std::string usage_message(const std::vector<ShardResult>& shards, MergeOptions options = {}) {
  return test::usage_message([&] { (void)merge_shards(shards, options); });
}

std::vector<std::string> case_names(const ordered_json& doc) {
  std::vector<std::string> names;
  for (const auto& b : doc["benchmarks"])
    if (b.contains("gpurun"))
      names.push_back(b["name"]);
  return names;
}

TEST(Merge, CombinesShardsInSuiteOrder) {
  const auto merged = merge_shards({shard_result({2, 3, {"add/N:2"}, "node2"}),
                                    shard_result({0, 3, {"copy/N:2", "broken"}, "node0"}),
                                    shard_result({1, 3, {"copy/N:1", "add/N:1"}, "node1"})});
  EXPECT_EQ(merged.suite, "stream");
  EXPECT_EQ(merged.shard_count, 3u);
  EXPECT_EQ(merged.shards, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(merged.cases, 5u);
  EXPECT_TRUE(merged.missing.empty());
  EXPECT_TRUE(merged.warnings.empty()) << merged.warnings.front();
  EXPECT_EQ(merged.hosts, (std::vector<std::string>{"node0", "node1", "node2"}));
  const auto doc = document(merged);
  EXPECT_EQ(case_names(doc), k_suite);
  // Aggregates follow their case (written again, four per measured case); the families are
  // numbered again.
  ASSERT_EQ(doc["benchmarks"].size(), 21u);
  EXPECT_EQ(doc["benchmarks"][2]["name"], "copy/N:1_median");
  EXPECT_EQ(doc["benchmarks"][2]["family_index"], 0);
  EXPECT_EQ(doc["benchmarks"][20]["name"], "broken");
  EXPECT_EQ(doc["benchmarks"][20]["family_index"], 4);
  // Each case says where it was measured; a skipped case from an older file gets its shard's.
  EXPECT_EQ(doc["benchmarks"][0]["gpurun"]["host_name"], "node1");
  EXPECT_EQ(doc["benchmarks"][20]["gpurun"]["host_name"], "node0");
  EXPECT_EQ(doc["benchmarks"][20]["gpurun"]["device"], "NVIDIA H200");
  const auto& g = doc["context"]["gpurun"];
  EXPECT_FALSE(g.contains("shard"));
  EXPECT_EQ(g["merged"]["shard_count"], 3);
  EXPECT_EQ(g["merged"]["shards"].size(), 3u);
  EXPECT_EQ(g["merged"]["shards"][1]["file"], "shard-1.json");
  EXPECT_EQ(g["merged"]["shards"][1]["cases"], 2);
  EXPECT_EQ(g["merged"]["partial"], false);
  EXPECT_EQ(doc["context"]["host_name"], "node0, node1, node2");

  // What merge writes, compare reads.
  const auto file = parse_result_document(nlohmann::json::parse(doc.dump()), "merged.json", ".");
  EXPECT_EQ(file.format, ResultFormat::gpurun);
  ASSERT_EQ(file.cases.size(), 5u);
  EXPECT_EQ(file.cases[0].samples_s.size(), 3u);
  EXPECT_TRUE(file.cases[4].skipped);
}

TEST(Merge, EmptyShardsAreFine) {
  const std::vector<std::string> one{"only"};
  std::vector<ShardResult> shards;
  for (std::size_t k = 0; k < 4; ++k)
    shards.push_back(
        shard_result({k, 4, k == 2 ? one : std::vector<std::string>{}, "n", "d", "1", "s", one}));
  const auto merged = merge_shards(shards);
  EXPECT_EQ(merged.cases, 1u);
  EXPECT_EQ(merged.hosts, (std::vector<std::string>{"n"}));
}

// bench takes --shard 0/18446744073709551615 and writes its N as it is; a signed read of it was
// -1 and refused bench's own output.
TEST(Merge, TheLargestShardCountIsAWholeNumber) {
  const std::size_t n = std::numeric_limits<std::size_t>::max();
  const auto merged = merge_shards({shard_result({0, n, k_suite})});
  EXPECT_EQ(merged.shard_count, n);
  EXPECT_EQ(merged.cases, k_suite.size());
  EXPECT_EQ(document(merged)["context"]["gpurun"]["merged"]["shard_count"], n);
}

TEST(Merge, MissingCasesAreErrorsUnlessPartial) {
  const std::vector<ShardResult> shards{shard_result({0, 3, {"copy/N:2", "broken"}}),
                                        shard_result({2, 3, {"add/N:2"}})};
  EXPECT_EQ(usage_message(shards), "merge: 2 of 5 cases missing (shards not given: 1/3): "
                                   "copy/N:1, add/N:1 (--allow-partial merges what there is)");
  const auto merged = merge_shards(shards, {.allow_partial = true});
  EXPECT_EQ(merged.missing, (std::vector<std::string>{"copy/N:1", "add/N:1"}));
  ASSERT_EQ(merged.warnings.size(), 1u);
  EXPECT_EQ(merged.warnings[0],
            "partial merge: 2 of 5 cases missing (shards not given: 1/3): copy/N:1, add/N:1");
  EXPECT_EQ(case_names(document(merged)),
            (std::vector<std::string>{"copy/N:2", "add/N:2", "broken"}));
  const auto m = document(merged)["context"]["gpurun"]["merged"];
  EXPECT_EQ(m["partial"], true);
  EXPECT_EQ(m["missing"].size(), 2u);
}

TEST(Merge, DuplicatedCasesAreErrorsUnlessPartial) {
  const std::vector<ShardResult> shards{
      shard_result({0, 2, {"copy/N:1", "copy/N:2", "add/N:1"}, "a"}),
      shard_result({1, 2, {"add/N:1", "add/N:2", "broken"}, "b"})};
  EXPECT_EQ(usage_message(shards), "merge: 1 case in more than one shard: add/N:1 "
                                   "(--allow-partial merges what there is)");
  const auto merged = merge_shards(shards, {.allow_partial = true});
  EXPECT_EQ(merged.duplicated, (std::vector<std::string>{"add/N:1"}));
  EXPECT_EQ(case_names(document(merged)), k_suite) << "each case once";
  const auto merged_document = document(merged);
  for (const auto& b : merged_document["benchmarks"]) {
    if (b["name"] == "add/N:1") {
      EXPECT_EQ(b["gpurun"]["host_name"], "a") << "the lowest K's";
    }
  }
}

TEST(Merge, ShardsMustBelongTogether) {
  const auto a = shard_result({0, 2, {"copy/N:1", "copy/N:2"}});
  Shard other{1, 2, {"add/N:1", "add/N:2", "broken"}};
  EXPECT_EQ(usage_message({a, a}), "shard-0.json: shard 0/2 given twice (also shard-0.json)");

  other.version = "1.3.0";
  EXPECT_EQ(usage_message({a, shard_result(other)}),
            "shard-1.json: gpurun 1.3.0, but shard-0.json: gpurun 1.2.0: merge shards of one "
            "gpurun version");
  other.version = "1.2.0";
  other.suite = "reduce";
  EXPECT_EQ(usage_message({a, shard_result(other)}),
            "shard-1.json: suite 'reduce', but shard-0.json: suite 'stream'");
  other.suite = "stream";
  other.count = 3;
  EXPECT_EQ(usage_message({a, shard_result(other)}),
            "shard-1.json: shard 1/3, but shard-0.json: shard 0/2: the shards of one run have "
            "the same N");
  other.count = 2;
  other.suite_cases.pop_back();
  EXPECT_EQ(usage_message({a, shard_result(other)}),
            "shard-1.json: suite 'stream' expanded to other cases than in shard-0.json (another "
            "suite file, -a or --filter)");
  other.suite_cases = k_suite;
  other.cases.push_back("mul/N:1");
  EXPECT_EQ(usage_message({a, shard_result(other)}),
            "shard-1.json: case 'mul/N:1' is not one of the suite's cases");
}

TEST(Merge, WhatIsNotAShardResultNamesTheField) {
  auto plain = shard_document({0, 1, {}});
  plain["context"]["gpurun"].erase("shard");
  EXPECT_EQ(document_message(plain),
            "shard-0.json: context.gpurun.shard: missing: not the result of one shard (gpurun "
            "bench --shard K/N, or a job array's task)");
  auto bad = shard_document({0, 1, {}});
  bad["context"]["gpurun"]["shard"]["index"] = "0";
  EXPECT_EQ(document_message(bad),
            "shard-0.json: context.gpurun.shard.index: expected a whole number ≥ 0");
  bad = shard_document({0, 1, {}});
  bad["context"]["gpurun"]["shard"]["index"] = 1;
  EXPECT_EQ(document_message(bad), "shard-0.json: context.gpurun.shard: shard 1/1 is not one of N");
  bad = shard_document({0, 1, {}});
  bad.erase("benchmarks");
  EXPECT_EQ(document_message(bad), "shard-0.json: benchmarks: missing: not a gpurun bench result");
  bad = shard_document({0, 1, {}});
  bad["context"]["gpurun"].erase("version");
  EXPECT_EQ(document_message(bad), "shard-0.json: context.gpurun.version: missing");
  EXPECT_EQ(document_message(ordered_json::array(), "x.json"), "x.json: not a JSON object");
  EXPECT_EQ(usage_message({}), "merge: no shard results given");
}

TEST(Merge, DifferentDevicesAndSettingsAreAllowedButSaid) {
  auto b = shard_document({1, 2, {"add/N:1", "add/N:2", "broken"}, "n1", "NVIDIA A100"});
  b["context"]["gpurun"]["mode"] = "hot";
  const auto merged =
      merge_shards({shard_result({0, 2, {"copy/N:1", "copy/N:2"}, "n0", "NVIDIA H200"}),
                    parsed("shard-1.json", b)});
  EXPECT_EQ(merged.devices, (std::vector<std::string>{"NVIDIA H200", "NVIDIA A100"}));
  ASSERT_EQ(merged.warnings.size(), 2u);
  EXPECT_EQ(merged.warnings[0], "shard-1.json: measured with mode \"hot\", shard-0.json with "
                                "\"cold\"");
  EXPECT_EQ(merged.warnings[1], "cases measured on 2 device models: NVIDIA H200 (2 cases), "
                                "NVIDIA A100 (3 cases); their times compare only within one "
                                "model");
  EXPECT_EQ(document(merged)["context"]["gpurun"]["device"], "NVIDIA H200, NVIDIA A100");
}

} // namespace
} // namespace gpurun::bench
