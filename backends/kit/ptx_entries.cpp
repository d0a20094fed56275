#include "backends/kit/ptx_entries.hpp"

#include <charconv>

#include <fmt/format.h>

namespace gpurun::kit {
namespace {

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// PTX identifiers: [A-Za-z_$%] followed by [A-Za-z0-9_$]*.
bool is_follow(char c) {
  return is_letter(c) || is_digit(c) || c == '_' || c == '$';
}

struct Token {
  enum class Kind { directive, identifier, number, string, punct, end };
  Kind kind = Kind::end;
  std::string_view text;
  int line = 0;

  [[nodiscard]] bool is_punct(char c) const {
    return kind == Kind::punct && text.size() == 1 && text[0] == c;
  }
  [[nodiscard]] bool is_directive(std::string_view name) const {
    return kind == Kind::directive && text == name;
  }
};

// Just enough of PTX's lexical structure to find `.entry` declarations: comments and strings are
// skipped whole, so that neither can be mistaken for a declaration.
class Lexer {
public:
  Lexer(std::string_view text, int first_line) : m_text(text), m_line(first_line) {}

  Token next() {
    skip_blanks();
    Token t;
    t.line = m_line;
    if (m_pos >= m_text.size())
      return t;
    const std::size_t start = m_pos;
    const char c = m_text[m_pos++];
    if (c == '.' && m_pos < m_text.size() && is_follow(m_text[m_pos])) {
      t.kind = Token::Kind::directive;
      take_while(is_follow);
    } else if (is_letter(c) || c == '_' || c == '$' || c == '%') {
      t.kind = Token::Kind::identifier;
      take_while(is_follow);
    } else if (is_digit(c)) {
      t.kind = Token::Kind::number;
      take_while([](char d) { return is_follow(d) || d == '.'; });
    } else if (c == '"') {
      t.kind = Token::Kind::string;
      while (m_pos < m_text.size() && m_text[m_pos] != '"') {
        if (m_text[m_pos] == '\\')
          ++m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == '\n')
          ++m_line;
        ++m_pos;
      }
      m_pos = std::min(m_pos + 1, m_text.size());
    } else {
      t.kind = Token::Kind::punct;
    }
    t.text = m_text.substr(start, m_pos - start);
    return t;
  }

private:
  template <class Pred> void take_while(Pred pred) {
    while (m_pos < m_text.size() && pred(m_text[m_pos]))
      ++m_pos;
  }

  void skip_blanks() {
    while (m_pos < m_text.size()) {
      const char c = m_text[m_pos];
      if (c == '\n') {
        ++m_line;
        ++m_pos;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++m_pos;
      } else if (m_text.compare(m_pos, 2, "//") == 0) {
        const auto nl = m_text.find('\n', m_pos);
        m_pos = nl == std::string_view::npos ? m_text.size() : nl;
      } else if (m_text.compare(m_pos, 2, "/*") == 0) {
        const auto end = m_text.find("*/", m_pos + 2);
        const auto stop = end == std::string_view::npos ? m_text.size() : end + 2;
        for (; m_pos < stop; ++m_pos)
          m_line += m_text[m_pos] == '\n' ? 1 : 0;
      } else {
        return;
      }
    }
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
  int m_line;
};

// Far beyond the parameter space of any GPU (32764 bytes since sm_70): sizes, alignments and
// offsets are refused above it, so that none of them can wrap around.
constexpr std::size_t k_max_param_bytes = std::size_t{1} << 20;

std::size_t align_up(std::size_t offset, std::size_t align) {
  return align <= 1 ? offset : (offset + align - 1) / align * align;
}

// Reads parameter lists from a token stream; one token of lookahead.
class ListParser {
public:
  explicit ListParser(Lexer& in) : m_in(in), m_tok(in.next()) {}

  [[nodiscard]] const Token& peek() const { return m_tok; }
  Token take() {
    Token t = m_tok;
    m_tok = m_in.next();
    return t;
  }

  // `( .param …, … )` with the layout of the parameter buffer.
  std::vector<PtxParam> param_list() {
    if (!m_tok.is_punct('('))
      fail("expected '(' opening a parameter list");
    take();
    std::vector<PtxParam> params;
    std::size_t offset = 0;
    if (!m_tok.is_punct(')')) {
      for (;;) {
        const int line = m_tok.line;
        PtxParam p = param();
        offset = align_up(offset, p.align);
        p.offset = offset;
        offset += p.size;
        if (offset > k_max_param_bytes)
          throw PtxSyntaxError(line, fmt::format("the parameter list needs {} bytes up to '{}', "
                                                 "more than the {} bytes of parameter space",
                                                 offset, p.name, k_max_param_bytes));
        params.push_back(std::move(p));
        if (m_tok.is_punct(')'))
          break;
        if (!m_tok.is_punct(','))
          fail("expected ',' or ')' after a parameter");
        take();
      }
    }
    take();
    return params;
  }

  [[noreturn]] void fail(std::string_view what) const { fail(m_tok, what); }
  [[noreturn]] static void fail(const Token& at, std::string_view what) {
    const std::string near = at.kind == Token::Kind::end ? std::string("at the end of the text")
                                                         : "near '" + std::string(at.text) + "'";
    throw PtxSyntaxError(at.line, std::string(what) + " " + near);
  }

private:
  std::size_t integer(std::string_view what) {
    if (m_tok.kind != Token::Kind::number)
      fail(what);
    std::string_view digits = m_tok.text;
    int base = 10;
    if (digits.size() > 2 && (digits.substr(0, 2) == "0x" || digits.substr(0, 2) == "0X")) {
      digits.remove_prefix(2);
      base = 16;
    }
    std::size_t value = 0;
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
    if (ec != std::errc() || end != digits.data() + digits.size())
      fail(what);
    take();
    return value;
  }

  PtxParam param() {
    if (!m_tok.is_directive(".param"))
      fail("expected .param in a parameter list");
    PtxParam p;
    p.line = take().line;
    std::size_t explicit_align = 0;
    while (m_tok.kind == Token::Kind::directive) {
      const Token d = take();
      const std::string_view name = d.text.substr(1);
      if (name == "align") {
        const std::size_t n = integer("expected an alignment after .align");
        if (n == 0 || (n & (n - 1)) != 0)
          fail(d, "alignment must be a power of two");
        if (n > k_max_param_bytes)
          fail(d, fmt::format("alignment {} is larger than the parameter space", n));
        // After .ptr the alignment is the pointee's (PTX ISA, kernel parameter attributes).
        (p.is_ptr ? p.pointee_align : explicit_align) = n;
      } else if (name == "ptr") {
        p.is_ptr = true;
      } else if (p.is_ptr &&
                 (name == "global" || name == "shared" || name == "const" || name == "local")) {
        p.pointee_space = std::string(name);
      } else if (name == "v2" || name == "v4" || name == "v8") {
        p.vector_width = name[1] - '0';
      } else if (ptx_type_size(name) != 0) {
        if (!p.type.empty())
          fail(d, "second type in a parameter declaration");
        p.type = std::string(name);
      } else {
        fail(d, "unexpected directive in a parameter declaration");
      }
    }
    if (p.type.empty())
      fail("expected a type in a parameter declaration");
    if (m_tok.kind != Token::Kind::identifier)
      fail("expected a parameter name");
    p.name = std::string(take().text);
    while (m_tok.is_punct('[')) {
      take();
      const Token size_token = m_tok;
      const std::size_t n = integer("expected an array size");
      if (!m_tok.is_punct(']'))
        fail("expected ']' after the array size");
      take();
      std::size_t count = p.array_size.value_or(1);
      if (__builtin_mul_overflow(count, n, &count) || count > k_max_param_bytes)
        fail(size_token, fmt::format("array '{}' is larger than the parameter space", p.name));
      p.array_size = count;
    }
    const std::size_t element = ptx_type_size(p.type) * static_cast<std::size_t>(p.vector_width);
    p.size = element * p.array_size.value_or(1);
    p.align = explicit_align != 0 ? explicit_align : element;
    return p;
  }

  Lexer& m_in;
  Token m_tok;
};

} // namespace

bool PtxParam::is_pointer_sized_integer() const noexcept {
  return !array_size && vector_width == 1 && (type == "u64" || type == "s64" || type == "b64");
}

std::vector<PtxEntry> parse_ptx_entries(std::string_view ptx) {
  Lexer lexer(ptx, 1);
  ListParser in(lexer);
  std::vector<PtxEntry> entries;
  while (in.peek().kind != Token::Kind::end) {
    if (!in.take().is_directive(".entry") || in.peek().kind != Token::Kind::identifier)
      continue;
    PtxEntry entry;
    const Token name = in.take();
    entry.name = std::string(name.text);
    entry.line = name.line;
    if (in.peek().is_punct('('))
      entry.params = in.param_list();
    if (!entry.params.empty())
      entry.param_bytes = entry.params.back().offset + entry.params.back().size;
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::vector<PtxParam> parse_ptx_param_list(std::string_view list, int first_line) {
  Lexer lexer(list, first_line);
  ListParser in(lexer);
  return in.param_list();
}

std::size_t ptx_type_size(std::string_view type) noexcept {
  if (type.empty())
    return 0;
  if (type == "pred")
    return 1;
  // Packed pairs (.f16x2, .bf16x2, .e4m3x2 …) occupy twice their element.
  if (type.size() > 2 && type.substr(type.size() - 2) == "x2") {
    const std::string_view element = type.substr(0, type.size() - 2);
    if (element.size() > 2 && element.substr(element.size() - 2) == "x2")
      return 0; // one pair, not pairs of pairs
    return 2 * ptx_type_size(element);
  }
  if (type == "e4m3" || type == "e5m2" || type == "e2m3" || type == "e3m2" || type == "e2m1")
    return 1;
  if (type == "tf32")
    return 4;
  std::string_view digits;
  const bool brain = type.substr(0, 2) == "bf";
  if (brain)
    digits = type.substr(2);
  else if (type[0] == 'b' || type[0] == 'u' || type[0] == 's' || type[0] == 'f')
    digits = type.substr(1);
  else
    return 0;
  if (digits == "8")
    return type[0] == 'f' ? 0 : 1;
  if (digits == "16")
    return 2;
  if (digits == "32")
    return brain ? 0 : 4;
  if (digits == "64")
    return brain ? 0 : 8;
  if (digits == "128" && type[0] == 'b')
    return 16;
  return 0;
}

} // namespace gpurun::kit
