#pragma once
// Integer and number expressions used in sizes, dims, scalars and fill parameters.
//
// Integers: decimal, 0x hex, 0b binary literals; + - * / % << >> ** (power), parentheses, unary
// minus and plus. Precedence from loosest: << >>, then + -, then * / %, then unary minus, then **
// (right associative, so -2**2 == -4 as in Python). `/` and `%` truncate toward zero as in C. `^`
// is rejected with a hint to write `**`. Parsed by base/expression_parser, which limits nesting and
// length; evaluated here in 128 bits with every overflow an error.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "base/dtype.hpp"
#include "base/expression_parser.hpp"

namespace gpurun {

/// Where a piece of text sits inside an option's value, so that errors quote the whole value and
/// point at a 1-based character position in it: "--arg 'x=f32[1<<]': expected a number at
/// position 12".
struct SourceText {
  std::string_view field; ///< the option or spec key: "--arg", "--grid"
  std::string_view whole; ///< the option's whole value, quoted in errors
  std::size_t offset = 0; ///< where the piece being parsed starts inside `whole`

  [[nodiscard]] SourceText at(std::size_t more) const { return {field, whole, offset + more}; }
};

/// Throws a usage Error "FIELD 'WHOLE': WHAT at position N" (N is 1-based in `whole`).
[[noreturn]] void throw_at(const SourceText& where, std::size_t pos, std::string_view what);
/// Throws a usage Error "FIELD 'WHOLE': WHAT" (no position: the whole value is at fault).
[[noreturn]] void throw_whole(const SourceText& where, std::string_view what);

/// `text` without leading and trailing whitespace.
[[nodiscard]] std::string_view trim(std::string_view text);

/// Evaluates `text` (the piece of `where.whole` starting at `where.offset`) as an integer
/// expression; throws usage Error on bad syntax, division by zero or overflow beyond ±2^127.
[[nodiscard]] WideInt eval_wide_int(std::string_view text, const SourceText& where);

/// Evaluates an integer expression that must fit in a signed 64-bit integer.
/// `field` names the option in errors ("--shared").
[[nodiscard]] long long eval_int_expr(std::string_view text, std::string_view field);

/// Evaluates a floating-point number: a decimal literal (20, 20.0, -1.5e3, inf, -inf, nan) or
/// an integer expression (1<<20).
[[nodiscard]] double eval_number(std::string_view text, std::string_view field);
[[nodiscard]] double eval_number(std::string_view text, const SourceText& where);

/// The smallest and largest value of an integer dtype.
[[nodiscard]] std::pair<WideInt, WideInt> int_range(DType type);
/// Evaluates an integer expression for an element of integer `type`; throws usage Error naming
/// the value and the type's range when it does not fit ("300 is out of range for u8 (0 to 255)").
[[nodiscard]] WideInt eval_int_for(DType type, std::string_view text, const SourceText& where);

/// "170141183460469231731687303715884105727" — WideInt has no std::to_string.
[[nodiscard]] std::string wide_to_string(WideInt v);

} // namespace gpurun
