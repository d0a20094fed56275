#include "threads/thread_filter.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

const std::vector<std::string> columns = {"warp", "lane", "block_x"};

bool eval(const std::string& text, std::uint64_t warp, std::uint64_t lane, std::uint64_t bx = 0) {
  const auto filter = RowFilter::parse(text, columns);
  const std::uint64_t row[] = {warp, lane, bx};
  return filter.matches(row);
}

std::string error_of(const std::string& text) {
  try {
    (void)RowFilter::parse(text, columns);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(RowFilter, ComparesColumnsWithIntegers) {
  EXPECT_TRUE(eval("warp==1 && lane<4", 1, 3));
  EXPECT_FALSE(eval("warp==1 && lane<4", 1, 4));
  EXPECT_FALSE(eval("warp==1 && lane<4", 0, 3));
  EXPECT_TRUE(eval("lane<=4", 0, 4));
  EXPECT_FALSE(eval("lane>4", 0, 4));
  EXPECT_TRUE(eval("lane>=4", 0, 4));
  EXPECT_TRUE(eval("lane!=4", 0, 5));
  EXPECT_TRUE(eval("block_x==0", 7, 7, 0));
  EXPECT_FALSE(eval("block_x==0", 7, 7, 2));
}

TEST(RowFilter, AndBindsTighterThanOr) {
  // a || b && c  is  a || (b && c)
  EXPECT_TRUE(eval("warp==1 || lane==2 && block_x==9", 1, 0, 0));
  EXPECT_FALSE(eval("(warp==1 || lane==2) && block_x==9", 1, 0, 0));
}

TEST(RowFilter, NotAndParentheses) {
  EXPECT_TRUE(eval("!(warp==1)", 0, 0));
  EXPECT_FALSE(eval("!(warp==1)", 1, 0));
  EXPECT_TRUE(eval("!!lane", 0, 3));
  EXPECT_TRUE(eval("((lane))", 0, 1));
  EXPECT_FALSE(eval("lane", 0, 0));
}

TEST(RowFilter, ArithmeticFollowsPrecedence) {
  EXPECT_TRUE(eval("1 + 2 * 3 == 7", 0, 0));
  EXPECT_TRUE(eval("(1 + 2) * 3 == 9", 0, 0));
  EXPECT_TRUE(eval("lane % 2 == 1", 0, 5));
  EXPECT_TRUE(eval("lane / 4 == 2", 0, 9));
  EXPECT_TRUE(eval("10 - 3 - 2 == 5", 0, 0)); // left associative
  EXPECT_TRUE(eval("-lane < 0", 0, 1));
  EXPECT_TRUE(eval("0x10 == 16", 0, 0));
}

TEST(RowFilter, DivisionByZeroIsZero) {
  EXPECT_TRUE(eval("lane / warp == 0", 0, 5));
  EXPECT_TRUE(eval("lane % warp == 0", 0, 5));
}

TEST(RowFilter, ErrorsNameTheBadToken) {
  EXPECT_EQ(error_of("wrap==1"),
            "--where: unknown column 'wrap' at 1 (columns: warp lane block_x) in 'wrap==1'");
  EXPECT_EQ(error_of("warp = 1"), "--where: unexpected '=' at 6 (use '==') in 'warp = 1'");
  EXPECT_EQ(error_of("warp==1 & lane<4"),
            "--where: unexpected '&' at 9 (use '&&') in 'warp==1 & lane<4'");
  EXPECT_EQ(error_of("lane <"),
            "--where: expected a column, an integer or '(' but the expression ends in 'lane <'");
  EXPECT_EQ(error_of("(lane < 4"), "--where: '(' at 1 is not closed in '(lane < 4'");
  EXPECT_EQ(error_of("lane < 4)"),
            "--where: unexpected ')' at 9 (expected an operator) in 'lane < 4)'");
  EXPECT_EQ(error_of("lane < 4x"), "--where: bad integer '4x' at 8 in 'lane < 4x'");
  EXPECT_EQ(error_of("lane $ 3"), "--where: unexpected '$' at 6 in 'lane $ 3'");
  EXPECT_EQ(error_of("lane 3"), "--where: unexpected '3' at 6 (expected an operator) in 'lane 3'");
  EXPECT_EQ(error_of("1 < lane < 3"),
            "--where: unexpected '<' at 10 (comparisons do not chain; use '&&') in '1 < lane < 3'");
  EXPECT_EQ(error_of(""), "--where: empty expression in ''");
  EXPECT_EQ(error_of("lane < 99999999999999999999"),
            "--where: integer '99999999999999999999' at 8 is too large in 'lane < "
            "99999999999999999999'");
}

TEST(RowFilter, DeepNestingIsAUsageErrorNotAStackOverflow) {
  const std::string parens = std::string(20'000, '(') + "lane" + std::string(20'000, ')');
  const std::string m = error_of(parens);
  EXPECT_EQ(m.rfind("--where: nesting too deep (more than 256 levels) at 257 in '", 0), 0u) << m;
  EXPECT_LT(m.size(), 300u);
  EXPECT_NE(error_of(std::string(120'000, '-') + "lane").find("nesting too deep"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(120'000, '!') + "lane").find("nesting too deep"),
            std::string::npos);
}

TEST(RowFilter, ManyValuesOnTheStack) {
  // 40 values pending at once: more than the evaluator keeps without allocating.
  std::string text;
  for (int i = 0; i < 40; ++i)
    text += "(lane+";
  text += "0";
  for (int i = 0; i < 40; ++i)
    text += ")";
  EXPECT_TRUE(eval(text + " == 40*3", 0, 3));
  EXPECT_FALSE(eval(text + " == 40*3", 0, 2));
}

TEST(RowFilter, ArithmeticWrapsAndDivisionOverflowIsZero) {
  EXPECT_TRUE(eval("9223372036854775807 + 1 < 0", 0, 0));
  EXPECT_TRUE(eval("(-9223372036854775807 - 1) / -1 == 0", 0, 0));
  EXPECT_TRUE(eval("-lane == 0 - lane", 0, 7));
}

TEST(RowFilter, KeepsItsText) {
  EXPECT_EQ(RowFilter::parse("lane<4", columns).text(), "lane<4");
}

} // namespace
} // namespace gpurun
