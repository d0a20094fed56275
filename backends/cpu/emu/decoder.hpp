#pragma once
// What the per-family instruction selectors (ops_*.cpp) get from the decoder: modifiers to
// consume, operands to resolve into register indices. A selector claims an opcode, fills the
// Inst, and must consume every modifier; anything left over makes the instruction unsupported,
// so an unknown combination is a decode-time error instead of a silently wrong answer.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/emu/program.hpp"
#include "backends/cpu/emu/types.hpp"
#include "backends/cpu/ptx/ast.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

class Modifiers {
public:
  explicit Modifiers(const std::vector<std::string>& list);
  /// True (and consumed) when `name` is present.
  [[nodiscard]] bool take(std::string_view name);
  /// Consumes and returns the first of `names` present, or an empty view.
  [[nodiscard]] std::string_view take_any(std::initializer_list<std::string_view> names);
  /// Type modifiers in order (consumed).
  [[nodiscard]] std::vector<Type> take_types();
  /// Modifiers nobody consumed.
  [[nodiscard]] std::vector<std::string> leftover() const;

private:
  std::vector<std::string> m_list;
  std::vector<bool> m_used;
};

/// Operand resolution for one function.
class OperandDecoder {
public:
  virtual ~OperandDecoder() = default;
  /// A value source: register, immediate (converted for `type`) or special register.
  [[nodiscard]] virtual std::uint32_t src(const ptx::Operand& op, Type type) = 0;
  /// A destination register; kNoReg for the sink `_`.
  [[nodiscard]] virtual std::uint32_t dst(const ptx::Operand& op) = 0;
  /// The width mask of a destination register (0xffffffff for a 32-bit register …).
  [[nodiscard]] virtual std::uint64_t dst_mask(const ptx::Operand& op) = 0;
  [[nodiscard]] virtual bool is_pred(const ptx::Operand& op) = 0;
  /// A predicate source (`negated` reports `!%p`); a predicate immediate 0/1 is allowed.
  [[nodiscard]] virtual std::uint32_t pred_src(const ptx::Operand& op, bool* negated) = 0;
  [[nodiscard]] virtual std::uint32_t pred_dst(const ptx::Operand& op) = 0;
  /// Resolves [base+offset] into inst.a (base register or kNoReg), inst.imm and, for symbols,
  /// the state space they live in (overriding `space` when it was generic).
  virtual void address(const ptx::Operand& op, Inst& inst) = 0;
  /// True when `op` is a .local/.param symbol of the current frame (address is per lane).
  [[nodiscard]] virtual bool frame_symbol(const ptx::Operand& op, std::int64_t* offset) = 0;
  /// The dynamic special registers (%clock …) have no static slot: returns the name or "".
  [[nodiscard]] virtual std::string dynamic_special(const ptx::Operand& op) = 0;
  /// Keeps a tensor-core instruction's operands in the program; returns the index for Inst::aux.
  [[nodiscard]] virtual std::uint32_t add_matrix_op(MatrixOp op) = 0;
};

/// An instruction (or a form of one) the emulator does not implement. The decoder records it
/// against the function it is in: only a kernel that can reach that function fails, when it is
/// launched, so one such instruction does not stop the other kernels of the module.
class UnsupportedInstruction : public Error {
public:
  explicit UnsupportedInstruction(const std::string& message) : Error(ExitCode::device, message) {}
};

/// Throws UnsupportedInstruction "unsupported PTX instruction 'op.mods' at line N (why)".
[[noreturn]] void throw_unsupported(const ptx::Instruction& in, std::string_view why = {});

/// An instruction's operands as a selector reads them: an index past the last operand is an
/// unsupported instruction (a wrong operand count), never a read past the end.
class OperandList {
public:
  explicit OperandList(const ptx::Instruction& in) : m_in(&in) {}
  [[nodiscard]] const ptx::Operand& operator[](std::size_t i) const {
    if (i >= m_in->operands.size())
      throw_unsupported(*m_in, "operand count");
    return m_in->operands[i];
  }
  [[nodiscard]] const ptx::Operand& at(std::size_t i) const { return (*this)[i]; }
  [[nodiscard]] std::size_t size() const { return m_in->operands.size(); }

private:
  const ptx::Instruction* m_in;
};

/// Selectors by family; each returns false when the opcode is not its own.
/// cvt to and from the FP8 pairs .e4m3x2/.e5m2x2 (checked before select_packed).
bool select_fp8_convert(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
/// Carry chains, mul24/mad24, dp4a/dp2a (checked before select_integer).
bool select_integer_ext(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
/// f16x2/bf16x2 packed arithmetic and cvt.f16x2.f32 (checked before select_float).
bool select_packed(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_integer(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_float(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
/// fma.rn.f32 with the processor's FMA3 instruction (ops_fma3.cpp), or nullptr where it has none.
[[nodiscard]] Handler fma3_rn_f32(bool ftz, bool sat);
bool select_compare(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_convert(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_memory(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_atomic(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_bits(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
bool select_warp(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);
/// Tensor-core instructions: wmma.load/store/mma, mma.sync, ldmatrix, stmatrix.
bool select_tensor(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out);

} // namespace gpurun::emu
