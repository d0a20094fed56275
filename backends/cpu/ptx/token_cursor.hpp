#pragma once
// Reading position in a token stream (a few tokens of lookahead over the lexer), with the error
// reporting every PTX parsing step shares.

#include <string_view>

#include "backends/cpu/ptx/lexer.hpp"

namespace gpurun::ptx {

class TokenCursor {
public:
  TokenCursor(std::string_view text, std::string_view file) : m_stream(text, file), m_file(file) {}

  /// The token `ahead` positions on (at most kLookahead - 1); valid until the next take().
  [[nodiscard]] const Token& peek(std::size_t ahead = 0) {
    while (m_count <= ahead) {
      m_ahead[(m_head + m_count) % kLookahead] = m_stream.next();
      ++m_count;
    }
    return m_ahead[(m_head + ahead) % kLookahead];
  }
  Token take() {
    const Token t = peek();
    if (t.kind != Token::Kind::end) {
      m_head = (m_head + 1) % kLookahead;
      --m_count;
    }
    return t;
  }
  [[nodiscard]] bool at_end() { return peek().kind == Token::Kind::end; }

  /// Consumes the punctuation `c` when it is next.
  bool accept(char c) {
    if (peek().is_punct(c)) {
      take();
      return true;
    }
    return false;
  }
  /// Consumes the punctuation `c` or fails with "expected '<c>' <context>".
  Token expect(char c, std::string_view context);
  /// Consumes an identifier or fails with "expected <what>".
  Token expect_identifier(std::string_view what);
  /// Consumes an integer literal (optionally negative) and returns its value.
  [[nodiscard]] long long expect_integer(std::string_view what);

  /// Throws gpurun::Error(ExitCode::compile) "FILE:LINE: <what> near '<token>'".
  [[noreturn]] void fail(const Token& at, std::string_view what) const;
  [[noreturn]] void fail(std::string_view what) { fail(peek(), what); }

  [[nodiscard]] std::string_view file() const { return m_file; }

private:
  static constexpr std::size_t kLookahead = 4;
  TokenStream m_stream;
  std::string_view m_file;
  Token m_ahead[kLookahead];
  std::size_t m_head = 0;
  std::size_t m_count = 0;
};

} // namespace gpurun::ptx
