#pragma once
// A token stream for the C/C++ declaration parser (pipeline/signature.cpp): enough of C++ lexing to
// find declarations in kernel sources, not a preprocessor.
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::detail {

enum class TokenKind { identifier, number, string, punct };

struct Token {
  TokenKind kind = TokenKind::punct;
  std::string text;
  int line = 1;
};

/// Splits C/C++ source into tokens. Comments, preprocessor directives (with their line
/// continuations) and whitespace are dropped; string and character literals become one token;
/// "::" is one punctuator, every other punctuator is one character (so ">>" closes two template
/// argument lists). Never throws on malformed input: an unterminated comment or literal ends at
/// the end of the text.
[[nodiscard]] std::vector<Token> tokenize(std::string_view source);

/// Joins tokens into normalized text: one space between words, none around punctuation.
[[nodiscard]] std::string join_tokens(const std::vector<Token>& tokens);

} // namespace gpurun::detail
