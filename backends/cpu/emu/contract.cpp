#include "backends/cpu/emu/contract.hpp"

#include <map>
#include <optional>
#include <string>

namespace gpurun::emu {

namespace {

using ptx::Instruction;
using ptx::Operand;

/// "f32" or "f64" when the instruction is exactly `op.f32` / `op.f64` (no rounding, ftz or sat).
std::optional<std::string> plain_float_type(const Instruction& inst, const char* opcode) {
  if (inst.opcode != opcode || inst.modifiers.size() != 1)
    return std::nullopt;
  const std::string& t = inst.modifiers.front();
  if (t != "f32" && t != "f64")
    return std::nullopt;
  return t;
}

bool is_reg(const Operand& op) {
  return op.kind == Operand::Kind::reg;
}

/// Counts every read of each register in the function (sources, address bases, vector members).
void count_reads(const Operand& op, std::map<std::string, int>& reads) {
  switch (op.kind) {
  case Operand::Kind::reg:
  case Operand::Kind::address:
    if (!op.name.empty())
      ++reads[op.name];
    break;
  case Operand::Kind::vector:
  case Operand::Kind::pred_pair:
    for (const auto& e : op.elements)
      count_reads(e, reads);
    break;
  default:
    break;
  }
}

std::map<std::string, int> register_reads(const ptx::Function& fn) {
  std::map<std::string, int> reads;
  for (const auto& st : fn.body) {
    if (!st.instruction)
      continue;
    const Instruction& inst = *st.instruction;
    if (!inst.guard.empty())
      ++reads[inst.guard];
    // operand 0 is the destination of value-producing instructions; stores write memory through
    // operand 0's address, which is a read of its base register
    for (std::size_t i = 0; i < inst.operands.size(); ++i) {
      const Operand& op = inst.operands[i];
      if (i == 0 && inst.opcode != "st" && op.kind != Operand::Kind::address)
        continue;
      count_reads(op, reads);
    }
  }
  return reads;
}

/// Instructions that end a basic block or whose destination is not operand 0.
bool ends_block(const Instruction& inst) {
  static const char* const control[] = {"bra", "call",    "ret",  "exit",
                                        "bar", "barrier", "trap", "brx"};
  for (const char* c : control)
    if (inst.opcode == c)
      return true;
  return false;
}

bool writes(const Instruction& inst, const std::string& reg) {
  if (inst.operands.empty() || inst.opcode == "st" || inst.opcode == "red")
    return false;
  const Operand& dst = inst.operands.front();
  if (is_reg(dst))
    return dst.name == reg;
  for (const auto& e : dst.elements)
    if (is_reg(e) && e.name == reg)
      return true;
  return false;
}

Instruction fma_from(const Instruction& add, const std::string& type, Operand a, Operand b,
                     Operand c) {
  Instruction fma = add;
  fma.opcode = "fma";
  fma.modifiers = {"rn", type};
  fma.operands = {add.operands[0], std::move(a), std::move(b), std::move(c)};
  return fma;
}

std::size_t contract_function(ptx::Function& fn) {
  auto reads = register_reads(fn);
  std::size_t contracted = 0;
  auto& body = fn.body;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!body[i].instruction)
      continue;
    Instruction& mul = *body[i].instruction;
    const auto type = plain_float_type(mul, "mul");
    if (!type || mul.operands.size() != 3 || !is_reg(mul.operands[0]))
      continue;
    const std::string m = mul.operands[0].name;
    if (reads[m] != 1)
      continue;
    const Operand a = mul.operands[1], b = mul.operands[2];
    if ((is_reg(a) && a.name == m) || (is_reg(b) && b.name == m))
      continue;

    for (std::size_t j = i + 1; j < body.size(); ++j) {
      if (!body[j].instruction)
        break; // a label starts another block
      Instruction& use = *body[j].instruction;
      if (ends_block(use))
        break;
      const bool is_add = plain_float_type(use, "add") == type;
      const bool is_sub = plain_float_type(use, "sub") == type;
      const bool reads_m =
          use.operands.size() == 3 && ((is_reg(use.operands[1]) && use.operands[1].name == m) ||
                                       (is_reg(use.operands[2]) && use.operands[2].name == m));
      if (!reads_m) {
        // a or b rewritten before the use: the fused form would read the new values
        if ((is_reg(a) && writes(use, a.name)) || (is_reg(b) && writes(use, b.name)) ||
            writes(use, m))
          break;
        continue;
      }
      if (!(is_add || is_sub) || use.guard != mul.guard || use.guard_negated != mul.guard_negated)
        break;
      const bool m_first = is_reg(use.operands[1]) && use.operands[1].name == m;
      const Operand c = m_first ? use.operands[2] : use.operands[1];
      if (is_reg(c) && c.name == m)
        break;
      if (is_sub && m_first && is_reg(c)) {
        // -c is formed at the multiply's place: c must not change in between
        bool changed = false;
        for (std::size_t k = i + 1; k < j; ++k)
          changed |= writes(*body[k].instruction, c.name);
        if (changed)
          break;
      }
      if (is_add) {
        use = fma_from(use, *type, a, b, c); // a*b + c
      } else if (m_first) {
        // a*b - c: m is free (its only use is here), so it carries -c into the fma
        mul.opcode = "neg";
        mul.modifiers = {*type};
        mul.operands = {mul.operands[0], c};
        use = fma_from(use, *type, a, b, mul.operands[0]);
      } else {
        // c - a*b = (-a)*b + c
        mul.opcode = "neg";
        mul.modifiers = {*type};
        mul.operands = {mul.operands[0], a};
        use = fma_from(use, *type, mul.operands[0], b, c);
      }
      ++contracted;
      break;
    }
  }
  return contracted;
}

} // namespace

std::size_t contract_multiply_adds(ptx::Module& module) {
  std::size_t contracted = 0;
  for (auto& fn : module.functions)
    contracted += contract_function(fn);
  return contracted;
}

} // namespace gpurun::emu
