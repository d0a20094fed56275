#pragma once
// PTX AST → Program: the one-time translation the interpreter's speed rests on.
#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::emu {

/// An instruction the interpreter cannot execute exactly is decoded as a trap and recorded in its
/// function (`unsupported`) and in every kernel that can reach it (`cannot_run`: "kernel 'k':
/// unsupported PTX instruction 'op.mods' at line N"), which the launch of that kernel reports.
/// Malformed PTX (an unknown label, an undeclared register) throws Error(device).
[[nodiscard]] Program decode(const ptx::Module& module);

/// Loads and stores decode to handlers without the sanitizer hook, so a run without checks pays
/// nothing for it; a module run under memcheck, racecheck or initcheck swaps in the checked ones.
void use_checked_memory_handlers(Program& program);

} // namespace gpurun::emu
