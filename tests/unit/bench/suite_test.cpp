#include "bench/suite.hpp"

#include <fstream>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun::bench {
namespace {

std::filesystem::path write_suite(const std::string& text) {
  const auto dir = test::temp_dir();
  std::ofstream(dir / "k.cu") << "extern \"C\" __global__ void k(float* x, int n) {}\n";
  std::ofstream(dir / "suite.json") << text;
  return dir / "suite.json";
}

using test::usage_message;

const char* k_suite = R"({
  "name": "s",
  "defaults": { "block": 128, "source": "k.cu" },
  "cases": [
    { "name": "a", "axes": ["N[pow2]=[10:11]", "B=[64,128]"], "grid": "(N+B-1)/B", "block": "B",
      "args": ["x=f32[N]:0", "n=N"], "bytes": "4*N", "flops": "N/2" },
    { "name": "b", "grid": 1, "args": ["x=f32[4]", "n=4"], "bytes": 16 }
  ]
})";

TEST(Suite, ExpandsAxesIntoRunRequests) {
  const Suite suite = read_suite(write_suite(k_suite));
  EXPECT_EQ(suite.name, "s");
  ASSERT_EQ(suite.cases.size(), 2u);
  const auto cases = expand(suite, {});
  ASSERT_EQ(cases.size(), 5u);
  EXPECT_EQ(cases[0].name, "a/N:1024/B:64");
  EXPECT_EQ(cases[1].name, "a/N:1024/B:128");
  EXPECT_EQ(cases[3].name, "a/N:2048/B:128");
  EXPECT_EQ(cases[4].name, "b");
  const RunRequest& r = cases[3].request;
  ASSERT_TRUE(r.grid && r.block);
  EXPECT_EQ(r.grid->x, 16u); // (2048 + 127) / 128
  EXPECT_EQ(r.block->x, 128u);
  EXPECT_EQ(r.args.at(0), "x=f32[2048]:0");
  EXPECT_EQ(r.args.at(1), "n=2048");
  EXPECT_EQ(cases[3].bytes, 8192.0);
  EXPECT_EQ(cases[3].flops, 1024.0);
  EXPECT_EQ(cases[4].request.block->x, 128u) << "from defaults";
  EXPECT_EQ(cases[4].bytes, 16.0);
  EXPECT_FALSE(cases[4].flops);
  EXPECT_TRUE(r.source.is_absolute()) << "relative to the suite's folder";
}

TEST(Suite, OverridesReplaceAxesOfTheSameName) {
  const Suite suite = read_suite(write_suite(k_suite));
  const auto cases = expand(suite, {parse_axis("N=[7]")});
  ASSERT_EQ(cases.size(), 3u);
  EXPECT_EQ(cases[0].name, "a/N:7/B:64");
  EXPECT_EQ(cases[0].request.grid->x, 1u);
  EXPECT_NE(usage_message([&] {
              (void)expand(suite, {parse_axis("M=[1]")});
            }).find("-a M: no case of suite 's' has an axis named 'M'"),
            std::string::npos);
}

TEST(Suite, FilterKeepsMatchingCases) {
  const Suite suite = read_suite(write_suite(k_suite));
  const auto cases = expand(suite, {}, "B:128$");
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[1].name, "a/N:2048/B:128");
  EXPECT_NE(usage_message([&] { (void)expand(suite, {}, "nothing"); }).find("matches no case"),
            std::string::npos);
  EXPECT_NE(usage_message([&] { (void)expand(suite, {}, "("); }).find("--filter '('"),
            std::string::npos);
}

TEST(Suite, APointThatCannotRunIsMarkedNotThrown) {
  const Suite suite = read_suite(write_suite(R"({"cases": [
    {"name": "z", "source": "k.cu", "axes": ["D=[0,2]"], "grid": "8/D", "block": 1,
     "args": ["x=f32[1]", "n=1"]}]})"));
  const auto cases = expand(suite, {});
  ASSERT_EQ(cases.size(), 2u);
  ASSERT_TRUE(cases[0].error);
  EXPECT_NE(cases[0].error->find("division by zero"), std::string::npos) << *cases[0].error;
  EXPECT_FALSE(cases[1].error);
  EXPECT_EQ(cases[1].request.grid->x, 4u);
}

TEST(Suite, ErrorsNameTheFileAndKey) {
  EXPECT_NE(usage_message([] {
              (void)read_suite(write_suite(R"({"cases": [{"name": "a", "gird": 1}]})"));
            }).find("unknown key 'cases[0].gird' (did you mean 'grid'?)"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              (void)read_suite(write_suite(R"({"cases": [{"name": "a"}, {"name": "a"}]})"));
            }).find("'cases[1].name' 'a' is used twice"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              (void)read_suite(write_suite(R"({"cases": [{"grid": 1}]})"));
            }).find("'cases[0].name' is required"),
            std::string::npos);
  EXPECT_NE(usage_message([] {
              (void)read_suite(write_suite(R"({"cases": []})"));
            }).find("'cases' must be a non-empty array"),
            std::string::npos);
  EXPECT_NE(
      usage_message([] { (void)read_suite(write_suite(R"({"cases": [)")); }).find("invalid JSON"),
      std::string::npos);
}

} // namespace
} // namespace gpurun::bench
