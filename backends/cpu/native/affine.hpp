#pragma once
// The compiled engine's guess of which registers are `base + c × tid.x`, with base the same for
// a row of threads that run together: loop counters and strides (c = 0), NVVM's reused tid.x
// register and pointers advanced by a uniform step (c = 1, 4, …). Only a guess, made from every
// definition of a register: a region checks it over every thread before it relies on it
// (docs/compiled-engine.md, "Row-affine registers").
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/ptx/ast.hpp"

namespace gpurun::native {

/// A register's value as `base + c × tid.x`: not yet seen, known c, or not of that form.
struct Coefficient {
  enum State : std::uint8_t { unknown, known, not_affine } state = unknown;
  std::int64_t c = 0;
};

/// Registers a region computes as their row's first value plus c × tid.x: slot → c.
using Affine = std::map<std::uint32_t, std::int64_t>;

/// What the guess reads of a kernel.
struct AffineInput {
  const emu::Program& program;
  /// The parsed instruction of each pc from `first_pc` on.
  const std::vector<const ptx::Instruction*>& ast;
  std::uint32_t first_pc = 0;
  const std::map<std::uint32_t, std::uint64_t>& constants;
  const std::map<std::uint32_t, emu::Special>& specials;
  /// Each register's defining instructions.
  const std::map<std::uint32_t, std::set<std::uint32_t>>& defs;
  /// The instructions that write one register only (their destination).
  const std::set<std::uint32_t>& single_writes;
};

/// The fixed point over every definition: each register's coefficient.
[[nodiscard]] std::map<std::uint32_t, Coefficient> guess_affine(const AffineInput& input);

} // namespace gpurun::native
