// End-to-end: `gpurun bench --filter` with patterns and case names that crashed or hung a
// backtracking matcher (std::regex recursed once per character and per group).
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

/// A suite of one case named `name` (no axes), its kernel from the source tree.
std::filesystem::path suite_with_case_name(const std::string& name) {
  const auto path = temp_dir() / "long.json";
  const nlohmann::json suite = {
      {"name", "long"},
      {"cases",
       {{{"name", name},
         {"source", (source_dir() / "tests/data/bench/mixed.cu").string()},
         {"kernel", "fill_index"},
         {"grid", 1},
         {"block", 1},
         {"args", {"out=f32[1]:0", "n=1"}}}}}};
  std::ofstream(path) << suite.dump();
  return path;
}

TEST(BenchFilterE2E, AMegabyteCaseNameIsSearchedInLinearTime) {
  const std::string name(1'000'000, 'x');
  const auto suite = suite_with_case_name(name);
  auto r = run_gpurun("bench " + suite.string() + " --list --filter '^(x|y)*z$'");
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("--filter '^(x|y)*z$': matches no case of suite 'long'"), std::string::npos)
      << r.err.substr(0, 500);
  r = run_gpurun("bench " + suite.string() + " --list --filter '^(x|y)*$'");
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
  EXPECT_EQ(r.out, name + "\n");
}

TEST(BenchFilterE2E, DeeplyNestedGroupsAreRefusedNotACrash) {
  const std::string deep = std::string(30'000, '(') + "a" + std::string(30'000, ')');
  auto r = run_gpurun("bench tests/data/bench/mixed.json --list --filter '" + deep + "'");
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 500);
  EXPECT_NE(r.err.find("a pattern of 60001 characters, longer than the 4096 a filter may have"),
            std::string::npos)
      << r.err.substr(0, 500);
  EXPECT_LT(r.err.size(), 300u) << "the message quotes the pattern's start only";
  // Within the length limit, nesting is no problem.
  const std::string nested = std::string(2000, '(') + "index" + std::string(2000, ')') + "/N:512$";
  r = run_gpurun("bench tests/data/bench/mixed.json --list --filter '" + nested + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 500);
  EXPECT_EQ(r.out, "index/N:512\n");
}

TEST(BenchFilterE2E, WhatTheMatcherDoesNotTakeIsAUsageError) {
  auto r = run_gpurun("bench tests/data/bench/mixed.json --list --filter '(index)\\1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--filter '(index)\\1': not a regular expression: backreferences (\\1) "
                       "are not supported (at character 8)"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurun::test
