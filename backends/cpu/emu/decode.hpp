#pragma once
// PTX AST → Program: the one-time translation the interpreter's speed rests on.
#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::emu {

/// Throws Error(device) "unsupported PTX instruction 'op.mods' at line N" for anything the
/// interpreter cannot execute exactly.
[[nodiscard]] Program decode(const ptx::Module& module);

} // namespace gpurun::emu
