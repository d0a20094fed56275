#pragma once
// PTX text → ptx::Module (ast.hpp) in one linear pass over the tokens.

#include <string_view>

#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::ptx {

/// Parses a whole PTX module. Syntax errors, unknown directives and undeclared registers throw
/// gpurun::Error(ExitCode::compile) "FILE:LINE: <what> near '<token>'", where FILE is
/// `file_name_for_errors`.
[[nodiscard]] Module parse_module(std::string_view text, std::string_view file_name_for_errors);

} // namespace gpurun::ptx
