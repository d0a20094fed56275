#include "base/arithmetic.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/expression_parser.hpp"

namespace gpurun {

namespace {

constexpr WideInt k_wide_max = static_cast<WideInt>(~static_cast<unsigned __int128>(0) >> 1);
constexpr WideInt k_wide_min = -k_wide_max - 1;

// Values this long are quoted by their beginning only, so that an error stays one line.
constexpr std::size_t k_quoted_max = 200;

std::string quoted(std::string_view whole) {
  if (whole.size() <= k_quoted_max)
    return std::string(whole);
  return fmt::format("{}… ({} characters)", whole.substr(0, k_quoted_max / 2), whole.size());
}

expression::Syntax int_syntax() {
  expression::Syntax s;
  s.power_and_shifts = true;
  s.unary_plus = true;
  s.binary_literals = true;
  s.max_literal = k_wide_max;
  return s;
}

// A token that cannot continue an expression: "2^20", "1+2)", "12 3".
std::string unexpected(const expression::Token& t) {
  const char c = t.text.front();
  if (c == '^')
    return "'^' is not an operator (write ** for powers, e.g. 2**20)";
  if (c == ')')
    return "unmatched ')'";
  return fmt::format("unexpected '{}'", c);
}

[[noreturn]] void throw_number_problem(const expression::Token& t, const SourceText& where) {
  using Problem = expression::Token::NumberProblem;
  switch (t.number_problem) {
  case Problem::no_digits:
    throw_at(where, t.problem_pos, t.base == 16 ? "expected hex digits" : "expected 0 or 1");
  case Problem::bad_digit:
    throw_at(where, t.problem_pos,
             fmt::format("'{}' is not a base-{} digit", t.text[t.problem_pos - t.pos], t.base));
  case Problem::too_large:
    throw_at(where, t.pos, "integer literal too large");
  case Problem::decimal_point:
    throw_at(where, t.pos, "expected an integer, found a floating-point number");
  case Problem::exponent:
    throw_at(where, t.pos,
             "expected an integer, found a floating-point number (write 10**N for powers of ten)");
  case Problem::trailing:
  case Problem::none:
    break;
  }
  throw_at(where, t.problem_pos, fmt::format("unexpected '{}'", t.text[t.problem_pos - t.pos]));
}

[[noreturn]] void throw_problem(const expression::Problem& p, const SourceText& where) {
  using Kind = expression::Problem::Kind;
  const expression::Token& t = p.token;
  switch (p.kind) {
  case Kind::too_long:
    throw_whole(where, fmt::format("longer than {} characters", expression::k_max_length));
  case Kind::too_deep:
    throw_at(where, p.pos,
             fmt::format("nesting too deep (more than {} levels)", expression::k_max_depth));
  case Kind::unclosed:
    throw_at(where, p.pos, "unclosed '('");
  case Kind::expected_operator:
  case Kind::expected_close:
  case Kind::chained_comparison:
    throw_at(where, t.pos, unexpected(t));
  case Kind::expected_operand:
  case Kind::unknown_name:
    break;
  }
  if (t.kind == expression::Token::Kind::end)
    throw_at(where, t.pos, "expected a number");
  if (t.kind == expression::Token::Kind::bad_number)
    throw_number_problem(t, where);
  const char c = t.text.front();
  if (c == '^' || c == ')')
    throw_at(where, t.pos, unexpected(t));
  throw_at(where, t.pos, fmt::format("expected a number, found '{}'", c));
}

WideInt power(WideInt base, WideInt exponent, const SourceText& where, std::size_t pos) {
  if (exponent < 0)
    throw_at(where, pos, "negative exponent in an integer expression");
  // |base| < 2 would never overflow, so answer those without looping up to the exponent.
  if (base == 0)
    return exponent == 0 ? 1 : 0;
  if (base == 1)
    return 1;
  if (base == -1)
    return exponent % 2 == 0 ? 1 : -1;
  WideInt result = 1;
  for (WideInt i = 0; i < exponent; ++i) {
    if (__builtin_mul_overflow(result, base, &result))
      throw_at(where, pos, "integer overflow");
  }
  return result;
}

// Evaluates the postfix program with overflow checks; errors point at the operator.
WideInt evaluate(const expression::Program& program, const SourceText& where) {
  using expression::Op;
  std::vector<WideInt> stack;
  stack.reserve(program.stack_size);
  for (const expression::Step& step : program.steps) {
    const auto overflow = [&](bool overflowed) {
      if (overflowed)
        throw_at(where, step.pos, "integer overflow");
    };
    if (step.op == Op::constant) {
      stack.push_back(step.value);
      continue;
    }
    if (step.op == Op::negate) {
      overflow(stack.back() == k_wide_min);
      stack.back() = -stack.back();
      continue;
    }
    if (step.op == Op::plus)
      continue;
    const WideInt rhs = stack.back();
    stack.pop_back();
    WideInt& v = stack.back();
    switch (step.op) {
    case Op::add:
      overflow(__builtin_add_overflow(v, rhs, &v));
      break;
    case Op::sub:
      overflow(__builtin_sub_overflow(v, rhs, &v));
      break;
    case Op::mul:
      overflow(__builtin_mul_overflow(v, rhs, &v));
      break;
    case Op::div:
    case Op::mod:
      if (rhs == 0)
        throw_at(where, step.pos, "division by zero");
      overflow(v == k_wide_min && rhs == -1);
      v = step.op == Op::div ? v / rhs : v % rhs;
      break;
    case Op::shl:
    case Op::shr:
      if (rhs < 0 || rhs > 126)
        throw_at(where, step.pos, "shift amount must be 0 to 126");
      if (step.op == Op::shl)
        overflow(__builtin_mul_overflow(v, static_cast<WideInt>(1) << static_cast<int>(rhs), &v));
      else
        v >>= static_cast<int>(rhs);
      break;
    case Op::power:
      v = power(v, rhs, where, step.pos);
      break;
    default:
      throw_at(where, step.pos, "not an integer operator"); // the syntax does not produce these
    }
  }
  return stack.back();
}
} // namespace

void throw_at(const SourceText& where, std::size_t pos, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {} at position {}", where.field, quoted(where.whole),
                                what, where.offset + pos + 1));
}

void throw_whole(const SourceText& where, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {}", where.field, quoted(where.whole), what));
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

WideInt eval_wide_int(std::string_view text, const SourceText& where) {
  try {
    return evaluate(expression::parse(text, int_syntax()), where);
  } catch (const expression::ParseError& e) {
    throw_problem(e.problem(), where);
  }
}

long long eval_int_expr(std::string_view text, std::string_view field) {
  const SourceText where{field, text, 0};
  const WideInt v = eval_wide_int(text, where);
  if (v < std::numeric_limits<long long>::min() || v > std::numeric_limits<long long>::max())
    throw_whole(where,
                fmt::format("{} does not fit in a signed 64-bit integer", wide_to_string(v)));
  return static_cast<long long>(v);
}

double eval_number(std::string_view text, std::string_view field) {
  return eval_number(text, SourceText{field, text, 0});
}

double eval_number(std::string_view text, const SourceText& where) {
  // Keep positions relative to `text` while ignoring surrounding blanks.
  const std::string_view body = trim(text);
  const std::size_t lead = static_cast<std::size_t>(body.data() - text.data());
  std::string_view digits = body;
  bool negative = false;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  const std::size_t used = static_cast<std::size_t>(end - digits.data());
  // from_chars would read "0x10" as 0 and stop: hex and operators go to the integer evaluator.
  if (ec == std::errc() && used == digits.size() && !digits.empty())
    return negative ? -value : value;
  if (ec == std::errc::result_out_of_range)
    throw_whole(where, fmt::format("'{}' is out of the range of a double", body));
  const std::string_view prefix = digits.substr(0, ec == std::errc() ? used : 0);
  const bool looks_float = prefix.find_first_of(".eEiInN") != std::string_view::npos;
  if (looks_float)
    throw_at(where, lead + (body.size() - digits.size()) + used,
             fmt::format("unexpected '{}' after the number", digits[used]));
  return static_cast<double>(eval_wide_int(text, where));
}

std::pair<WideInt, WideInt> int_range(DType type) {
  const auto bits = static_cast<int>(dtype_size(type) * 8);
  if (is_signed_int(type))
    return {-(static_cast<WideInt>(1) << (bits - 1)), (static_cast<WideInt>(1) << (bits - 1)) - 1};
  return {0, (static_cast<WideInt>(1) << bits) - 1};
}

WideInt eval_int_for(DType type, std::string_view text, const SourceText& where) {
  const WideInt v = eval_wide_int(text, where);
  const auto [lo, hi] = int_range(type);
  if (v < lo || v > hi)
    throw_at(where, 0,
             fmt::format("{} is out of range for {} ({} to {})", wide_to_string(v),
                         dtype_name(type), wide_to_string(lo), wide_to_string(hi)));
  return v;
}

std::string wide_to_string(WideInt v) {
  if (v == 0)
    return "0";
  const bool negative = v < 0;
  auto magnitude =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

} // namespace gpurun
