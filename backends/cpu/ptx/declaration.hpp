#pragma once
// Variable declarations: `.global .align 4 .b8 x[16] = {…}`, `.param .u64 .ptr .global .align 4
// p`, `.shared .f32 s[32][33]`, `.extern .shared .align 16 .b8 sdata[]`.

#include "backends/cpu/ptx/ast.hpp"
#include "backends/cpu/ptx/token_cursor.hpp"

namespace gpurun::ptx {

/// Parses one declaration after its state-space directive (already consumed), up to but not
/// including the closing `;` or `,`. `line` is the line of the declaration's first token.
[[nodiscard]] Variable parse_variable(TokenCursor& in, StateSpace space, int line);

/// Parses the next name of a multi-name declaration (`.global .u32 a, b = 5;`) after the comma:
/// the same space, type and alignment as `first`, its own name, dimensions and initializer.
[[nodiscard]] Variable parse_next_variable(TokenCursor& in, const Variable& first);

/// Whether `directive` (with its dot) names a PTX data type: ".u32", ".f16x2", ".pred" ….
[[nodiscard]] bool is_type_directive(std::string_view directive);

} // namespace gpurun::ptx
