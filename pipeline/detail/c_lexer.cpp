#include "pipeline/detail/c_lexer.hpp"

#include <cctype>

namespace gpurun::detail {
namespace {

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

} // namespace

std::vector<Token> tokenize(std::string_view src) {
  std::vector<Token> out;
  std::size_t i = 0;
  int line = 1;
  // A '#' only starts a directive as the first non-blank character of a line.
  bool at_line_start = true;
  const std::size_t n = src.size();
  while (i < n) {
    char c = src[i];
    if (c == '\n') {
      ++line;
      ++i;
      at_line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && src[i + 1] == '\n') { // line splice outside a directive
      i += 2;
      ++line;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') {
        // A backslash-newline continues a // comment onto the next line.
        if (src[i] == '\\' && i + 1 < n && src[i + 1] == '\n') {
          ++line;
          ++i;
        }
        ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      i += 2;
      while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
        if (src[i] == '\n')
          ++line;
        ++i;
      }
      i = i < n ? i + 2 : n;
      continue;
    }
    if (c == '#' && at_line_start) {
      // Directives are skipped whole: macros are not expanded, so a kernel hidden behind a macro
      // is simply not seen (and cannot crash the parser).
      while (i < n && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n && (src[i + 1] == '\n' || src[i + 1] == '\r')) {
          if (src[i + 1] == '\r' && i + 2 < n && src[i + 2] == '\n')
            ++i;
          ++line;
          i += 2;
          continue;
        }
        if (src[i] == '/' && i + 1 < n && src[i + 1] == '*') { // block comment inside a directive
          i += 2;
          while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
            if (src[i] == '\n')
              ++line;
            ++i;
          }
          i = i < n ? i + 2 : n;
          continue;
        }
        ++i;
      }
      continue;
    }
    at_line_start = false;
    Token t;
    t.line = line;
    if (c == '"' || c == '\'') {
      std::size_t start = i++;
      while (i < n && src[i] != c && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n)
          ++i;
        ++i;
      }
      if (i < n && src[i] == c)
        ++i;
      t.kind = TokenKind::string;
      t.text = std::string(src.substr(start, i - start));
    } else if (is_ident_start(c)) {
      std::size_t start = i;
      while (i < n && is_ident_char(src[i]))
        ++i;
      t.kind = TokenKind::identifier;
      t.text = std::string(src.substr(start, i - start));
      // Raw strings and prefixed literals (u8"…", L'x') are rare in kernels; the prefix is
      // folded into the literal so that a quote inside it cannot derail the scan.
      if (i < n && (src[i] == '"' || src[i] == '\'') &&
          (t.text == "u8" || t.text == "u" || t.text == "U" || t.text == "L")) {
        continue; // the literal itself is lexed next; the prefix is dropped
      }
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
               (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      std::size_t start = i;
      while (i < n &&
             (is_ident_char(src[i]) || src[i] == '.' || src[i] == '\'' ||
              ((src[i] == '+' || src[i] == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E' ||
                                                    src[i - 1] == 'p' || src[i - 1] == 'P')))) {
        ++i;
      }
      t.kind = TokenKind::number;
      t.text = std::string(src.substr(start, i - start));
    } else if (c == ':' && i + 1 < n && src[i + 1] == ':') {
      t.text = "::";
      i += 2;
    } else {
      t.text = std::string(1, c);
      ++i;
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::string join_tokens(const std::vector<Token>& tokens) {
  std::string out;
  bool prev_word = false;
  for (const auto& t : tokens) {
    bool word = t.kind != TokenKind::punct;
    if (word && prev_word)
      out += ' ';
    out += t.text;
    prev_word = word;
  }
  return out;
}

} // namespace gpurun::detail
