#include "backends/compilers/source_lex.hpp"

#include <algorithm>
#include <cctype>

namespace gpurun::compilers::scan {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

// Index just past the literal that starts at `i` with quote `q` (escapes honoured; a newline ends
// an unterminated one).
std::size_t skip_quoted(std::string_view s, std::size_t i, char q) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == q) {
      return i + 1;
    } else if (s[i] == '\n') {
      return i;
    }
  }
  return s.size();
}

// R"delim( … )delim" starting at the quote.
std::size_t skip_raw(std::string_view s, std::size_t quote) {
  const std::size_t open = s.find('(', quote);
  if (open == std::string_view::npos)
    return s.size();
  const std::string close = ")" + std::string(s.substr(quote + 1, open - quote - 1)) + "\"";
  const std::size_t end = s.find(close, open);
  return end == std::string_view::npos ? s.size() : end + close.size();
}

int count_lines(std::string_view s, std::size_t from, std::size_t to) {
  return static_cast<int>(std::count(s.begin() + static_cast<std::ptrdiff_t>(from),
                                     s.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
}

} // namespace

std::vector<Lexeme> lex(std::string_view s) {
  std::vector<Lexeme> out;
  std::size_t i = 0;
  int line = 1;
  bool line_start = true;
  const auto push = [&](Kind kind, std::size_t begin, std::size_t end) {
    out.push_back({kind, begin, end, line});
    line += count_lines(s, begin, end);
    line_start = false;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      ++line;
      ++i;
      line_start = true;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') { // a stray continuation
      i += 2;
      ++line;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n')
        i += (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      const std::size_t end = s.find("*/", i + 2);
      const std::size_t stop = end == std::string_view::npos ? s.size() : end + 2;
      line += count_lines(s, i, stop);
      i = stop;
      continue;
    }
    if (c == '#' && line_start) {
      // To the end of the line, following continuations; a block comment may span lines.
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != '\n') {
        if (s[j] == '\\' && j + 1 < s.size() && s[j + 1] == '\n') {
          j += 2;
        } else if (s[j] == '\\' && j + 2 < s.size() && s[j + 1] == '\r' && s[j + 2] == '\n') {
          j += 3;
        } else if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '*') {
          const std::size_t end = s.find("*/", j + 2);
          j = end == std::string_view::npos ? s.size() : end + 2;
        } else if (s[j] == '/' && j + 1 < s.size() && s[j + 1] == '/') {
          while (j < s.size() && s[j] != '\n')
            ++j;
        } else {
          ++j;
        }
      }
      std::size_t end = j;
      while (end > i && (s[end - 1] == '\r' || s[end - 1] == ' ' || s[end - 1] == '\t'))
        --end;
      push(Kind::directive, i, end);
      line += count_lines(s, end, j);
      i = j;
      continue;
    }
    if (ident_start(c)) {
      std::size_t j = i;
      while (j < s.size() && ident_char(s[j]))
        ++j;
      const std::string_view word = s.substr(i, j - i);
      const bool prefix = word == "L" || word == "u" || word == "U" || word == "u8" ||
                          word == "R" || word == "LR" || word == "uR" || word == "UR" ||
                          word == "u8R";
      if (prefix && j < s.size() && (s[j] == '"' || s[j] == '\'')) {
        const std::size_t end =
            word.back() == 'R' && s[j] == '"' ? skip_raw(s, j) : skip_quoted(s, j, s[j]);
        push(Kind::literal, i, end);
        i = end;
        continue;
      }
      push(Kind::identifier, i, j);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
        (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0)) {
      std::size_t j = i + 1;
      while (j < s.size()) {
        const char d = s[j];
        if (ident_char(d) || d == '.' || (d == '\'' && j + 1 < s.size() && ident_char(s[j + 1]))) {
          ++j;
        } else if ((d == '+' || d == '-') &&
                   (s[j - 1] == 'e' || s[j - 1] == 'E' || s[j - 1] == 'p' || s[j - 1] == 'P')) {
          ++j;
        } else {
          break;
        }
      }
      push(Kind::number, i, j);
      i = j;
      continue;
    }
    if (c == '"' || c == '\'') {
      const std::size_t end = skip_quoted(s, i, c);
      push(Kind::literal, i, end);
      i = end;
      continue;
    }
    if (c == ':' && i + 1 < s.size() && s[i + 1] == ':') {
      push(Kind::punct, i, i + 2);
      i += 2;
      continue;
    }
    push(Kind::punct, i, i + 1);
    ++i;
  }
  return out;
}

namespace {

// The directive's keyword ("define", "include" …) and the rest of it.
std::pair<std::string_view, std::string_view> directive_parts(std::string_view d) {
  std::size_t i = 1;
  while (i < d.size() && (d[i] == ' ' || d[i] == '\t'))
    ++i;
  std::size_t j = i;
  while (j < d.size() && ident_char(d[j]))
    ++j;
  return {d.substr(i, j - i), d.substr(j)};
}

std::vector<std::string> identifiers_in(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& l : lex(text))
    if (l.kind == Kind::identifier)
      out.emplace_back(text_of(text, l));
  return out;
}

} // namespace

void collect_macros(std::string_view text, const std::vector<Lexeme>& lexemes, Macros& macros) {
  for (const auto& l : lexemes) {
    if (l.kind != Kind::directive)
      continue;
    const auto [keyword, rest] = directive_parts(text_of(text, l));
    if (keyword != "define")
      continue;
    std::size_t i = 0;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t'))
      ++i;
    std::size_t j = i;
    while (j < rest.size() && ident_char(rest[j]))
      ++j;
    if (j == i)
      continue;
    Macro m;
    m.function_like = j < rest.size() && rest[j] == '(';
    std::size_t body = j;
    if (m.function_like) {
      const std::size_t close = rest.find(')', j);
      body = close == std::string_view::npos ? rest.size() : close + 1;
    }
    std::string replacement(rest.substr(body));
    // Continuations are part of the replacement list.
    for (std::size_t k = replacement.find("\\\n"); k != std::string::npos;
         k = replacement.find("\\\n", k))
      replacement.replace(k, 2, " ");
    m.body_identifiers = identifiers_in(replacement);
    macros[std::string(rest.substr(i, j - i))] = std::move(m);
  }
}

} // namespace gpurun::compilers::scan
