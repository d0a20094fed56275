#include "base/expression_parser.hpp"

#include <algorithm>
#include <utility>

namespace gpurun::expression {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_word(char c) {
  return is_letter(c) || is_digit(c) || c == '_';
}
int hex_value(char c) {
  if (is_digit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

enum class Feature { always, power_and_shifts, logic };

struct OperatorText {
  std::string_view text;
  Feature feature;
};

// Two-character operators first, so that "<<" is not read as "<" "<".
constexpr OperatorText k_operators[] = {
    {"**", Feature::power_and_shifts},
    {"<<", Feature::power_and_shifts},
    {">>", Feature::power_and_shifts},
    {"==", Feature::logic},
    {"!=", Feature::logic},
    {"<=", Feature::logic},
    {">=", Feature::logic},
    {"&&", Feature::logic},
    {"||", Feature::logic},
    {"+", Feature::always},
    {"-", Feature::always},
    {"*", Feature::always},
    {"/", Feature::always},
    {"%", Feature::always},
    {"(", Feature::always},
    {")", Feature::always},
    {"<", Feature::logic},
    {">", Feature::logic},
    {"!", Feature::logic},
};

struct Binary {
  std::string_view text;
  Op op;
  int precedence; ///< higher binds tighter
};

constexpr int k_compare = 3;

constexpr Binary k_binary[] = {
    {"||", Op::logical_or, 1}, {"&&", Op::logical_and, 2}, {"==", Op::eq, k_compare},
    {"!=", Op::ne, k_compare}, {"<", Op::lt, k_compare},   {"<=", Op::le, k_compare},
    {">", Op::gt, k_compare},  {">=", Op::ge, k_compare},  {"<<", Op::shl, 4},
    {">>", Op::shr, 4},        {"+", Op::add, 5},          {"-", Op::sub, 5},
    {"*", Op::mul, 6},         {"/", Op::div, 6},          {"%", Op::mod, 6},
};

// Produces tokens one at a time: the parser reads them left to right, so the first thing wrong in
// the text is the one reported.
class Lexer {
public:
  Lexer(std::string_view text, const Syntax& syntax) : m_text(text), m_syntax(syntax) {}

  Token next() {
    while (m_pos < m_text.size() && is_space(m_text[m_pos]))
      ++m_pos;
    Token t;
    t.pos = m_pos;
    if (m_pos >= m_text.size())
      return t;
    const char c = m_text[m_pos];
    if (is_digit(c))
      return number();
    if (is_letter(c) || c == '_') {
      std::size_t end = m_pos + 1;
      while (end < m_text.size() && is_word(m_text[end]))
        ++end;
      t.kind = Token::Kind::name;
      return take(t, end);
    }
    const std::string_view rest = m_text.substr(m_pos);
    for (const auto& o : k_operators) {
      if (rest.starts_with(o.text) && enabled(o.feature)) {
        t.kind = Token::Kind::op;
        return take(t, m_pos + o.text.size());
      }
    }
    t.kind = Token::Kind::bad;
    return take(t, m_pos + 1);
  }

private:
  [[nodiscard]] bool enabled(Feature f) const {
    switch (f) {
    case Feature::always:
      return true;
    case Feature::power_and_shifts:
      return m_syntax.power_and_shifts;
    case Feature::logic:
      return m_syntax.logic;
    }
    return false;
  }

  Token take(Token t, std::size_t end) {
    t.text = m_text.substr(t.pos, end - t.pos);
    m_pos = end;
    return t;
  }

  // A literal and the letters glued to it ("4x" is one bad token, not two).
  Token number() {
    Token t;
    t.kind = Token::Kind::number;
    t.pos = m_pos;
    auto problem = [&t](Token::NumberProblem p, std::size_t at) {
      if (t.number_problem == Token::NumberProblem::none) {
        t.number_problem = p;
        t.problem_pos = at;
      }
    };
    std::size_t i = m_pos;
    if (m_text[i] == '0' && i + 1 < m_text.size()) {
      const char x = m_text[i + 1];
      if (x == 'x' || x == 'X')
        t.base = 16;
      else if (m_syntax.binary_literals && (x == 'b' || x == 'B'))
        t.base = 2;
      if (t.base != 10)
        i += 2;
    }
    const std::size_t digits_start = i;
    WideInt v = 0;
    for (; i < m_text.size(); ++i) {
      const int d = t.base == 16          ? hex_value(m_text[i])
                    : is_digit(m_text[i]) ? m_text[i] - '0'
                                          : -1;
      if (d < 0)
        break;
      if (d >= t.base) {
        problem(Token::NumberProblem::bad_digit, i);
        break;
      }
      if (__builtin_mul_overflow(v, t.base, &v) || __builtin_add_overflow(v, d, &v) ||
          v > m_syntax.max_literal) {
        problem(Token::NumberProblem::too_large, t.pos);
        break;
      }
    }
    if (i == digits_start)
      problem(Token::NumberProblem::no_digits, i);
    if (i < m_text.size() && t.base == 10 && m_text[i] == '.')
      problem(Token::NumberProblem::decimal_point, i);
    if (i < m_text.size() && t.base == 10 && (m_text[i] == 'e' || m_text[i] == 'E'))
      problem(Token::NumberProblem::exponent, i);
    if (i < m_text.size() && is_word(m_text[i]))
      problem(Token::NumberProblem::trailing, i);
    std::size_t end = i;
    while (end < m_text.size() && is_word(m_text[end]))
      ++end;
    t.value = v;
    if (t.number_problem != Token::NumberProblem::none)
      t.kind = Token::Kind::bad_number;
    return take(t, end);
  }

  std::string_view m_text;
  const Syntax& m_syntax;
  std::size_t m_pos = 0;
};

class Parser {
public:
  Parser(std::string_view text, const Syntax& syntax) : m_lexer(text, syntax), m_syntax(syntax) {
    advance();
  }

  Program parse() {
    expression(1);
    if (m_tok.kind != Token::Kind::end)
      fail(Problem::Kind::expected_operator, m_tok.pos);
    return std::move(m_program);
  }

private:
  [[noreturn]] void fail(Problem::Kind kind, std::size_t pos) const {
    throw ParseError(Problem{kind, m_tok, pos});
  }

  void advance() { m_tok = m_lexer.next(); }

  [[nodiscard]] bool at_op(std::string_view text) const {
    return m_tok.kind == Token::Kind::op && m_tok.text == text;
  }

  [[nodiscard]] const Binary* binary() const {
    if (m_tok.kind != Token::Kind::op)
      return nullptr;
    const auto* it = std::find_if(std::begin(k_binary), std::end(k_binary),
                                  [&](const Binary& b) { return b.text == m_tok.text; });
    return it == std::end(k_binary) ? nullptr : it;
  }

  void emit(Op op, std::size_t pos, WideInt value = 0) {
    m_program.steps.push_back(Step{op, pos, value});
    if (op == Op::constant || op == Op::variable)
      m_program.stack_size = std::max(m_program.stack_size, ++m_stack);
    else if (op != Op::negate && op != Op::plus && op != Op::logical_not)
      --m_stack;
  }

  // Parentheses, prefix operators and the right side of ** recurse; everything else loops.
  void enter(std::size_t pos) {
    if (++m_depth > k_max_depth)
      fail(Problem::Kind::too_deep, pos);
  }
  void leave() { --m_depth; }

  // Precedence climbing: operators at `min_precedence` or tighter, left associative.
  void expression(int min_precedence) {
    unary();
    for (const Binary* b = binary(); b != nullptr && b->precedence >= min_precedence;
         b = binary()) {
      const std::size_t pos = m_tok.pos;
      advance();
      expression(b->precedence + 1);
      emit(b->op, pos);
      if (b->precedence == k_compare) {
        const Binary* next = binary();
        if (next != nullptr && next->precedence == k_compare)
          fail(Problem::Kind::chained_comparison, m_tok.pos);
      }
    }
  }

  void unary() {
    Op op = Op::negate;
    if (at_op("-"))
      op = Op::negate;
    else if (at_op("+") && m_syntax.unary_plus)
      op = Op::plus;
    else if (at_op("!"))
      op = Op::logical_not;
    else
      return power();
    const std::size_t pos = m_tok.pos;
    enter(pos);
    advance();
    unary();
    leave();
    emit(op, pos);
  }

  void power() {
    primary();
    if (!at_op("**"))
      return;
    const std::size_t pos = m_tok.pos;
    enter(pos);
    advance();
    unary();
    leave();
    emit(Op::power, pos);
  }

  void primary() {
    if (m_tok.kind == Token::Kind::number) {
      emit(Op::constant, m_tok.pos, m_tok.value);
      return advance();
    }
    if (m_tok.kind == Token::Kind::name) {
      const auto& vars = m_syntax.variables;
      const auto it = std::find(vars.begin(), vars.end(), m_tok.text);
      if (it == vars.end())
        fail(Problem::Kind::unknown_name, m_tok.pos);
      emit(Op::variable, m_tok.pos, static_cast<WideInt>(it - vars.begin()));
      return advance();
    }
    if (!at_op("("))
      fail(Problem::Kind::expected_operand, m_tok.pos);
    const std::size_t open = m_tok.pos;
    enter(open);
    advance();
    expression(1);
    if (!at_op(")"))
      fail(m_tok.kind == Token::Kind::end ? Problem::Kind::unclosed : Problem::Kind::expected_close,
           open);
    leave();
    advance();
  }

  Lexer m_lexer;
  const Syntax& m_syntax;
  Token m_tok;
  Program m_program;
  std::size_t m_stack = 0;
  int m_depth = 0;
};

} // namespace

Program parse(std::string_view text, const Syntax& syntax) {
  if (text.size() > k_max_length) {
    Problem p;
    p.kind = Problem::Kind::too_long;
    throw ParseError(p);
  }
  return Parser(text, syntax).parse();
}

} // namespace gpurun::expression
