#pragma once
// C/C++ source as lexemes that keep their byte offsets and lines, preprocessor directives
// included, and the macros a text defines: what source_scan reads declarations from and
// whole_file rewrites includes in. Not a preprocessor: nothing is expanded.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::compilers::scan {

enum class Kind { identifier, number, literal, punct, directive };

struct Lexeme {
  Kind kind = Kind::punct;
  std::size_t begin = 0; ///< byte offset in the text
  std::size_t end = 0;   ///< one past the last byte
  int line = 1;          ///< 1-based line of the first byte
};

/// Splits source text into lexemes. Comments and whitespace are skipped; a preprocessor directive
/// (with its continuation lines) is one lexeme; string, character and raw string literals are one
/// lexeme each; "::" is one punctuator, every other punctuator one character. Never throws: an
/// unterminated comment or literal ends at the end of the text.
[[nodiscard]] std::vector<Lexeme> lex(std::string_view text);

/// The macros a text defines: name → the identifiers of its replacement list, and whether it takes
/// arguments.
struct Macro {
  bool function_like = false;
  std::vector<std::string> body_identifiers;
};
using Macros = std::map<std::string, Macro, std::less<>>;

/// Adds the `#define`s among `lexemes` to `macros` (a later definition replaces an earlier one).
void collect_macros(std::string_view text, const std::vector<Lexeme>& lexemes, Macros& macros);

/// The text of lexeme `l`.
[[nodiscard]] inline std::string_view text_of(std::string_view text, const Lexeme& l) {
  return text.substr(l.begin, l.end - l.begin);
}

} // namespace gpurun::compilers::scan
