#pragma once
// The one parser of gpurun's little expression languages: integer expressions in sizes, dims and
// scalars (base/arithmetic) and `--where` filters over thread tables (threads/thread_filter). A
// tokenizer and a precedence-climbing parser turn the text into a postfix program; each language
// enables its operators, evaluates the program with its own arithmetic (checked 128-bit integers
// for sizes, wrapping 64-bit for filters) and words the errors its own way.
//
// Precedence, loosest first: `||`, `&&`, comparisons (`==` `!=` `<` `<=` `>` `>=`, which do not
// chain), `<<` `>>`, `+` `-`, `*` `/` `%`, unary `-` `+` `!`, `**` (right associative, so
// -2**2 == -4 as in Python), then numbers, names and parentheses. Nesting (parentheses, unary
// operators, the right side of `**`) is limited to k_max_depth levels and the text to
// k_max_length characters, so that no input can exhaust the stack.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun {

/// A widened integer so that every u64 and i64 value, and a little beyond, is exact.
using WideInt = __int128;

namespace expression {

inline constexpr int k_max_depth = 256;
inline constexpr std::size_t k_max_length = 256 * 1024;

/// What a language enables beyond `+ - * / %`, unary minus, parentheses and decimal and 0x
/// literals.
struct Syntax {
  bool power_and_shifts = false; ///< `**`, `<<`, `>>`
  bool unary_plus = false;
  bool binary_literals = false; ///< 0b101
  bool logic = false;           ///< comparisons, `&&`, `||`, `!`
  WideInt max_literal = 0;      ///< a larger literal is an error
  /// Names that may stand as operands; a step refers to one by its index.
  std::span<const std::string> variables;
};

enum class Op : std::uint8_t {
  constant, ///< pushes `value`
  variable, ///< pushes the variable with index `value`
  negate,
  plus,
  logical_not,
  power,
  mul,
  div,
  mod,
  add,
  sub,
  shl,
  shr,
  eq,
  ne,
  lt,
  le,
  gt,
  ge,
  logical_and,
  logical_or,
};

/// One step of the postfix program: operands come before their operator, so a left-to-right
/// pass with a stack evaluates it, without recursion.
struct Step {
  Op op = Op::constant;
  std::size_t pos = 0; ///< 0-based position in the text of the operator or operand
  WideInt value = 0;   ///< constant: its value; variable: its index
};

struct Program {
  std::vector<Step> steps;
  std::size_t stack_size = 0; ///< the most values on the stack at once
};

/// A token, as problems report it.
struct Token {
  enum class Kind {
    number,
    name,
    op,         ///< an operator, '(' or ')'
    end,        ///< the end of the text
    bad,        ///< a character that starts no token
    bad_number, ///< a malformed literal; see `number_problem`
  };
  /// What is wrong with a bad_number.
  enum class NumberProblem {
    none,
    no_digits,     ///< "0x": at `problem_pos` (after the prefix)
    bad_digit,     ///< "0b12": the digit at `problem_pos` is not of the base
    too_large,     ///< above Syntax::max_literal
    decimal_point, ///< "1.5": digits followed by '.' (at `problem_pos`)
    exponent,      ///< "1e6"
    trailing,      ///< "12abc": the letter at `problem_pos` follows the digits
  };
  Kind kind = Kind::end;
  std::string_view text; ///< the whole token ("12abc"); empty at the end
  std::size_t pos = 0;   ///< 0-based position of its first character
  WideInt value = 0;     ///< numbers
  int base = 10;         ///< numbers
  NumberProblem number_problem = NumberProblem::none;
  std::size_t problem_pos = 0;
};

/// Why a text is not an expression of its language.
struct Problem {
  enum class Kind {
    expected_operand,   ///< `token` stands where a number, a name or '(' must
    expected_operator,  ///< `token` follows a complete expression (not an operator, not the end)
    expected_close,     ///< `token` stands where the ')' of the '(' at `pos` must
    unclosed,           ///< the text ends inside the '(' at `pos`
    unknown_name,       ///< `token` is a name that is not one of the variables
    chained_comparison, ///< `token` is a comparison right after another: a < b < c
    too_deep,           ///< nesting beyond k_max_depth at `pos`
    too_long,           ///< the text is longer than k_max_length
  };
  Kind kind = Kind::expected_operand;
  Token token;
  std::size_t pos = 0;
};

/// Thrown by parse(); each language turns it into its own usage error.
class ParseError : public std::runtime_error {
public:
  explicit ParseError(Problem problem)
      : std::runtime_error("malformed expression"), m_problem(std::move(problem)) {}
  [[nodiscard]] const Problem& problem() const noexcept { return m_problem; }

private:
  Problem m_problem;
};

/// Parses `text` as an expression of `syntax`; throws ParseError.
[[nodiscard]] Program parse(std::string_view text, const Syntax& syntax);

} // namespace expression
} // namespace gpurun
