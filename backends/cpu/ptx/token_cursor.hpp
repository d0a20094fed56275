#pragma once
// Reading position in a token stream, with the error reporting every PTX parsing step shares.

#include <string_view>
#include <vector>

#include "backends/cpu/ptx/lexer.hpp"

namespace gpurun::ptx {

class TokenCursor {
public:
  TokenCursor(const std::vector<Token>& tokens, std::string_view file)
      : m_tokens(tokens), m_file(file) {}

  [[nodiscard]] const Token& peek(std::size_t ahead = 0) const {
    const std::size_t i = m_pos + ahead;
    return i < m_tokens.size() ? m_tokens[i] : m_tokens.back();
  }
  const Token& take() {
    const Token& t = peek();
    if (m_pos < m_tokens.size() - 1) {
      ++m_pos;
    }
    return t;
  }
  [[nodiscard]] bool at_end() const { return peek().kind == Token::Kind::end; }

  /// Consumes the punctuation `c` when it is next.
  bool accept(char c) {
    if (peek().is_punct(c)) {
      take();
      return true;
    }
    return false;
  }
  /// Consumes the punctuation `c` or fails with "expected '<c>' <context>".
  const Token& expect(char c, std::string_view context);
  /// Consumes an identifier or fails with "expected <what>".
  const Token& expect_identifier(std::string_view what);
  /// Consumes an integer literal (optionally negative) and returns its value.
  [[nodiscard]] long long expect_integer(std::string_view what);

  /// Throws gpurun::Error(ExitCode::compile) "FILE:LINE: <what> near '<token>'".
  [[noreturn]] void fail(const Token& at, std::string_view what) const;
  [[noreturn]] void fail(std::string_view what) const { fail(peek(), what); }

  [[nodiscard]] std::string_view file() const { return m_file; }

private:
  const std::vector<Token>& m_tokens;
  std::string_view m_file;
  std::size_t m_pos = 0;
};

} // namespace gpurun::ptx
