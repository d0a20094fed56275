#include "bench/axes.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"

namespace gpurun::bench {
namespace {

using Values = std::vector<std::string>;
using nlohmann::json;

std::string axis_error(const std::string& text, const std::string& field = "-a") {
  try {
    (void)parse_axis(text, field);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

// The message names the option and quotes the whole text, then says what is wrong.
void expect_error(const std::string& text, const std::string& what) {
  const auto message = axis_error(text);
  EXPECT_EQ(message.rfind("-a '" + text + "': ", 0), 0u) << message;
  EXPECT_NE(message.find(what), std::string::npos) << message;
}

TEST(ParseAxis, List) {
  const auto axis = parse_axis("N=[1,2,3]");
  EXPECT_EQ(axis.name, "N");
  EXPECT_EQ(axis.values, (Values{"1", "2", "3"}));
}

TEST(ParseAxis, ListKeepsTextAndOrder) {
  EXPECT_EQ(parse_axis("block=[256,128,1024]").values, (Values{"256", "128", "1024"}));
  EXPECT_EQ(parse_axis("T=[float,double]").values, (Values{"float", "double"}));
  EXPECT_EQ(parse_axis("x=[-1,2.5,abc]").values, (Values{"-1", "2.5", "abc"}));
}

TEST(ParseAxis, RangeIsInclusiveWithStep) {
  EXPECT_EQ(parse_axis("N=[2:10:2]").values, (Values{"2", "4", "6", "8", "10"}));
  EXPECT_EQ(parse_axis("N=[2:9:2]").values, (Values{"2", "4", "6", "8"}));
  EXPECT_EQ(parse_axis("N=[1:4]").values, (Values{"1", "2", "3", "4"}));
  EXPECT_EQ(parse_axis("N=[5:5]").values, (Values{"5"}));
}

TEST(ParseAxis, NegativeStepCountsDown) {
  EXPECT_EQ(parse_axis("N=[10:4:-3]").values, (Values{"10", "7", "4"}));
  EXPECT_EQ(parse_axis("N=[-2:2:2]").values, (Values{"-2", "0", "2"}));
}

TEST(ParseAxis, Pow2RangeIsWrittenInDecimal) {
  const auto axis = parse_axis("N[pow2]=[20:24]");
  EXPECT_EQ(axis.name, "N");
  EXPECT_EQ(axis.values, (Values{"1048576", "2097152", "4194304", "8388608", "16777216"}));
  EXPECT_EQ(parse_axis("N[pow2]=[20:28:4]").values, (Values{"1048576", "16777216", "268435456"}));
  EXPECT_EQ(parse_axis("N[pow2]=[0:62:62]").values, (Values{"1", "4611686018427387904"}));
}

TEST(ParseAxis, Pow2ListAndSingleValue) {
  EXPECT_EQ(parse_axis("N[pow2]=[3,1]").values, (Values{"8", "2"}));
  EXPECT_EQ(parse_axis("N[pow2]=10").values, (Values{"1024"}));
}

TEST(ParseAxis, SingleValue) {
  EXPECT_EQ(parse_axis("N=5").values, (Values{"5"}));
  EXPECT_EQ(parse_axis("T=float").values, (Values{"float"}));
  EXPECT_EQ(parse_axis("N=[4096]").values, (Values{"4096"}));
}

TEST(ParseAxis, WhitespaceIsAllowedEverywhere) {
  const auto axis = parse_axis("  N [ pow2 ] = [ 2 : 6 : 2 ] ");
  EXPECT_EQ(axis.name, "N");
  EXPECT_EQ(axis.values, (Values{"4", "16", "64"}));
  EXPECT_EQ(parse_axis(" T = [ float , double ] ").values, (Values{"float", "double"}));
  EXPECT_EQ(parse_axis("N = 7 ").values, (Values{"7"}));
}

TEST(ParseAxis, EmptyListsAndValues) {
  expect_error("N=[]", "the list is empty");
  expect_error("N=[ ]", "the list is empty");
  expect_error("N=", "no value");
  expect_error("N=[1,,2]", "empty value");
  expect_error("N=[1,2,]", "empty value");
}

TEST(ParseAxis, StepsThatCannotReach) {
  expect_error("N=[1:10:0]", "the step is 0");
  expect_error("N=[1:10:-1]", "the step -1 never reaches 10 from 1");
  expect_error("N=[10:1]", "the step 1 never reaches 1 from 10");
}

TEST(ParseAxis, TooManyValues) {
  EXPECT_EQ(parse_axis("N=[1:100000]").values.size(), 100000u);
  expect_error("N=[1:100001]", "100001 values, more than 100000");
  expect_error("N=[0:9223372036854775807]", "more than 100000");
  std::string list = "N=[0";
  for (int i = 1; i <= 100000; ++i)
    list += "," + std::to_string(i);
  list += "]";
  EXPECT_NE(axis_error(list).find("more than 100000 values"), std::string::npos);
}

TEST(ParseAxis, Pow2ExponentRange) {
  expect_error("N[pow2]=[60:63]", "the pow2 exponent 63 is outside 0..62");
  expect_error("N[pow2]=[-1:2]", "the pow2 exponent -1 is outside 0..62");
  expect_error("N[pow2]=64", "the pow2 exponent 64 is outside 0..62");
  expect_error("N[pow2]=[x,2]", "pow2 takes integer exponents, not 'x'");
  expect_error("N[pow2]=[1.5]", "pow2 takes integer exponents");
}

TEST(ParseAxis, NamesMustBeIdentifiers) {
  expect_error("2N=[1]", "'2N' is not an axis name");
  expect_error("=[1]", "'' is not an axis name");
  expect_error("my-axis=[1]", "'my-axis' is not an axis name");
  expect_error("N M=[1]", "'N M' is not an axis name");
  EXPECT_EQ(parse_axis("_block_size2=[1]").name, "_block_size2");
}

TEST(ParseAxis, RangesTakeIntegersOnly) {
  expect_error("N=[1.5:4]", "a range takes integers, not '1.5'");
  expect_error("N=[a:b]", "a range takes integers, not 'a'");
  expect_error("N=[1:]", "a range takes integers, not ''");
  expect_error("N=[1:2:3:4]", "START:END or START:END:STEP");
}

TEST(ParseAxis, OtherSyntaxErrors) {
  expect_error("N", "expected NAME=VALUES");
  expect_error("N=[1,2", "no closing ']'");
  expect_error("N=1,2", "in brackets");
  expect_error("N=1:4", "in brackets");
  expect_error("N[log]=[1]", "unknown axis flag 'log'");
  expect_error("N[pow2=[1]", "expected NAME[pow2]=VALUES");
}

TEST(ParseAxis, ErrorsNameTheField) {
  const auto message = axis_error("N=[]", "axes");
  EXPECT_EQ(message.rfind("axes 'N=[]': ", 0), 0u) << message;
}

TEST(CrossProduct, LastAxisVariesFastest) {
  const std::vector<Axis> axes{{"N", {"1", "2"}}, {"block", {"64", "128", "256"}}};
  const auto points = cross_product(axes);
  ASSERT_EQ(points.size(), 6u);
  const std::vector<std::string> names{"N:1/block:64", "N:1/block:128", "N:1/block:256",
                                       "N:2/block:64", "N:2/block:128", "N:2/block:256"};
  for (std::size_t i = 0; i < points.size(); ++i)
    EXPECT_EQ(point_name(points[i]), names[i]) << i;
  EXPECT_EQ(points[4], (AxisPoint{{"N", "2"}, {"block", "128"}}));
}

TEST(CrossProduct, ThreeAxes) {
  const auto points = cross_product({{"a", {"0", "1"}}, {"b", {"x"}}, {"c", {"0", "1"}}});
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(point_name(points[0]), "a:0/b:x/c:0");
  EXPECT_EQ(point_name(points[1]), "a:0/b:x/c:1");
  EXPECT_EQ(point_name(points[2]), "a:1/b:x/c:0");
  EXPECT_EQ(point_name(points[3]), "a:1/b:x/c:1");
}

TEST(CrossProduct, NoAxesIsOneEmptyPoint) {
  const auto points = cross_product({});
  ASSERT_EQ(points.size(), 1u);
  EXPECT_TRUE(points[0].empty());
  EXPECT_EQ(point_name(points[0]), "");
}

// Three axes of 100000 values each once made 10^15 points before the first case ran.
TEST(CrossProduct, MoreThanTheLimitOfPointsIsAUsageError) {
  const Axis big{"N", std::vector<std::string>(100000, "1")};
  EXPECT_EQ(cross_product({big}).size(), 100000u);
  try {
    (void)cross_product({{"M", {"1", "2"}}, big, {"K", {"3"}}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "axes M (2) × N (100000) × K (1): more than 100000 points in all");
  }
}

TEST(CrossProduct, DuplicateNamesAreAUsageError) {
  try {
    (void)cross_product({{"N", {"1"}}, {"M", {"2"}}, {"N", {"3"}}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("'N'"), std::string::npos) << e.what();
  }
}

TEST(PointName, GoogleBenchmarkStyle) {
  EXPECT_EQ(point_name({{"N", "1048576"}}), "N:1048576");
  EXPECT_EQ(point_name({{"N", "1048576"}, {"block", "256"}}), "N:1048576/block:256");
}

TEST(Substitute, ReplacesWholeWords) {
  const AxisPoint point{{"N", "4096"}};
  EXPECT_EQ(substitute("f32[N]", point), "f32[4096]");
  EXPECT_EQ(substitute("(N+255)/256", point), "(4096+255)/256");
  EXPECT_EQ(substitute("3*N*4", point), "3*4096*4");
  EXPECT_EQ(substitute("N", point), "4096");
  EXPECT_EQ(substitute("N N,N", point), "4096 4096,4096");
}

TEST(Substitute, LeavesLongerIdentifiersAlone) {
  const AxisPoint point{{"N", "4096"}, {"f", "7"}};
  EXPECT_EQ(substitute("NN", point), "NN");
  EXPECT_EQ(substitute("N2", point), "N2");
  EXPECT_EQ(substitute("xN", point), "xN");
  EXPECT_EQ(substitute("_N", point), "_N");
  EXPECT_EQ(substitute("2N", point), "2N");
  EXPECT_EQ(substitute("f32", point), "f32");
  EXPECT_EQ(substitute("f32[N]:rand(seed=f)", point), "f32[4096]:rand(seed=7)");
  EXPECT_EQ(substitute("n=N", point), "n=4096");
}

TEST(Substitute, SeveralAxesAndStrings) {
  const AxisPoint point{{"N", "64"}, {"B", "256"}, {"T", "float"}};
  EXPECT_EQ(substitute("(N+B-1)/B", point), "(64+256-1)/256");
  EXPECT_EQ(substitute("saxpy<T>", point), "saxpy<float>");
  EXPECT_EQ(substitute("", point), "");
  EXPECT_EQ(substitute("nothing here", point), "nothing here");
}

TEST(Substitute, NegativeNumbersGetParentheses) {
  EXPECT_EQ(substitute("2*S", {{"S", "-3"}}), "2*(-3)");
  EXPECT_EQ(substitute("2*S", {{"S", "-1.5"}}), "2*(-1.5)");
  EXPECT_EQ(substitute("2*S", {{"S", "3"}}), "2*3");
  EXPECT_EQ(substitute("x-S", {{"S", "-word"}}), "x--word");
}

TEST(SubstituteCase, SubstitutesStringValuesButNotNamesOrKeys) {
  const json doc = json::parse(R"doc({
    "name": "copy N", "source": "N.cu", "kernel": "copy<T>",
    "axes": ["N[pow2]=[24:28]"], "grid": "N/4/256", "block": 256,
    "args": ["N=f32[N]:iota", "c=f32[N]:0", "n=N", "f32[N]:rand(seed=7)",
             {"name": "N", "type": "f32", "shape": ["N"], "fill": "iota(0,N)"}],
    "globals": ["N=i32:N"],
    "compile": {"defines": ["N=N", "M", "K=2*N"], "options": ["-DX=N"], "std": "c++17"},
    "expect": {"N": "iota(0,N)"},
    "bytes": "2*N*4", "flops": "0", "rtol": 0.5, "print": "none", "timeout": 10, "flag": true
  })doc");
  const auto out = substitute_case(doc, {{"N", "4096"}, {"T", "float"}});
  EXPECT_EQ(out.at("name"), "copy N");
  EXPECT_EQ(out.at("source"), "N.cu");
  EXPECT_EQ(out.at("axes"), json::array({"N[pow2]=[24:28]"}));
  EXPECT_EQ(out.at("kernel"), "copy<float>");
  EXPECT_EQ(out.at("grid"), "4096/4/256");
  EXPECT_EQ(out.at("block"), 256);
  const json args = out.at("args");
  EXPECT_EQ(args.at(0), "N=f32[4096]:iota");
  EXPECT_EQ(args.at(1), "c=f32[4096]:0");
  EXPECT_EQ(args.at(2), "n=4096");
  // No name: the '=' belongs to the fill, so all of it is value.
  EXPECT_EQ(args.at(3), "f32[4096]:rand(seed=7)");
  EXPECT_EQ(args.at(4).at("name"), "N");
  EXPECT_EQ(args.at(4).at("shape"), json::array({"4096"}));
  EXPECT_EQ(args.at(4).at("fill"), "iota(0,4096)");
  EXPECT_EQ(out.at("globals"), json::array({"N=i32:4096"}));
  EXPECT_EQ(out.at("compile").at("defines"), json::array({"N=4096", "M", "K=2*4096"}));
  EXPECT_EQ(out.at("compile").at("options"), json::array({"-DX=4096"}));
  EXPECT_EQ(out.at("compile").at("std"), "c++17");
  EXPECT_EQ(out.at("expect"), json({{"N", "iota(0,4096)"}}));
  EXPECT_EQ(out.at("bytes"), "2*4096*4");
  EXPECT_EQ(out.at("flops"), "0");
  EXPECT_EQ(out.at("rtol"), 0.5);
  EXPECT_EQ(out.at("print"), "none");
  EXPECT_EQ(out.at("timeout"), 10);
  EXPECT_EQ(out.at("flag"), true);
  EXPECT_EQ(out.size(), doc.size());
}

TEST(SubstituteCase, DefinesAsAnObjectKeepTheirNames) {
  const json doc =
      json::parse(R"doc({"compile": {"defines": {"N": "N", "TILE": 32, "BARE": null}}})doc");
  const auto out = substitute_case(doc, {{"N", "64"}});
  EXPECT_EQ(out.at("compile").at("defines"), json({{"N", "64"}, {"TILE", 32}, {"BARE", nullptr}}));
}

TEST(SubstituteCase, GlobalsSplitAtTheFirstEquals) {
  const json doc = json::parse(R"doc({"globals": ["table=f32[N]:rand(seed=N)"]})doc");
  const auto out = substitute_case(doc, {{"N", "8"}});
  EXPECT_EQ(out.at("globals"), json::array({"table=f32[8]:rand(seed=8)"}));
}

TEST(SubstituteCase, NoPointChangesNothing) {
  const json doc = json::parse(R"doc(
    {"name": "x", "grid": "N/256", "args": ["a=f32[N]"]})doc");
  EXPECT_EQ(substitute_case(doc, {}), doc);
}

} // namespace
} // namespace gpurun::bench
