#pragma once
// Splits PTX text into tokens in one pass. Tokens are views into the source text, so the text must
// outlive them. Opcode modifiers and special-register components (`ld.global.f32`, `%tid.x`) come
// out as an identifier followed by directive tokens with `space_before == false`; the parser joins
// them.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::ptx {

struct Token {
  enum class Kind {
    identifier,    ///< ld, %r1, %tid, $L__BB0_2, _Z3fooi, _
    directive,     ///< .reg .b32 .global .x .L1::evict_last
    integer,       ///< 12, 0x1F, 017, 0b101, 12U
    decimal_float, ///< 1.5, 2e10, 9.0
    f32_bits,      ///< 0f3F800000
    f64_bits,      ///< 0d3FF0000000000000
    string,        ///< "nounroll" (text without the quotes)
    punct,         ///< one of , ; : ( ) [ ] { } < > + - @ ! | =
    end,           ///< end of input
  };
  Kind kind = Kind::end;
  std::string_view text;
  int line = 0;
  bool space_before = true; ///< whitespace or a comment separates it from the previous token

  [[nodiscard]] bool is_punct(char c) const {
    return kind == Kind::punct && text.size() == 1 && text[0] == c;
  }
  [[nodiscard]] bool is_directive(std::string_view name) const {
    return kind == Kind::directive && text == name;
  }
};

/// Produces the tokens of `text` one at a time, so that parsing needs no token array. The text
/// must outlive the stream and its tokens.
class TokenStream {
public:
  TokenStream(std::string_view text, std::string_view file_name);
  ~TokenStream();
  TokenStream(TokenStream&&) noexcept;
  TokenStream& operator=(TokenStream&&) noexcept;

  /// The next token; Kind::end at the end, again on every later call. Throws
  /// gpurun::Error(ExitCode::compile) "FILE:LINE: unexpected character near 'c'" for text that is
  /// no PTX token.
  [[nodiscard]] Token next();

private:
  class Impl;
  std::unique_ptr<Impl> m_impl;
};

/// Tokenizes `text`; the last token is always Kind::end. Throws gpurun::Error(ExitCode::compile)
/// "FILE:LINE: unexpected character near 'c'" for text that is no PTX token.
[[nodiscard]] std::vector<Token> tokenize(std::string_view text, std::string_view file_name);

/// A token's text as shown in error messages (`end of file` for the end token).
[[nodiscard]] std::string describe(const Token& token);

} // namespace gpurun::ptx
