#include "threads/thread_filter.hpp"

#include <array>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {

using expression::Op;
using expression::Problem;
using expression::Token;

// Values this long are quoted by their beginning only, so that an error stays one line.
constexpr std::size_t k_quoted_max = 200;

std::string quoted(std::string_view text) {
  if (text.size() <= k_quoted_max)
    return std::string(text);
  return fmt::format("{}… ({} characters)", text.substr(0, k_quoted_max / 2), text.size());
}

// "unexpected '&' at 9 (use '&&')": a character that is no token, or a malformed integer.
std::string bad_token(const Token& t) {
  const std::size_t at = t.pos + 1;
  if (t.kind == Token::Kind::bad_number) {
    if (t.number_problem == Token::NumberProblem::too_large)
      return fmt::format("integer '{}' at {} is too large", t.text, at);
    if (t.number_problem == Token::NumberProblem::decimal_point)
      return fmt::format("unexpected '.' at {}", t.problem_pos + 1);
    return fmt::format("bad integer '{}' at {}", t.text, at);
  }
  const char c = t.text.front();
  if (c == '=')
    return fmt::format("unexpected '=' at {} (use '==')", at);
  if (c == '&' || c == '|')
    return fmt::format("unexpected '{}' at {} (use '{}{}')", c, at, c, c);
  return fmt::format("unexpected '{}' at {}", t.text, at);
}

std::string problem_text(const Problem& p, std::span<const std::string> columns) {
  const Token& t = p.token;
  switch (p.kind) {
  case Problem::Kind::too_long:
    return fmt::format("longer than {} characters", expression::k_max_length);
  case Problem::Kind::too_deep:
    return fmt::format("nesting too deep (more than {} levels) at {}", expression::k_max_depth,
                       p.pos + 1);
  case Problem::Kind::unclosed:
    return fmt::format("'(' at {} is not closed", p.pos + 1);
  case Problem::Kind::unknown_name:
    return fmt::format("unknown column '{}' at {} (columns: {})", t.text, t.pos + 1,
                       fmt::join(columns, " "));
  default:
    break;
  }
  if (t.kind == Token::Kind::bad || t.kind == Token::Kind::bad_number)
    return bad_token(t);
  std::string_view expected = "expected a column, an integer or '('";
  if (p.kind == Problem::Kind::expected_operator)
    expected = "expected an operator";
  else if (p.kind == Problem::Kind::expected_close)
    expected = "expected ')'";
  else if (p.kind == Problem::Kind::chained_comparison)
    expected = "comparisons do not chain; use '&&'";
  if (t.kind == Token::Kind::end)
    return fmt::format("{} but the expression ends", expected);
  return fmt::format("unexpected '{}' at {} ({})", t.text, t.pos + 1, expected);
}

// Evaluating this many values needs no allocation.
constexpr std::size_t k_inline_stack = 32;

} // namespace

RowFilter RowFilter::parse(std::string_view text, std::span<const std::string> columns,
                           std::string_view field) {
  RowFilter filter;
  filter.m_text = std::string(text);
  if (text.find_first_not_of(" \t\n\r\f\v") == std::string_view::npos)
    throw usage_error(fmt::format("{}: empty expression in '{}'", field, text));
  expression::Syntax syntax;
  syntax.logic = true;
  syntax.max_literal = std::numeric_limits<std::int64_t>::max();
  syntax.variables = columns;
  try {
    filter.m_program = expression::parse(filter.m_text, syntax);
  } catch (const expression::ParseError& e) {
    throw usage_error(
        fmt::format("{}: {} in '{}'", field, problem_text(e.problem(), columns), quoted(text)));
  }
  return filter;
}

bool RowFilter::matches(std::span<const std::uint64_t> row) const {
  std::array<std::int64_t, k_inline_stack> inline_stack{};
  std::vector<std::int64_t> heap_stack;
  std::int64_t* stack = inline_stack.data();
  if (m_program.stack_size > inline_stack.size()) {
    heap_stack.resize(m_program.stack_size);
    stack = heap_stack.data();
  }
  // Unsigned wrap-around for + - * keeps overflow defined; the results are reinterpreted as
  // signed. Both sides of && and || are evaluated: nothing here has side effects or can fail.
  const auto wrap = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
  std::size_t top = 0; // values on the stack
  for (const expression::Step& step : m_program.steps) {
    switch (step.op) {
    case Op::constant:
      stack[top++] = static_cast<std::int64_t>(step.value);
      continue;
    case Op::variable:
      stack[top++] = static_cast<std::int64_t>(row[static_cast<std::size_t>(step.value)]);
      continue;
    case Op::negate:
      stack[top - 1] = wrap(0 - static_cast<std::uint64_t>(stack[top - 1]));
      continue;
    case Op::logical_not:
      stack[top - 1] = stack[top - 1] == 0;
      continue;
    default:
      break;
    }
    const std::int64_t b = stack[--top];
    std::int64_t& a = stack[top - 1];
    const auto ua = static_cast<std::uint64_t>(a);
    const auto ub = static_cast<std::uint64_t>(b);
    // Division or remainder by 0 gives 0: a filter must not abort a listing half-way.
    const bool undefined = b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1);
    switch (step.op) {
    case Op::add:
      a = wrap(ua + ub);
      break;
    case Op::sub:
      a = wrap(ua - ub);
      break;
    case Op::mul:
      a = wrap(ua * ub);
      break;
    case Op::div:
      a = undefined ? 0 : a / b;
      break;
    case Op::mod:
      a = undefined ? 0 : a % b;
      break;
    case Op::eq:
      a = a == b;
      break;
    case Op::ne:
      a = a != b;
      break;
    case Op::lt:
      a = a < b;
      break;
    case Op::le:
      a = a <= b;
      break;
    case Op::gt:
      a = a > b;
      break;
    case Op::ge:
      a = a >= b;
      break;
    case Op::logical_and:
      a = a != 0 && b != 0;
      break;
    case Op::logical_or:
      a = a != 0 || b != 0;
      break;
    default:
      a = 0; // the filter syntax produces no other operator
      break;
    }
  }
  return stack[0] != 0;
}

} // namespace gpurun
