#pragma once
// PTX → C++ for the CPU backend's compiled engine. One kernel of a decoded program becomes a C++
// translation unit exporting `gpurun_native_kernel` (native/abi.hpp): the kernel's code split
// into regions (at the entry, after each bar.sync and at each target of a backward branch), each
// region a loop over the block's threads that the compiler vectorizes, and a scalar "resume"
// version of each region for a thread that left the fast loop at a memory access (another
// allocation, a generic address, a fault). Every instruction is computed by the same
// numeric.hpp functions the interpreter calls, so the results are its bits.
//
// A kernel reaching an instruction the translator does not handle is refused with the reason;
// it then runs on the interpreter.
#include <cstdint>
#include <string>

#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::native {

struct Translation {
  bool ok = false;
  std::string refusal; ///< why not, naming the PTX line ("PTX line 42: atom.global.add …")
  std::string source;  ///< the C++ translation unit
  std::uint32_t regions = 0;
  std::uint32_t sites = 0; ///< memory instructions (each keeps a hint of the window it hit)
};

/// Translates kernel `function` of `program`; `parsed` is the module it was decoded from (its
/// functions in the same order, after emu::contract_multiply_adds).
[[nodiscard]] Translation translate_kernel(const emu::Program& program, const ptx::Module& parsed,
                                           std::uint32_t function);

} // namespace gpurun::native
