#pragma once
// `--where EXPR`: a small integer expression language over a table's column names, e.g.
// `warp==1 && lane<4`, `block_x==0 || !(global_y%2)`.
//
//   expr    := or
//   or      := and ('||' and)*
//   and     := compare ('&&' compare)*
//   compare := sum (('=='|'!='|'<'|'<='|'>'|'>=') sum)?
//   sum     := product (('+'|'-') product)*
//   product := unary (('*'|'/'|'%') unary)*
//   unary   := ('!'|'-') unary | primary
//   primary := INTEGER | COLUMN | '(' expr ')'
//
// Integers are decimal or 0x hex; values are signed 64-bit; comparisons and logic give 0 or 1, and
// a row matches when the expression is not 0. Division or remainder by 0 gives 0 (a filter must
// not abort a listing half-way). Parsed by base/expression_parser, which limits nesting and length.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/expression_parser.hpp"

namespace gpurun {

class RowFilter {
public:
  /// Parses `text` against `columns`; throws usage Error naming `field` and the bad token and its
  /// position ("--where: unknown column 'wrap' at 1 (columns: …)").
  [[nodiscard]] static RowFilter parse(std::string_view text, std::span<const std::string> columns,
                                       std::string_view field = "--where");

  /// True when the row (values in the order of the parse-time columns) satisfies the expression.
  [[nodiscard]] bool matches(std::span<const std::uint64_t> row) const;
  [[nodiscard]] const std::string& text() const { return m_text; }

private:
  RowFilter() = default;

  std::string m_text;
  expression::Program m_program;
};

} // namespace gpurun
