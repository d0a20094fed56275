#include "base/arithmetic.hpp"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

/// The usage Error message of eval_int_expr(text, field); fails the test if nothing is thrown.
std::string int_error(const std::string& text, const std::string& field = "--shared") {
  try {
    (void)eval_int_expr(text, field);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error for '" << text << "'";
  return {};
}

TEST(IntExpr, LiteralsAndOperators) {
  EXPECT_EQ(eval_int_expr("20", "f"), 20);
  EXPECT_EQ(eval_int_expr("0x1F", "f"), 31);
  EXPECT_EQ(eval_int_expr("0b101", "f"), 5);
  EXPECT_EQ(eval_int_expr("1<<20", "f"), 1 << 20);
  EXPECT_EQ(eval_int_expr(" 1 << 10 + 1 ", "f"), 1 << 11); // + binds tighter than <<
  EXPECT_EQ(eval_int_expr("2+3*4", "f"), 14);
  EXPECT_EQ(eval_int_expr("(2+3)*4", "f"), 20);
  EXPECT_EQ(eval_int_expr("1024>>3", "f"), 128);
  EXPECT_EQ(eval_int_expr("17%5", "f"), 2);
  EXPECT_EQ(eval_int_expr("-7/2", "f"), -3); // truncates like C
  EXPECT_EQ(eval_int_expr("-7%2", "f"), -1);
  EXPECT_EQ(eval_int_expr("--3", "f"), 3);
  EXPECT_EQ(eval_int_expr("10-2-3", "f"), 5); // left associative
}

TEST(IntExpr, PowerIsRightAssociativeAndBindsTighterThanUnaryMinus) {
  EXPECT_EQ(eval_int_expr("2**20", "f"), 1 << 20);
  EXPECT_EQ(eval_int_expr("2**3**2", "f"), 512);
  EXPECT_EQ(eval_int_expr("-2**2", "f"), -4);
  EXPECT_EQ(eval_int_expr("(-2)**3", "f"), -8);
  EXPECT_EQ(eval_int_expr("3*2**4", "f"), 48);
  EXPECT_EQ(eval_int_expr("0**0", "f"), 1);
  EXPECT_EQ(eval_int_expr("(-1)**1000001", "f"), -1);
  EXPECT_EQ(eval_int_expr("1**1000000000000", "f"), 1);
}

TEST(IntExpr, Int64Limits) {
  EXPECT_EQ(eval_int_expr("2**63-1", "f"), std::numeric_limits<long long>::max());
  EXPECT_EQ(eval_int_expr("-2**63", "f"), std::numeric_limits<long long>::min());
  EXPECT_EQ(eval_wide_int("2**64-1", {"f", "2**64-1"}), static_cast<WideInt>(UINT64_MAX));
  EXPECT_NE(int_error("2**63").find("does not fit in a signed 64-bit integer"), std::string::npos);
}

TEST(IntExpr, IncompleteExpressionPointsAtTheEnd) {
  EXPECT_EQ(int_error("1<<"), "--shared '1<<': expected a number at position 4");
}

TEST(IntExpr, CaretIsRejectedWithAHint) {
  const auto m = int_error("2^20", "--grid");
  EXPECT_EQ(m, "--grid '2^20': '^' is not an operator (write ** for powers, e.g. 2**20) at "
               "position 2");
}

TEST(IntExpr, DivisionByZeroPointsAtTheOperator) {
  EXPECT_EQ(int_error("10/(5-5)"), "--shared '10/(5-5)': division by zero at position 3");
  EXPECT_NE(int_error("7%0").find("division by zero at position 2"), std::string::npos);
}

TEST(IntExpr, OverflowIsAnError) {
  EXPECT_NE(int_error("2**200").find("integer overflow"), std::string::npos);
  EXPECT_NE(int_error("(1<<100)*(1<<30)").find("integer overflow at position 9"),
            std::string::npos);
  EXPECT_NE(int_error("1<<200").find("shift amount must be 0 to 126"), std::string::npos);
  EXPECT_NE(int_error("99999999999999999999999999999999999999999").find("too large"),
            std::string::npos);
}

TEST(IntExpr, MalformedInputNamesTheCulprit) {
  EXPECT_EQ(int_error("12abc"), "--shared '12abc': unexpected 'a' at position 3");
  EXPECT_EQ(int_error("(1+2"), "--shared '(1+2': unclosed '(' at position 1");
  EXPECT_EQ(int_error("1+2)"), "--shared '1+2)': unmatched ')' at position 4");
  EXPECT_EQ(int_error(""), "--shared '': expected a number at position 1");
  EXPECT_EQ(int_error("0x"), "--shared '0x': expected hex digits at position 3");
  EXPECT_EQ(int_error("0b12"), "--shared '0b12': '2' is not a base-2 digit at position 4");
  EXPECT_EQ(int_error("x*2"), "--shared 'x*2': expected a number, found 'x' at position 1");
  EXPECT_EQ(int_error("1e6"), "--shared '1e6': expected an integer, found a floating-point number "
                              "(write 10**N for powers of ten) at position 1");
  EXPECT_NE(int_error("1.5").find("found a floating-point number at position 1"),
            std::string::npos);
  EXPECT_NE(int_error("2**-1").find("negative exponent"), std::string::npos);
}

TEST(IntExpr, DeepNestingIsAUsageErrorNotAStackOverflow) {
  const std::string parens = std::string(20'000, '(') + "1" + std::string(20'000, ')');
  std::string m = int_error(parens);
  EXPECT_NE(m.find("nesting too deep (more than 256 levels) at position 257"), std::string::npos)
      << m;
  EXPECT_EQ(m.rfind("--shared '" + std::string(100, '(') + "… (40001 characters)': ", 0), 0u)
      << "a long value is quoted by its beginning only";
  m = int_error(std::string(120'000, '-') + "1");
  EXPECT_NE(m.find("nesting too deep"), std::string::npos) << m.substr(0, 300);
  std::string powers = "2";
  for (int i = 0; i < 5000; ++i)
    powers += "**1";
  EXPECT_NE(int_error(powers).find("nesting too deep"), std::string::npos);
  EXPECT_NE(int_error(std::string(300'000, '1')).find("longer than 262144 characters"),
            std::string::npos);
  // Long flat expressions are not nesting.
  std::string sum = "0";
  for (int i = 0; i < 10'000; ++i)
    sum += "+1";
  EXPECT_EQ(eval_int_expr(sum, "f"), 10'000);
}

TEST(IntExpr, UnaryPlusAndMinusMix) {
  EXPECT_EQ(eval_int_expr("+5", "f"), 5);
  EXPECT_EQ(eval_int_expr("-+-5", "f"), 5);
  EXPECT_EQ(eval_int_expr("2*-3", "f"), -6);
  EXPECT_NE(int_error("-(-(2**126)*2)").find("integer overflow at position 1"), std::string::npos);
}

TEST(IntExpr, PositionsAreRelativeToTheWholeOption) {
  const std::string whole = "vector=f32[1<<]";
  try {
    (void)eval_wide_int("1<<", SourceText{"--arg", whole, 11});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--arg 'vector=f32[1<<]': expected a number at position 15");
  }
}

TEST(IntExpr, TypedRangeChecks) {
  EXPECT_EQ(eval_int_for(DType::u8, "255", {"f", "255"}), 255);
  EXPECT_EQ(eval_int_for(DType::i8, "-128", {"f", "-128"}), -128);
  try {
    (void)eval_int_for(DType::u8, "256", {"--arg", "x=u8:256", 5});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "--arg 'x=u8:256': 256 is out of range for u8 (0 to 255) at position 6");
  }
  EXPECT_THROW((void)eval_int_for(DType::u32, "-1", {"f", "-1"}), Error);
  EXPECT_THROW((void)eval_int_for(DType::i64, "2**63", {"f", "2**63"}), Error);
  EXPECT_EQ(eval_int_for(DType::u64, "2**64-1", {"f", "2**64-1"}),
            static_cast<WideInt>(UINT64_MAX));
}

TEST(Number, FloatLiteralsAndIntegerExpressions) {
  EXPECT_EQ(eval_number("20", "f"), 20.0);
  EXPECT_EQ(eval_number("20.0", "f"), 20.0);
  EXPECT_EQ(eval_number("-1.5e3", "f"), -1500.0);
  EXPECT_EQ(eval_number("+0.25", "f"), 0.25);
  EXPECT_EQ(eval_number(" .5 ", "f"), 0.5);
  EXPECT_EQ(eval_number("1<<20", "f"), 1048576.0);
  EXPECT_EQ(eval_number("0x10", "f"), 16.0);
  EXPECT_EQ(eval_number("inf", "f"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(eval_number("-inf", "f"), -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(eval_number("nan", "f")));
  EXPECT_TRUE(std::signbit(eval_number("-0.0", "f")));
}

TEST(Number, MalformedNumbersNameTheCulprit) {
  try {
    (void)eval_number("1.5x", "--rtol");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_STREQ(e.what(), "--rtol '1.5x': unexpected 'x' after the number at position 4");
  }
  try {
    (void)eval_number("abc", "--rtol");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--rtol 'abc': expected a number, found 'a' at position 1");
  }
  EXPECT_THROW((void)eval_number("1e999", "f"), Error);
}

} // namespace
} // namespace gpurun
