#pragma once
// One PTX instruction: `[@[!]%p] opcode[.mod]* [operands];`, operands of every kind in ast.hpp.

#include "backends/cpu/ptx/ast.hpp"
#include "backends/cpu/ptx/scope.hpp"
#include "backends/cpu/ptx/token_cursor.hpp"

namespace gpurun::ptx {

/// Parses an instruction starting at its guard or opcode, through the closing `;`. Register and
/// variable names are rewritten through `scopes` (nested-scope renaming); a %-name that is neither
/// declared nor a special register is an error.
[[nodiscard]] Instruction parse_instruction(TokenCursor& in, const ScopeStack& scopes);

/// Whether `name` (with %, without the .x/.y/.z component) is a PTX special register.
[[nodiscard]] bool is_special_register(std::string_view name);

} // namespace gpurun::ptx
