#include "backends/cpu/ptx/token_cursor.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "backends/cpu/ptx/literals.hpp"
#include "base/error.hpp"

namespace gpurun::ptx {

void TokenCursor::fail(const Token& at, std::string_view what) const {
  throw Error(ExitCode::compile,
              fmt::format("{}:{}: {} near '{}'", m_file, at.line, what, describe(at)));
}

Token TokenCursor::expect(char c, std::string_view context) {
  if (!peek().is_punct(c)) {
    fail(fmt::format("expected '{}' {}", c, context));
  }
  return take();
}

Token TokenCursor::expect_identifier(std::string_view what) {
  if (peek().kind != Token::Kind::identifier) {
    fail(fmt::format("expected {}", what));
  }
  return take();
}

long long TokenCursor::expect_integer(std::string_view what) {
  const bool negative = accept('-');
  if (peek().kind != Token::Kind::integer) {
    fail(fmt::format("expected {}", what));
  }
  const Token t = take();
  const auto value = parse_integer_literal(t.text);
  if (!value) {
    fail(t, fmt::format("malformed integer for {}", what));
  }
  // The magnitude as written: up to 2^63 - 1, or 2^63 after a '-'.
  constexpr std::uint64_t most = std::uint64_t{1} << 63;
  if (*value > (negative ? most : most - 1)) {
    fail(t, fmt::format("{} is out of range", what));
  }
  return negative ? static_cast<long long>(0 - *value) : static_cast<long long>(*value);
}

} // namespace gpurun::ptx
