#include "backends/cpu/ptx/lexer.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun::ptx {
namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c == '%';
}
bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_punct_char(char c) {
  switch (c) {
  case ',':
  case ';':
  case ':':
  case '(':
  case ')':
  case '[':
  case ']':
  case '{':
  case '}':
  case '<':
  case '>':
  case '+':
  case '-':
  case '@':
  case '!':
  case '|':
  case '=':
    return true;
  default:
    return false;
  }
}

} // namespace

class TokenStream::Impl {
public:
  Impl(std::string_view text, std::string_view file) : m_text(text), m_file(file) {}

  Token next_token() {
    const bool space = skip_space_and_comments() || m_at_start;
    m_at_start = false;
    if (m_pos >= m_text.size()) {
      return Token{Token::Kind::end, {}, m_line, true};
    }
    Token t = next();
    t.space_before = space;
    return t;
  }

private:
  // Returns whether anything was skipped.
  bool skip_space_and_comments() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == '\n') {
        ++m_line;
        ++m_pos;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++m_pos;
      } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '/') {
        while (m_pos < m_text.size() && m_text[m_pos] != '\n') {
          ++m_pos;
        }
      } else if (c == '/' && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == '*') {
        const int open_line = m_line;
        m_pos += 2;
        while (m_pos + 1 < m_text.size() && !(m_text[m_pos] == '*' && m_text[m_pos + 1] == '/')) {
          if (m_text[m_pos] == '\n') {
            ++m_line;
          }
          ++m_pos;
        }
        if (m_pos + 1 >= m_text.size()) {
          throw Error(ExitCode::compile,
                      fmt::format("{}:{}: unterminated comment near '/*'", m_file, open_line));
        }
        m_pos += 2;
      } else {
        break;
      }
    }
    return m_pos != start;
  }

  Token make(Token::Kind kind, std::size_t start) {
    return Token{kind, m_text.substr(start, m_pos - start), m_line, false};
  }

  Token next() {
    const std::size_t start = m_pos;
    const char c = m_text[m_pos];
    if (is_ident_start(c)) {
      // PTX: [a-zA-Z]{followsym}* | [_$%]{followsym}+ — a lone '_' is the sink operand.
      if ((c == '%' || c == '$') &&
          (m_pos + 1 >= m_text.size() || !is_ident_char(m_text[m_pos + 1]))) {
        throw Error(ExitCode::compile, fmt::format("{}:{}: '{}' must be followed by a letter, "
                                                   "digit, '_' or '$' in an identifier",
                                                   m_file, m_line, c));
      }
      ++m_pos;
      while (m_pos < m_text.size() && is_ident_char(m_text[m_pos])) {
        ++m_pos;
      }
      return make(Token::Kind::identifier, start);
    }
    if (c == '.' && m_pos + 1 < m_text.size() && is_ident_char(m_text[m_pos + 1])) {
      ++m_pos;
      while (m_pos < m_text.size()) {
        if (is_ident_char(m_text[m_pos])) {
          ++m_pos;
        } else if (m_text[m_pos] == ':' && m_pos + 2 < m_text.size() && m_text[m_pos + 1] == ':' &&
                   is_ident_char(m_text[m_pos + 2])) {
          m_pos += 2; // cache-policy modifiers such as .L1::evict_last
        } else {
          break;
        }
      }
      return make(Token::Kind::directive, start);
    }
    if (is_digit(c)) {
      return number(start);
    }
    if (c == '"') {
      ++m_pos;
      while (m_pos < m_text.size() && m_text[m_pos] != '"' && m_text[m_pos] != '\n') {
        if (m_text[m_pos] == '\\' && m_pos + 1 < m_text.size()) {
          ++m_pos;
        }
        ++m_pos;
      }
      if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
        throw Error(ExitCode::compile,
                    fmt::format("{}:{}: unterminated string near '{}'", m_file, m_line,
                                m_text.substr(start, std::min<std::size_t>(m_pos - start, 20))));
      }
      ++m_pos;
      return Token{Token::Kind::string, m_text.substr(start + 1, m_pos - start - 2), m_line, false};
    }
    if (is_punct_char(c)) {
      ++m_pos;
      return make(Token::Kind::punct, start);
    }
    throw Error(ExitCode::compile, fmt::format("{}:{}: unexpected character near '{}'", m_file,
                                               m_line, m_text.substr(start, 1)));
  }

  Token number(std::size_t start) {
    auto hex_run = [&] {
      while (m_pos < m_text.size() && is_hex(m_text[m_pos])) {
        ++m_pos;
      }
    };
    auto unsigned_suffix = [&] {
      if (m_pos < m_text.size() && (m_text[m_pos] == 'U' || m_text[m_pos] == 'u')) {
        ++m_pos;
      }
    };
    if (m_text[m_pos] == '0' && m_pos + 1 < m_text.size()) {
      const char p = m_text[m_pos + 1];
      if (p == 'f' || p == 'F' || p == 'd' || p == 'D') {
        m_pos += 2;
        hex_run();
        const std::size_t want = (p == 'f' || p == 'F') ? 10 : 18;
        if (m_pos - start != want) {
          throw Error(ExitCode::compile,
                      fmt::format("{}:{}: malformed float literal near '{}'", m_file, m_line,
                                  m_text.substr(start, m_pos - start)));
        }
        return make((p == 'f' || p == 'F') ? Token::Kind::f32_bits : Token::Kind::f64_bits, start);
      }
      if (p == 'x' || p == 'X' || p == 'b' || p == 'B') {
        m_pos += 2;
        hex_run(); // binary digits are a subset; the parser validates them
        unsigned_suffix();
        return finish_number(start, Token::Kind::integer);
      }
    }
    while (m_pos < m_text.size() && is_digit(m_text[m_pos])) {
      ++m_pos;
    }
    bool is_float = false;
    if (m_pos < m_text.size() && m_text[m_pos] == '.' &&
        !(m_pos + 1 < m_text.size() &&
          (is_ident_char(m_text[m_pos + 1]) && !is_digit(m_text[m_pos + 1]) &&
           m_text[m_pos + 1] != 'e' && m_text[m_pos + 1] != 'E'))) {
      is_float = true;
      ++m_pos;
      while (m_pos < m_text.size() && is_digit(m_text[m_pos])) {
        ++m_pos;
      }
    }
    if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
      std::size_t p = m_pos + 1;
      if (p < m_text.size() && (m_text[p] == '+' || m_text[p] == '-')) {
        ++p;
      }
      if (p < m_text.size() && is_digit(m_text[p])) {
        is_float = true;
        m_pos = p;
        while (m_pos < m_text.size() && is_digit(m_text[m_pos])) {
          ++m_pos;
        }
      }
    }
    if (!is_float) {
      unsigned_suffix();
    }
    return finish_number(start, is_float ? Token::Kind::decimal_float : Token::Kind::integer);
  }

  // A number glued to identifier characters (`12abc`) is a typo, not two tokens.
  Token finish_number(std::size_t start, Token::Kind kind) {
    if (m_pos < m_text.size() && is_ident_char(m_text[m_pos])) {
      std::size_t end = m_pos;
      while (end < m_text.size() && is_ident_char(m_text[end])) {
        ++end;
      }
      throw Error(ExitCode::compile, fmt::format("{}:{}: malformed number near '{}'", m_file,
                                                 m_line, m_text.substr(start, end - start)));
    }
    return make(kind, start);
  }

  std::string_view m_text;
  std::string_view m_file;
  std::size_t m_pos = 0;
  int m_line = 1;
  bool m_at_start = true;
};

TokenStream::TokenStream(std::string_view text, std::string_view file_name)
    : m_impl(std::make_unique<Impl>(text, file_name)) {}
TokenStream::~TokenStream() = default;
TokenStream::TokenStream(TokenStream&&) noexcept = default;
TokenStream& TokenStream::operator=(TokenStream&&) noexcept = default;

Token TokenStream::next() {
  return m_impl->next_token();
}

std::vector<Token> tokenize(std::string_view text, std::string_view file_name) {
  TokenStream stream(text, file_name);
  std::vector<Token> tokens;
  while (true) {
    tokens.push_back(stream.next());
    if (tokens.back().kind == Token::Kind::end) {
      return tokens;
    }
  }
}

std::string describe(const Token& token) {
  if (token.kind == Token::Kind::end) {
    return "end of file";
  }
  if (token.kind == Token::Kind::string) {
    return fmt::format("\"{}\"", token.text);
  }
  return std::string(token.text);
}

} // namespace gpurun::ptx
