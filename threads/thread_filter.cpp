#include "threads/thread_filter.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {

enum class Tok { integer, name, op, lparen, rparen, end };

struct Token {
  Tok kind = Tok::end;
  std::string_view text;
  std::size_t pos = 0; ///< 1-based column in the expression
  std::int64_t value = 0;
};

bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Parser {
public:
  Parser(std::string_view text, std::span<const std::string> columns, std::string_view field,
         std::vector<RowFilter::Node>& nodes)
      : m_text(text), m_columns(columns), m_field(field), m_nodes(nodes) {
    advance();
  }

  std::uint32_t parse_all() {
    if (m_tok.kind == Tok::end)
      fail_here("empty expression");
    const auto root = parse_or();
    if (m_tok.kind != Tok::end)
      fail_token("expected an operator");
    return root;
  }

private:
  using Op = RowFilter::Op;

  [[noreturn]] void fail(const std::string& what) const {
    throw usage_error(fmt::format("{}: {} in '{}'", m_field, what, m_text));
  }
  [[noreturn]] void fail_token(std::string_view what) const {
    if (m_tok.kind == Tok::end)
      fail(fmt::format("{} but the expression ends", what));
    fail(fmt::format("unexpected '{}' at {} ({})", m_tok.text, m_tok.pos, what));
  }
  [[noreturn]] void fail_here(std::string_view what) const { fail(std::string(what)); }

  void advance() {
    std::size_t i = m_next;
    while (i < m_text.size() && (m_text[i] == ' ' || m_text[i] == '\t'))
      ++i;
    m_tok = Token{};
    m_tok.pos = i + 1;
    if (i >= m_text.size()) {
      m_tok.kind = Tok::end;
      m_next = i;
      return;
    }
    const char c = m_text[i];
    std::size_t j = i + 1;
    if (is_digit(c)) {
      m_tok.kind = Tok::integer;
      int base = 10;
      if (c == '0' && j < m_text.size() && (m_text[j] == 'x' || m_text[j] == 'X')) {
        base = 16;
        ++j;
      }
      const std::size_t digits_start = j - (base == 10 ? 1 : 0);
      while (j < m_text.size() && (base == 16 ? is_hex_digit(m_text[j]) : is_digit(m_text[j])))
        ++j;
      // A number glued to letters ("4x", "0x") is one bad token, not two.
      while (j < m_text.size() && (is_name_start(m_text[j]) || is_digit(m_text[j])))
        ++j;
      m_tok.text = m_text.substr(i, j - i);
      std::int64_t v = 0;
      bool ok = j > digits_start;
      for (std::size_t k = digits_start; ok && k < j; ++k) {
        const char d = m_text[k];
        int digit = 0;
        if (is_digit(d))
          digit = d - '0';
        else if (base == 16 && d >= 'a' && d <= 'f')
          digit = d - 'a' + 10;
        else if (base == 16 && d >= 'A' && d <= 'F')
          digit = d - 'A' + 10;
        else
          ok = false;
        if (ok && v > (INT64_MAX - digit) / base)
          fail(fmt::format("integer '{}' at {} is too large", m_tok.text, m_tok.pos));
        v = v * base + digit;
      }
      if (!ok)
        fail(fmt::format("bad integer '{}' at {}", m_tok.text, m_tok.pos));
      m_tok.value = v;
    } else if (is_name_start(c)) {
      m_tok.kind = Tok::name;
      while (j < m_text.size() && (is_name_start(m_text[j]) || is_digit(m_text[j])))
        ++j;
      m_tok.text = m_text.substr(i, j - i);
    } else if (c == '(' || c == ')') {
      m_tok.kind = c == '(' ? Tok::lparen : Tok::rparen;
      m_tok.text = m_text.substr(i, 1);
    } else {
      static constexpr std::string_view two[] = {"==", "!=", "<=", ">=", "&&", "||"};
      static constexpr std::string_view one = "<>!+-*/%";
      m_tok.kind = Tok::op;
      const auto rest = m_text.substr(i);
      bool found = false;
      for (auto t : two)
        if (rest.starts_with(t)) {
          m_tok.text = rest.substr(0, 2);
          j = i + 2;
          found = true;
          break;
        }
      if (!found && one.find(c) != std::string_view::npos) {
        m_tok.text = rest.substr(0, 1);
        found = true;
      }
      if (!found) {
        m_tok.text = rest.substr(0, 1);
        if (c == '=')
          fail(fmt::format("unexpected '=' at {} (use '==')", m_tok.pos));
        if (c == '&' || c == '|')
          fail(fmt::format("unexpected '{}' at {} (use '{}{}')", c, m_tok.pos, c, c));
        fail(fmt::format("unexpected '{}' at {}", m_tok.text, m_tok.pos));
      }
    }
    m_next = j;
  }

  bool accept(std::string_view op) {
    if (m_tok.kind == Tok::op && m_tok.text == op) {
      advance();
      return true;
    }
    return false;
  }

  std::uint32_t add(Op op, std::int64_t value = 0, std::uint32_t lhs = 0, std::uint32_t rhs = 0) {
    m_nodes.push_back(RowFilter::Node{op, value, lhs, rhs});
    return static_cast<std::uint32_t>(m_nodes.size() - 1);
  }

  std::uint32_t parse_or() {
    auto lhs = parse_and();
    while (accept("||"))
      lhs = add(Op::logical_or, 0, lhs, parse_and());
    return lhs;
  }

  std::uint32_t parse_and() {
    auto lhs = parse_compare();
    while (accept("&&"))
      lhs = add(Op::logical_and, 0, lhs, parse_compare());
    return lhs;
  }

  std::uint32_t parse_compare() {
    auto lhs = parse_sum();
    static constexpr std::pair<std::string_view, Op> ops[] = {{"==", Op::eq}, {"!=", Op::ne},
                                                              {"<=", Op::le}, {">=", Op::ge},
                                                              {"<", Op::lt},  {">", Op::gt}};
    for (const auto& [text, op] : ops)
      if (accept(text)) {
        lhs = add(op, 0, lhs, parse_sum());
        if (m_tok.kind == Tok::op)
          for (const auto& [t2, o2] : ops)
            if (m_tok.text == t2)
              fail_token("comparisons do not chain; use '&&'");
        return lhs;
      }
    return lhs;
  }

  std::uint32_t parse_sum() {
    auto lhs = parse_product();
    for (;;) {
      if (accept("+"))
        lhs = add(Op::add, 0, lhs, parse_product());
      else if (accept("-"))
        lhs = add(Op::sub, 0, lhs, parse_product());
      else
        return lhs;
    }
  }

  std::uint32_t parse_product() {
    auto lhs = parse_unary();
    for (;;) {
      if (accept("*"))
        lhs = add(Op::mul, 0, lhs, parse_unary());
      else if (accept("/"))
        lhs = add(Op::div, 0, lhs, parse_unary());
      else if (accept("%"))
        lhs = add(Op::mod, 0, lhs, parse_unary());
      else
        return lhs;
    }
  }

  std::uint32_t parse_unary() {
    if (accept("!"))
      return add(Op::logical_not, 0, parse_unary());
    if (accept("-"))
      return add(Op::negate, 0, parse_unary());
    return parse_primary();
  }

  std::uint32_t parse_primary() {
    switch (m_tok.kind) {
    case Tok::integer: {
      const auto v = m_tok.value;
      advance();
      return add(Op::constant, v);
    }
    case Tok::name: {
      for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i] == m_tok.text) {
          advance();
          return add(Op::column, static_cast<std::int64_t>(i));
        }
      fail(fmt::format("unknown column '{}' at {} (columns: {})", m_tok.text, m_tok.pos,
                       fmt::join(m_columns, " ")));
    }
    case Tok::lparen: {
      const auto open = m_tok.pos;
      advance();
      const auto inner = parse_or();
      if (m_tok.kind != Tok::rparen) {
        if (m_tok.kind == Tok::end)
          fail(fmt::format("'(' at {} is not closed", open));
        fail_token("expected ')'");
      }
      advance();
      return inner;
    }
    default:
      fail_token("expected a column, an integer or '('");
    }
  }

  std::string_view m_text;
  std::span<const std::string> m_columns;
  std::string_view m_field;
  std::vector<RowFilter::Node>& m_nodes;
  std::size_t m_next = 0;
  Token m_tok;
};

} // namespace

RowFilter RowFilter::parse(std::string_view text, std::span<const std::string> columns,
                           std::string_view field) {
  RowFilter filter;
  filter.m_text = std::string(text);
  Parser parser(filter.m_text, columns, field, filter.m_nodes);
  filter.m_root = parser.parse_all();
  return filter;
}

bool RowFilter::matches(std::span<const std::uint64_t> row) const {
  return eval(m_root, row) != 0;
}

std::int64_t RowFilter::eval(std::uint32_t index, std::span<const std::uint64_t> row) const {
  const Node& n = m_nodes[index];
  // Unsigned wrap-around for + - * keeps overflow defined; the results are reinterpreted as signed.
  const auto wrap = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
  switch (n.op) {
  case Op::constant:
    return n.value;
  case Op::column:
    return static_cast<std::int64_t>(row[static_cast<std::size_t>(n.value)]);
  case Op::negate:
    return wrap(0 - static_cast<std::uint64_t>(eval(n.lhs, row)));
  case Op::logical_not:
    return eval(n.lhs, row) == 0;
  case Op::logical_and:
    return eval(n.lhs, row) != 0 && eval(n.rhs, row) != 0;
  case Op::logical_or:
    return eval(n.lhs, row) != 0 || eval(n.rhs, row) != 0;
  default:
    break;
  }
  const std::int64_t a = eval(n.lhs, row);
  const std::int64_t b = eval(n.rhs, row);
  const auto ua = static_cast<std::uint64_t>(a);
  const auto ub = static_cast<std::uint64_t>(b);
  switch (n.op) {
  case Op::add:
    return wrap(ua + ub);
  case Op::sub:
    return wrap(ua - ub);
  case Op::mul:
    return wrap(ua * ub);
  case Op::div:
    return b == 0 || (a == INT64_MIN && b == -1) ? 0 : a / b;
  case Op::mod:
    return b == 0 || (a == INT64_MIN && b == -1) ? 0 : a % b;
  case Op::eq:
    return a == b;
  case Op::ne:
    return a != b;
  case Op::lt:
    return a < b;
  case Op::le:
    return a <= b;
  case Op::gt:
    return a > b;
  case Op::ge:
    return a >= b;
  default:
    return 0;
  }
}

} // namespace gpurun
