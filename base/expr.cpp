#include "base/expr.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {

constexpr WideInt k_wide_max = static_cast<WideInt>(~static_cast<unsigned __int128>(0) >> 1);

/// Recursive-descent evaluator; positions are indexes into `m_text`.
class IntParser {
public:
  IntParser(std::string_view text, const SourceText& where) : m_text(text), m_where(where) {}

  WideInt parse() {
    skip_space();
    if (m_pos == m_text.size())
      fail(m_pos, "expected a number");
    const WideInt v = shift();
    skip_space();
    if (m_pos != m_text.size())
      unexpected();
    return v;
  }

private:
  [[noreturn]] void fail(std::size_t pos, std::string_view what) const {
    throw_at(m_where, pos, what);
  }

  [[noreturn]] void unexpected() const {
    const char c = m_text[m_pos];
    if (c == '^')
      fail(m_pos, "'^' is not an operator (write ** for powers, e.g. 2**20)");
    if (c == ')')
      fail(m_pos, "unmatched ')'");
    fail(m_pos, fmt::format("unexpected '{}'", c));
  }

  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
      ++m_pos;
  }

  bool accept(std::string_view op) {
    skip_space();
    if (m_text.substr(m_pos, op.size()) != op)
      return false;
    m_pos += op.size();
    return true;
  }

  [[nodiscard]] char peek() {
    skip_space();
    return m_pos < m_text.size() ? m_text[m_pos] : '\0';
  }

  void check_overflow(bool overflowed, std::size_t op_pos) const {
    if (overflowed)
      fail(op_pos, "integer overflow");
  }

  WideInt shift() {
    WideInt v = additive();
    for (;;) {
      skip_space();
      const std::size_t op_pos = m_pos;
      const bool left = accept("<<");
      if (!left && !accept(">>"))
        return v;
      const WideInt amount = additive();
      if (amount < 0 || amount > 126)
        fail(op_pos, "shift amount must be 0 to 126");
      if (left) {
        const WideInt factor = static_cast<WideInt>(1) << static_cast<int>(amount);
        check_overflow(__builtin_mul_overflow(v, factor, &v), op_pos);
      } else {
        v >>= static_cast<int>(amount);
      }
    }
  }

  WideInt additive() {
    WideInt v = term();
    for (;;) {
      const char c = peek();
      if (c != '+' && c != '-')
        return v;
      const std::size_t op_pos = m_pos++;
      const WideInt rhs = term();
      check_overflow(c == '+' ? __builtin_add_overflow(v, rhs, &v)
                              : __builtin_sub_overflow(v, rhs, &v),
                     op_pos);
    }
  }

  WideInt term() {
    WideInt v = unary();
    for (;;) {
      const char c = peek();
      // "**" belongs to power(), which has already consumed it when it applies.
      if (c != '*' && c != '/' && c != '%')
        return v;
      const std::size_t op_pos = m_pos++;
      const WideInt rhs = unary();
      if (c == '*') {
        check_overflow(__builtin_mul_overflow(v, rhs, &v), op_pos);
      } else {
        if (rhs == 0)
          fail(op_pos, "division by zero");
        if (v == -k_wide_max - 1 && rhs == -1)
          fail(op_pos, "integer overflow");
        v = c == '/' ? v / rhs : v % rhs;
      }
    }
  }

  WideInt unary() {
    const char c = peek();
    if (c == '-' || c == '+') {
      const std::size_t op_pos = m_pos++;
      const WideInt v = unary();
      if (c == '-' && v == -k_wide_max - 1)
        fail(op_pos, "integer overflow");
      return c == '-' ? -v : v;
    }
    return power();
  }

  WideInt power() {
    const WideInt base = primary();
    skip_space();
    const std::size_t op_pos = m_pos;
    if (!accept("**"))
      return base;
    const WideInt exponent = unary();
    if (exponent < 0)
      fail(op_pos, "negative exponent in an integer expression");
    // |base| < 2 would never overflow, so answer those without looping up to the exponent.
    if (base == 0)
      return exponent == 0 ? 1 : 0;
    if (base == 1)
      return 1;
    if (base == -1)
      return exponent % 2 == 0 ? 1 : -1;
    WideInt result = 1;
    for (WideInt i = 0; i < exponent; ++i)
      check_overflow(__builtin_mul_overflow(result, base, &result), op_pos);
    return result;
  }

  WideInt primary() {
    const char c = peek();
    if (c == '(') {
      const std::size_t open = m_pos++;
      const WideInt v = shift();
      if (!accept(")")) {
        if (m_pos == m_text.size())
          fail(open, "unclosed '('");
        unexpected();
      }
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)))
      return literal();
    if (m_pos == m_text.size())
      fail(m_pos, "expected a number");
    if (c == '^' || c == ')')
      unexpected();
    fail(m_pos, fmt::format("expected a number, found '{}'", c));
  }

  WideInt literal() {
    const std::size_t start = m_pos;
    int base = 10;
    if (m_text.substr(m_pos, 2) == "0x" || m_text.substr(m_pos, 2) == "0X")
      base = 16;
    if (m_text.substr(m_pos, 2) == "0b" || m_text.substr(m_pos, 2) == "0B")
      base = 2;
    if (base != 10)
      m_pos += 2;
    const std::size_t digits_start = m_pos;
    WideInt v = 0;
    while (m_pos < m_text.size()) {
      const char ch = m_text[m_pos];
      int d;
      if (std::isdigit(static_cast<unsigned char>(ch)))
        d = ch - '0';
      else if (base == 16 && std::isxdigit(static_cast<unsigned char>(ch)))
        d = std::tolower(static_cast<unsigned char>(ch)) - 'a' + 10;
      else
        break;
      if (d >= base)
        fail(m_pos, fmt::format("'{}' is not a base-{} digit", ch, base));
      if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v))
        fail(start, "integer literal too large");
      ++m_pos;
    }
    if (m_pos == digits_start)
      fail(m_pos, base == 16 ? "expected hex digits" : "expected 0 or 1");
    if (base == 10 && m_pos < m_text.size() && m_text[m_pos] == '.')
      fail(start, "expected an integer, found a floating-point number");
    if (base == 10 && m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E'))
      fail(start, "expected an integer, found a floating-point number (write 10**N for powers "
                  "of ten)");
    if (m_pos < m_text.size() &&
        (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
      unexpected();
    return v;
  }

  std::string_view m_text;
  SourceText m_where;
  std::size_t m_pos = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

} // namespace

void throw_at(const SourceText& where, std::size_t pos, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {} at position {}", where.field, where.whole, what,
                                where.offset + pos + 1));
}

void throw_whole(const SourceText& where, std::string_view what) {
  throw usage_error(fmt::format("{} '{}': {}", where.field, where.whole, what));
}

WideInt eval_wide_int(std::string_view text, const SourceText& where) {
  return IntParser(text, where).parse();
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
