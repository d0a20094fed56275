#pragma once
// Multiply-add contraction as ptxas does it. A PTX `mul.f32`/`mul.f64` or `add`/`sub` without a
// rounding modifier may be fused by the code generator ("mul/add … may be optimized aggressively",
// PTX ISA), and ptxas does fuse a multiply whose only use is a following add or sub into one FMA
// (single rounding). To give the GPU's bits, the emulator applies the same contraction before
// decoding; instructions with an explicit rounding modifier (.rn …) are never touched.
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::emu {

/// Rewrites, in every function, `mul.T m, a, b` followed in the same basic block by the only use
/// of m, `add.T d, m, c` / `add.T d, c, m` / `sub.T d, m, c` / `sub.T d, c, m` (T = f32 or f64,
/// no rounding, .ftz or .sat modifier on either, same guard, a/b/c not written in between), into
/// an fma.rn with the same single rounding the GPU's FFMA/DFMA has. Returns the number of pairs
/// contracted.
std::size_t contract_multiply_adds(ptx::Module& module);

} // namespace gpurun::emu
