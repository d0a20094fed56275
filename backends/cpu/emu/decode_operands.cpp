#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/detail/module_decoder.hpp"
#include "base/error.hpp"

namespace gpurun::emu::detail {

namespace {

const std::map<std::string, Special, std::less<>>& special_names() {
  static const std::map<std::string, Special, std::less<>> names{
      {"%tid.x", Special::tid_x},
      {"%tid.y", Special::tid_y},
      {"%tid.z", Special::tid_z},
      {"%ntid.x", Special::ntid_x},
      {"%ntid.y", Special::ntid_y},
      {"%ntid.z", Special::ntid_z},
      {"%ctaid.x", Special::ctaid_x},
      {"%ctaid.y", Special::ctaid_y},
      {"%ctaid.z", Special::ctaid_z},
      {"%nctaid.x", Special::nctaid_x},
      {"%nctaid.y", Special::nctaid_y},
      {"%nctaid.z", Special::nctaid_z},
      {"%laneid", Special::laneid},
      {"%warpid", Special::warpid},
      {"%nwarpid", Special::nwarpid},
      {"%smid", Special::smid},
      {"%nsmid", Special::nsmid},
      {"%lanemask_eq", Special::lanemask_eq},
      {"%lanemask_lt", Special::lanemask_lt},
      {"%lanemask_le", Special::lanemask_le},
      {"%lanemask_gt", Special::lanemask_gt},
      {"%lanemask_ge", Special::lanemask_ge},
      {"WARP_SZ", Special::warpsize},
      {"%gridid", Special::gridid},
      {"%is_explicit_cluster", Special::is_explicit_cluster},
      {"%clusterid.x", Special::clusterid_x},
      {"%clusterid.y", Special::clusterid_y},
      {"%clusterid.z", Special::clusterid_z},
      {"%nclusterid.x", Special::nclusterid_x},
      {"%nclusterid.y", Special::nclusterid_y},
      {"%nclusterid.z", Special::nclusterid_z},
      {"%cluster_ctaid.x", Special::cluster_ctaid_x},
      {"%cluster_ctaid.y", Special::cluster_ctaid_y},
      {"%cluster_ctaid.z", Special::cluster_ctaid_z},
      {"%cluster_nctaid.x", Special::cluster_nctaid_x},
      {"%cluster_nctaid.y", Special::cluster_nctaid_y},
      {"%cluster_nctaid.z", Special::cluster_nctaid_z},
      {"%cluster_ctarank", Special::cluster_ctarank},
      {"%cluster_nctarank", Special::cluster_nctarank},
      {"%total_smem_size", Special::total_smem_size},
      {"%aggr_smem_size", Special::aggr_smem_size},
      {"%dynamic_smem_size", Special::dynamic_smem_size},
      {"%reserved_smem_offset_begin", Special::reserved_smem_begin},
      {"%reserved_smem_offset_end", Special::reserved_smem_end},
      {"%reserved_smem_offset_cap", Special::reserved_smem_cap},
      {"%reserved_smem_offset_0", Special::reserved_smem_0},
      {"%reserved_smem_offset_1", Special::reserved_smem_1},
      {"%current_graph_exec", Special::zero},
  };
  return names;
}

// %pm0 … %pm7, %pm0_64 … %pm7_64 (performance counters) and %envreg0 … %envreg31 (driver values).
bool is_zero_special(std::string_view name) {
  auto number_below = [](std::string_view digits, int limit) {
    if (digits.empty() || digits.size() > 2 || (digits.size() > 1 && digits[0] == '0'))
      return false;
    int v = 0;
    for (char c : digits) {
      if (c < '0' || c > '9')
        return false;
      v = v * 10 + (c - '0');
    }
    return v < limit;
  };
  if (name.starts_with("%envreg"))
    return number_below(name.substr(7), 32);
  if (!name.starts_with("%pm"))
    return false;
  name.remove_prefix(3);
  if (name.ends_with("_64"))
    name.remove_suffix(3);
  return number_below(name, 8);
}

bool is_reserved_shared(Special s) {
  return s == Special::reserved_smem_begin || s == Special::reserved_smem_end ||
         s == Special::reserved_smem_0 || s == Special::reserved_smem_1;
}

} // namespace

FunctionOperands::FunctionOperands(Decoder& d, const ptx::Function& fn, DecodedFunction& out)
    : m_d(d) {
  Program& p = d.program();
  out.reg_begin = p.register_count;
  out.pred_begin = p.predicate_count;
  for (const auto& decl : fn.registers) {
    auto type = parse_type(decl.type);
    bool pred = type == Type::pred;
    unsigned bits = type ? std::max(1u, type_bytes(*type)) * 8 : 64;
    auto add = [&](const std::string& name) {
      RegInfo info;
      info.pred = pred;
      info.bits = bits;
      info.index = pred ? p.predicate_count++ : p.register_count++;
      m_regs[name] = info;
    };
    if (decl.count == 0)
      add(decl.name);
    else
      for (int i = 0; i < decl.count; ++i)
        add(decl.name + std::to_string(i));
  }
  out.reg_end = p.register_count;
  out.pred_end = p.predicate_count;

  // Frame: .local variables, then .param variables (parameters, returns, call-sequence params).
  std::uint32_t frame = 0;
  auto place = [&](const ptx::Variable& v) {
    frame = align_up(frame, static_cast<std::uint32_t>(var_align(v)));
    FrameVar fv{frame, static_cast<std::uint32_t>(v.size_bytes())};
    m_frame[v.name] = fv;
    frame += fv.size;
    return fv;
  };
  for (const auto& v : fn.locals)
    if (v.space == ptx::StateSpace::local)
      place(v);
  if (fn.is_entry) {
    // Laid out by the PTX entry parser, which the run pipeline and the CUDA backend use too.
    for (std::size_t i = 0; i < fn.params.size(); ++i) {
      const ptx::Variable& v = fn.params[i];
      FrameVar fv{static_cast<std::uint32_t>(fn.param_offsets[i]),
                  static_cast<std::uint32_t>(v.size_bytes())};
      m_kernel_params[v.name] = fv;
      out.kernel_params.push_back(fv);
      out.kernel_param_align.push_back(static_cast<std::uint32_t>(var_align(v)));
    }
    out.kernel_param_bytes = static_cast<std::uint32_t>(fn.param_bytes);
  } else {
    for (const auto& v : fn.params)
      out.params.push_back(place(v));
    for (const auto& v : fn.returns)
      out.returns.push_back(place(v));
  }
  for (const auto& v : fn.locals)
    if (v.space == ptx::StateSpace::param)
      place(v);
  out.frame_bytes = align_up(frame, 16);
}

const RegInfo& FunctionOperands::reg(const std::string& name) {
  auto it = m_regs.find(name);
  if (it == m_regs.end())
    throw device_error(
        fmt::format("PTX line {}: undeclared register '{}'", current ? current->line : 0, name));
  return it->second;
}

FrameVar FunctionOperands::frame_var(const std::string& name) const {
  auto it = m_frame.find(name);
  if (it == m_frame.end())
    throw device_error(fmt::format("PTX line {}: '{}' is not a .param or .local variable of this "
                                   "function",
                                   current ? current->line : 0, name));
  return it->second;
}

std::uint32_t FunctionOperands::src(const ptx::Operand& op, Type type) {
  using K = ptx::Operand::Kind;
  switch (op.kind) {
  case K::reg: {
    const RegInfo& r = reg(op.name);
    if (r.pred)
      throw_unsupported(*current, "predicate used as a value");
    return r.index;
  }
  case K::special: {
    if (is_zero_special(op.name))
      return m_d.special(Special::zero);
    auto it = special_names().find(op.name);
    if (it == special_names().end())
      throw_unsupported(*current, "special register " + op.name);
    if (is_reserved_shared(it->second))
      m_d.program().uses_reserved_shared = true;
    return m_d.special(it->second);
  }
  case K::imm_int: {
    std::uint64_t v = op.bits;
    if (type == Type::f32)
      v = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int64_t>(v)));
    if (type == Type::f64)
      v = std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int64_t>(v)));
    return m_d.constant(v);
  }
  case K::imm_f32: {
    std::uint64_t v = op.bits & 0xffffffffu;
    if (type == Type::f64)
      v = std::bit_cast<std::uint64_t>(
          static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v))));
    return m_d.constant(v);
  }
  case K::imm_f64: {
    std::uint64_t v = op.bits;
    if (type == Type::f32)
      v = std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(v)));
    return m_d.constant(v);
  }
  case K::symbol: {
    if (m_d.is_module_variable(op.name))
      return m_d.symbol_value(op.name);
    if (const auto* off = m_d.shared_offset(op.name))
      return m_d.constant(kSharedBase + *off);
    if (m_d.is_dynamic_shared(op.name))
      return m_d.constant(kSharedBase + m_d.dynamic_shared_offset());
    auto kp = m_kernel_params.find(op.name);
    if (kp != m_kernel_params.end())
      return m_d.constant(kParamBase + kp->second.offset);
    throw_unsupported(*current, "symbol '" + op.name + "' as a value");
  }
  default:
    throw_unsupported(*current, "operand form");
  }
}

std::uint32_t FunctionOperands::dst(const ptx::Operand& op) {
  if (op.kind == ptx::Operand::Kind::sink)
    return kNoReg;
  if (op.kind != ptx::Operand::Kind::reg)
    throw_unsupported(*current, "destination is not a register");
  const RegInfo& r = reg(op.name);
  if (r.pred)
    throw_unsupported(*current, "predicate as a value destination");
  return r.index;
}

std::uint64_t FunctionOperands::dst_mask(const ptx::Operand& op) {
  if (op.kind != ptx::Operand::Kind::reg)
    return ~std::uint64_t{0};
  unsigned bits = reg(op.name).bits;
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

bool FunctionOperands::is_pred(const ptx::Operand& op) {
  return op.kind == ptx::Operand::Kind::reg && reg(op.name).pred;
}

std::uint32_t FunctionOperands::pred_src(const ptx::Operand& op, bool* negated) {
  if (negated)
    *negated = op.negated;
  if (op.kind == ptx::Operand::Kind::imm_int) {
    Program& p = m_d.program();
    std::uint32_t& slot = op.bits ? p.pred_true : p.pred_false;
    if (slot == kNoReg)
      slot = p.predicate_count++;
    return slot;
  }
  if (op.kind != ptx::Operand::Kind::reg || !reg(op.name).pred)
    throw_unsupported(*current, "expected a predicate register");
  return reg(op.name).index;
}

std::uint32_t FunctionOperands::pred_dst(const ptx::Operand& op) {
  if (op.kind == ptx::Operand::Kind::sink)
    return kNoReg;
  return pred_src(op, nullptr);
}

void FunctionOperands::address(const ptx::Operand& op, Inst& inst) {
  using K = ptx::Operand::Kind;
  if (op.kind != K::address)
    throw_unsupported(*current, "expected an address operand");
  inst.imm = op.offset;
  inst.a = kNoReg;
  if (op.name.empty())
    return;
  if (m_regs.count(op.name)) {
    inst.a = dst(register_operand(op.name));
    return;
  }
  if (auto kp = m_kernel_params.find(op.name); kp != m_kernel_params.end()) {
    inst.imm += static_cast<std::int64_t>(kParamBase + kp->second.offset);
    if (inst.space == Space::generic || inst.space == Space::param_kernel ||
        inst.space == Space::param_frame)
      inst.space = Space::param_kernel;
    else
      throw_unsupported(*current, "kernel parameter in another state space");
    return;
  }
  if (auto fv = m_frame.find(op.name); fv != m_frame.end()) {
    inst.imm += fv->second.offset;
    inst.flags |= kFrameRelative;
    if (inst.space == Space::generic || inst.space == Space::param_frame ||
        inst.space == Space::param_kernel)
      inst.space = Space::local;
    return;
  }
  if (const auto* off = m_d.shared_offset(op.name)) {
    inst.imm += static_cast<std::int64_t>(kSharedBase + *off);
    return;
  }
  if (m_d.is_dynamic_shared(op.name)) {
    inst.imm += static_cast<std::int64_t>(kSharedBase + m_d.dynamic_shared_offset());
    return;
  }
  if (m_d.is_module_variable(op.name)) {
    pending_patch = op.name;
    return;
  }
  throw_unsupported(*current, "unknown address symbol '" + op.name + "'");
}

bool FunctionOperands::frame_symbol(const ptx::Operand& op, std::int64_t* offset) {
  if (op.kind != ptx::Operand::Kind::symbol)
    return false;
  auto fv = m_frame.find(op.name);
  if (fv == m_frame.end())
    return false;
  *offset = fv->second.offset;
  return true;
}

std::string FunctionOperands::dynamic_special(const ptx::Operand& op) {
  if (op.kind != ptx::Operand::Kind::special)
    return {};
  if (op.name == "%clock" || op.name == "%clock64" || op.name == "%globaltimer" ||
      op.name == "%globaltimer_lo" || op.name == "%globaltimer_hi" || op.name == "%clock_hi")
    return op.name;
  return {};
}

std::uint32_t FunctionOperands::add_matrix_op(MatrixOp op) {
  m_d.m_program.matrix_ops.push_back(std::move(op));
  return static_cast<std::uint32_t>(m_d.m_program.matrix_ops.size() - 1);
}

} // namespace gpurun::emu::detail
