#pragma once
// The AST printed back as PTX text, for debugging the front end and the decoder. The output is
// valid PTX that parses to the same AST (nested scopes appear flattened with their new names).

#include <string>

#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::ptx {

[[nodiscard]] std::string dump(const Module& module);
[[nodiscard]] std::string dump(const Function& function);
[[nodiscard]] std::string dump(const Instruction& instruction);
[[nodiscard]] std::string dump(const Operand& operand);

} // namespace gpurun::ptx
