#pragma once
// The decoder's own types, shared by decode.cpp (module layout, functions, stack sizes) and
// decode_operands.cpp (registers, specials, addresses). Not for use outside the decoder.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/cpu/emu/decoder.hpp"

namespace gpurun::emu::detail {

// Unused bytes between .shared variables: an access running off the end of one array lands in
// this gap, where memcheck reports it against that array, instead of in the next array.
constexpr std::uint32_t kSharedRedzone = 256;

// Per-thread stack when the call graph has a cycle and no static bound exists.
constexpr std::uint32_t kRecursiveStackBytes = 32 * 1024;

[[nodiscard]] std::uint32_t align_up(std::uint32_t v, std::uint32_t a);
[[nodiscard]] std::size_t var_align(const ptx::Variable& v);
[[nodiscard]] ptx::Operand register_operand(const std::string& name);

struct RegInfo {
  std::uint32_t index = 0;
  bool pred = false;
  unsigned bits = 64;
};

class Decoder;

class FunctionOperands final : public OperandDecoder {
public:
  FunctionOperands(Decoder& d, const ptx::Function& fn, DecodedFunction& out);
  std::uint32_t src(const ptx::Operand& op, Type type) override;
  std::uint32_t dst(const ptx::Operand& op) override;
  std::uint64_t dst_mask(const ptx::Operand& op) override;
  bool is_pred(const ptx::Operand& op) override;
  std::uint32_t pred_src(const ptx::Operand& op, bool* negated) override;
  std::uint32_t pred_dst(const ptx::Operand& op) override;
  void address(const ptx::Operand& op, Inst& inst) override;
  bool frame_symbol(const ptx::Operand& op, std::int64_t* offset) override;
  std::string dynamic_special(const ptx::Operand& op) override;
  std::uint32_t add_matrix_op(MatrixOp op) override;

  [[nodiscard]] const RegInfo& reg(const std::string& name);
  [[nodiscard]] FrameVar frame_var(const std::string& name) const;

  std::string pending_patch; // a module variable whose address the current inst's imm needs
  const ptx::Instruction* current = nullptr;

private:
  Decoder& m_d;
  std::unordered_map<std::string, RegInfo> m_regs;
  std::unordered_map<std::string, FrameVar> m_frame;         // .local and .param variables
  std::unordered_map<std::string, FrameVar> m_kernel_params; // offsets in the param buffer
};

class Decoder {
public:
  explicit Decoder(const ptx::Module& m) : m_module(m) {}

  Program run() {
    layout_module_variables();
    for (const auto& fn : m_module.functions) {
      m_function_index[fn.name] = static_cast<std::uint32_t>(m_program.functions.size());
      DecodedFunction df;
      df.name = fn.name;
      df.is_entry = fn.is_entry;
      df.is_vprintf = !fn.has_body && fn.name == "vprintf";
      df.is_malloc = !fn.has_body && fn.name == "malloc";
      df.is_free = !fn.has_body && fn.name == "free";
      df.is_assertfail = !fn.has_body && fn.name == "__assertfail";
      m_program.functions.push_back(std::move(df));
    }
    for (std::size_t i = 0; i < m_module.functions.size(); ++i)
      if (m_module.functions[i].has_body)
        decode_function(m_module.functions[i], i);
    compute_stack();
    mark_kernels_that_cannot_run();
    m_program.files = m_module.files;
    return std::move(m_program);
  }

  std::uint32_t constant(std::uint64_t value) {
    auto it = m_constants.find(value);
    if (it != m_constants.end())
      return it->second;
    std::uint32_t r = m_program.register_count++;
    m_program.constants.emplace_back(r, value);
    m_constants.emplace(value, r);
    return r;
  }

  std::uint32_t special(Special s) {
    auto it = m_specials.find(s);
    if (it != m_specials.end())
      return it->second;
    std::uint32_t r = m_program.register_count++;
    m_program.specials.emplace_back(r, s);
    m_specials.emplace(s, r);
    return r;
  }

  // A module variable's address as a value: a slot patched when the module is loaded.
  std::uint32_t symbol_value(const std::string& name) {
    auto it = m_symbol_slots.find(name);
    if (it != m_symbol_slots.end())
      return it->second;
    std::uint32_t r = m_program.register_count++;
    m_program.symbol_slots.emplace_back(r, name);
    m_symbol_slots.emplace(name, r);
    return r;
  }

  [[nodiscard]] bool is_module_variable(const std::string& name) const {
    return m_module_vars.count(name) != 0;
  }
  [[nodiscard]] const std::uint32_t* shared_offset(const std::string& name) const {
    auto it = m_program.shared_offsets.find(name);
    return it == m_program.shared_offsets.end() ? nullptr : &it->second;
  }
  [[nodiscard]] std::uint32_t dynamic_shared_offset() const { return m_dynamic_shared_offset; }
  [[nodiscard]] bool is_dynamic_shared(const std::string& name) const {
    return m_dynamic_shared.count(name) != 0;
  }
  Program& program() { return m_program; }

private:
  void layout_module_variables();

  void decode_function(const ptx::Function& fn, std::size_t index);
  /// One instruction; throws UnsupportedInstruction for what the emulator does not implement.
  Inst decode_instruction(const ptx::Instruction& in, FunctionOperands& od, std::size_t index,
                          const std::unordered_map<std::string, std::uint32_t>& labels);
  void compute_stack();
  /// Sets cannot_run on every kernel that can reach a function with an unsupported instruction.
  void mark_kernels_that_cannot_run();

  const ptx::Module& m_module;
  Program m_program;
  std::map<std::uint64_t, std::uint32_t> m_constants;
  std::map<Special, std::uint32_t> m_specials;
  std::map<std::string, std::uint32_t> m_symbol_slots;
  std::set<std::string> m_module_vars;
  std::set<std::string> m_dynamic_shared;
  std::string m_dynamic_name; // the extern .shared names (they all alias one array)
  std::uint32_t m_dynamic_shared_offset = 0;
  std::map<std::string, std::uint32_t> m_function_index;
  std::vector<std::set<std::uint32_t>> m_callees;

  friend class FunctionOperands;
};

} // namespace gpurun::emu::detail
