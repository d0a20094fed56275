#include "base/expression_parser.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace gpurun::expression {
namespace {

const std::vector<std::string> k_names = {"lane", "warp"};

Syntax sizes() {
  Syntax s;
  s.power_and_shifts = true;
  s.unary_plus = true;
  s.binary_literals = true;
  s.max_literal = std::numeric_limits<std::int64_t>::max();
  return s;
}

Syntax filters() {
  Syntax s;
  s.logic = true;
  s.max_literal = std::numeric_limits<std::int64_t>::max();
  s.variables = k_names;
  return s;
}

// The program in postfix words: "2 3 4 * +".
std::string postfix(const std::string& text, const Syntax& syntax) {
  static const char* const names[] = {
      "",   "",   "neg", "pos", "!", "**", "*", "/",  "%",  "+", "-",
      "<<", ">>", "==",  "!=",  "<", "<=", ">", ">=", "&&", "||"};
  std::string out;
  for (const Step& s : parse(text, syntax).steps) {
    if (!out.empty())
      out += ' ';
    if (s.op == Op::constant)
      out += std::to_string(static_cast<long long>(s.value));
    else if (s.op == Op::variable)
      out += k_names.at(static_cast<std::size_t>(s.value));
    else
      out += names[static_cast<int>(s.op)];
  }
  return out;
}

// `text` outlives the Problem, whose token views into it (a string literal does).
Problem problem(std::string_view text, const Syntax& syntax) {
  try {
    (void)parse(text, syntax);
  } catch (const ParseError& e) {
    return e.problem();
  }
  ADD_FAILURE() << "no problem with '" << text << "'";
  return {};
}

TEST(Expression, PrecedenceAndAssociativity) {
  EXPECT_EQ(postfix("2+3*4", sizes()), "2 3 4 * +");
  EXPECT_EQ(postfix("(2+3)*4", sizes()), "2 3 + 4 *");
  EXPECT_EQ(postfix("10-2-3", sizes()), "10 2 - 3 -");
  EXPECT_EQ(postfix("1<<10+1", sizes()), "1 10 1 + <<");
  EXPECT_EQ(postfix("2**3**2", sizes()), "2 3 2 ** **");
  EXPECT_EQ(postfix("-2**2", sizes()), "2 2 ** neg");
  EXPECT_EQ(postfix("2**-1", sizes()), "2 1 neg **");
  EXPECT_EQ(postfix("+-7%2", sizes()), "7 neg pos 2 %");
}

TEST(Expression, FiltersCompareAndCombine) {
  EXPECT_EQ(postfix("warp==1 && lane<4", filters()), "warp 1 == lane 4 < &&");
  EXPECT_EQ(postfix("warp==1 || lane==2 && warp==9", filters()),
            "warp 1 == lane 2 == warp 9 == && ||");
  EXPECT_EQ(postfix("!(lane%2) && -lane<0", filters()), "lane 2 % ! lane neg 0 < &&");
  EXPECT_EQ(postfix("1 + 2 * 3 == 7", filters()), "1 2 3 * + 7 ==");
}

TEST(Expression, LiteralsInEveryBase) {
  EXPECT_EQ(postfix("0x1F + 0b101 + 017", sizes()), "31 5 + 17 +");
  EXPECT_EQ(problem("0b101", filters()).token.kind, Token::Kind::bad_number);
}

TEST(Expression, StackSizeIsTheDeepestOperandStack) {
  EXPECT_EQ(parse("1", sizes()).stack_size, 1u);
  EXPECT_EQ(parse("1+2+3+4", sizes()).stack_size, 2u);
  EXPECT_EQ(parse("1+(2+(3+4))", sizes()).stack_size, 4u);
}

TEST(Expression, ProblemsSayWhatAndWhere) {
  auto p = problem("1 +", sizes());
  EXPECT_EQ(p.kind, Problem::Kind::expected_operand);
  EXPECT_EQ(p.token.kind, Token::Kind::end);
  EXPECT_EQ(p.token.pos, 3u);
  p = problem("1 2", sizes());
  EXPECT_EQ(p.kind, Problem::Kind::expected_operator);
  EXPECT_EQ(p.token.text, "2");
  p = problem("((1)", sizes());
  EXPECT_EQ(p.kind, Problem::Kind::unclosed);
  EXPECT_EQ(p.pos, 0u);
  p = problem("(1 2)", sizes());
  EXPECT_EQ(p.kind, Problem::Kind::expected_close);
  EXPECT_EQ(p.token.pos, 3u);
  p = problem("wrap == 1", filters());
  EXPECT_EQ(p.kind, Problem::Kind::unknown_name);
  EXPECT_EQ(p.token.text, "wrap");
  p = problem("1 < lane < 3", filters());
  EXPECT_EQ(p.kind, Problem::Kind::chained_comparison);
  EXPECT_EQ(p.token.pos, 9u);
  p = problem("2 ^ 3", sizes());
  EXPECT_EQ(p.token.kind, Token::Kind::bad);
  EXPECT_EQ(p.token.text, "^");
}

TEST(Expression, OperatorsOfOtherLanguagesAreNotTokens) {
  // `<` is no operator for sizes, `<<` and `**` none for filters.
  EXPECT_EQ(problem("1 < 2", sizes()).token.kind, Token::Kind::bad);
  auto p = problem("lane << 2", filters());
  EXPECT_EQ(p.kind, Problem::Kind::expected_operand);
  EXPECT_EQ(p.token.text, "<");
  EXPECT_EQ(problem("2 ** 2", filters()).token.text, "*");
  EXPECT_EQ(problem("+lane", filters()).kind, Problem::Kind::expected_operand);
}

TEST(Expression, MalformedNumbersAreOneToken) {
  auto t = problem("12abc", sizes()).token;
  EXPECT_EQ(t.kind, Token::Kind::bad_number);
  EXPECT_EQ(t.text, "12abc");
  EXPECT_EQ(t.number_problem, Token::NumberProblem::trailing);
  EXPECT_EQ(t.problem_pos, 2u);
  EXPECT_EQ(problem("0x", sizes()).token.number_problem, Token::NumberProblem::no_digits);
  t = problem("0b12", sizes()).token;
  EXPECT_EQ(t.number_problem, Token::NumberProblem::bad_digit);
  EXPECT_EQ(t.problem_pos, 3u);
  EXPECT_EQ(problem("1.5", sizes()).token.number_problem, Token::NumberProblem::decimal_point);
  EXPECT_EQ(problem("1e6", sizes()).token.number_problem, Token::NumberProblem::exponent);
  EXPECT_EQ(problem("9223372036854775808", sizes()).token.number_problem,
            Token::NumberProblem::too_large);
  EXPECT_EQ(postfix("9223372036854775807", sizes()), "9223372036854775807");
}

// Nesting is counted, not recursed into without bound: these must fail cleanly, not overflow the
// stack.
TEST(Expression, DeepNestingIsAProblemNotACrash) {
  const std::string parens = std::string(20'000, '(') + "1" + std::string(20'000, ')');
  auto p = problem(parens, sizes());
  EXPECT_EQ(p.kind, Problem::Kind::too_deep);
  EXPECT_EQ(p.pos, static_cast<std::size_t>(k_max_depth));
  EXPECT_EQ(problem(std::string(120'000, '-') + "1", sizes()).kind, Problem::Kind::too_deep);
  EXPECT_EQ(problem(std::string(120'000, '!') + "lane", filters()).kind, Problem::Kind::too_deep);
  std::string powers = "2";
  for (int i = 0; i < 1000; ++i)
    powers += "**2";
  EXPECT_EQ(problem(powers, sizes()).kind, Problem::Kind::too_deep);
  // Right at the limit still parses.
  const std::string deepest = std::string(k_max_depth, '(') + "1" + std::string(k_max_depth, ')');
  EXPECT_EQ(parse(deepest, sizes()).steps.size(), 1u);
  EXPECT_EQ(problem("(" + deepest + ")", sizes()).kind, Problem::Kind::too_deep);
}

TEST(Expression, LongChainsNeedNoNesting) {
  std::string sum = "1";
  for (int i = 0; i < 50'000; ++i)
    sum += "+1";
  const Program program = parse(sum, sizes());
  EXPECT_EQ(program.steps.size(), 100'001u);
  EXPECT_EQ(program.stack_size, 2u);
}

TEST(Expression, TooLongTextIsAProblem) {
  EXPECT_EQ(problem(std::string(k_max_length + 1, '1'), sizes()).kind, Problem::Kind::too_long);
}

} // namespace
} // namespace gpurun::expression
