#include "backends/cpu/emu/decode.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/decoder.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

namespace {

// Unused bytes between .shared variables: an access running off the end of one array lands in
// this gap, where memcheck reports it against that array, instead of in the next array.
constexpr std::uint32_t kSharedRedzone = 256;

// Per-thread stack when the call graph has a cycle and no static bound exists.
constexpr std::uint32_t kRecursiveStackBytes = 32 * 1024;

std::uint32_t align_up(std::uint32_t v, std::uint32_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

std::size_t var_align(const ptx::Variable& v) {
  if (v.align)
    return v.align;
  auto t = parse_type(v.type);
  return t ? std::max(1u, type_bytes(*t)) * std::max(1, v.vector_width) : 1;
}

ptx::Operand register_operand(const std::string& name) {
  ptx::Operand o;
  o.kind = ptx::Operand::Kind::reg;
  o.name = name;
  return o;
}

struct RegInfo {
  std::uint32_t index = 0;
  bool pred = false;
  unsigned bits = 64;
};

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
  };
  return names;
}

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
      m_program.functions.push_back(std::move(df));
    }
    for (std::size_t i = 0; i < m_module.functions.size(); ++i)
      if (m_module.functions[i].has_body)
        decode_function(m_module.functions[i], i);
    compute_stack();
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
  void layout_module_variables() {
    std::uint32_t shared = 0;
    std::uint32_t declared = 0;
    auto place_shared = [&](const ptx::Variable& v) {
      if (v.is_extern || (v.array_size && *v.array_size == 0)) {
        if (m_dynamic_shared.empty())
          m_dynamic_name = v.name;
        else if (m_dynamic_shared.count(v.name) == 0)
          m_dynamic_name += "/" + v.name;
        m_dynamic_shared.insert(v.name);
        m_program.shared_align = std::max<std::uint32_t>(m_program.shared_align,
                                                         static_cast<std::uint32_t>(var_align(v)));
        return;
      }
      if (shared)
        shared += kSharedRedzone;
      shared = align_up(shared, static_cast<std::uint32_t>(var_align(v)));
      declared += static_cast<std::uint32_t>(v.size_bytes());
      m_program.shared_offsets[v.name] = shared;
      m_program.shared_variables.push_back(
          SharedVariable{v.name, shared, static_cast<std::uint32_t>(v.size_bytes()), false});
      shared += static_cast<std::uint32_t>(v.size_bytes());
    };
    for (const auto& v : m_module.globals) {
      if (v.space == ptx::StateSpace::shared) {
        place_shared(v);
      } else if (v.space == ptx::StateSpace::global || v.space == ptx::StateSpace::const_) {
        if (v.is_extern && v.init.empty() && v.size_bytes() == 0)
          continue;
        ModuleVariable mv;
        mv.name = v.name;
        mv.size = v.size_bytes();
        mv.align = var_align(v);
        mv.init = v.init;
        mv.init_symbols = v.init_symbols;
        mv.is_const = v.space == ptx::StateSpace::const_;
        m_module_vars.insert(v.name);
        m_program.variables.push_back(std::move(mv));
      }
    }
    for (const auto& fn : m_module.functions)
      for (const auto& v : fn.locals)
        if (v.space == ptx::StateSpace::shared)
          place_shared(v);
    m_program.static_shared_bytes = declared;
    if (shared && !m_dynamic_shared.empty())
      shared += kSharedRedzone;
    m_program.shared_layout_bytes = shared;
    m_dynamic_shared_offset = align_up(shared, m_program.shared_align);
    if (!m_dynamic_shared.empty())
      m_program.shared_variables.push_back(
          SharedVariable{m_dynamic_name, m_dynamic_shared_offset, 0, true});
  }

  void decode_function(const ptx::Function& fn, std::size_t index);
  void compute_stack();

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

// ---- operands ----------------------------------------------------------------------------------

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
    auto it = special_names().find(op.name);
    if (it == special_names().end())
      throw_unsupported(*current, "special register " + op.name);
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
  if (op.name[0] == '%' && m_regs.count(op.name)) {
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

// ---- functions ---------------------------------------------------------------------------------

void Decoder::decode_function(const ptx::Function& fn, std::size_t index) {
  DecodedFunction& df = m_program.functions[index];
  FunctionOperands od(*this, fn, df);
  if (m_callees.size() < m_program.functions.size())
    m_callees.resize(m_program.functions.size());
  df.begin = static_cast<std::uint32_t>(m_program.code.size());
  for (int i = 0; i < 3; ++i) {
    auto limit = fn.reqntid[i] ? fn.reqntid[i] : fn.maxntid[i];
    if (limit)
      df.max_threads = (df.max_threads ? df.max_threads : 1) * *limit;
  }

  std::unordered_map<std::string, std::uint32_t> labels;
  std::uint32_t pc = df.begin;
  for (const auto& st : fn.body) {
    if (st.label)
      labels[st.label->name] = pc;
    if (st.instruction)
      ++pc;
  }
  df.end = pc;

  for (const auto& st : fn.body) {
    if (!st.instruction)
      continue;
    const ptx::Instruction& in = *st.instruction;
    od.current = &in;
    od.pending_patch.clear();
    Inst out;
    out.line = in.line;
    out.source_file = in.source_file;
    out.source_line = in.source_line;
    if (!in.guard.empty()) {
      out.guard = od.pred_src(register_operand(in.guard), nullptr);
      out.guard_negated = in.guard_negated;
    }
    Modifiers mods(in.modifiers);
    const std::string& op = in.opcode;
    if (op == "bra" || op == "brx") {
      if (op == "brx")
        throw_unsupported(in);
      (void)mods.take("uni");
      if (in.operands.size() != 1 || in.operands[0].kind != ptx::Operand::Kind::symbol)
        throw_unsupported(in, "branch target");
      auto it = labels.find(in.operands[0].name);
      if (it == labels.end())
        throw device_error(
            fmt::format("PTX line {}: unknown label '{}'", in.line, in.operands[0].name));
      out.control = Control::bra;
      out.target = it->second;
    } else if (op == "call") {
      (void)mods.take("uni");
      if (in.operands.size() != 3 || in.operands[1].kind != ptx::Operand::Kind::symbol)
        throw_unsupported(in, "indirect call");
      auto callee = m_function_index.find(in.operands[1].name);
      if (callee == m_function_index.end())
        throw device_error(fmt::format("PTX line {}: call to unknown function '{}'", in.line,
                                       in.operands[1].name));
      CallSite site;
      site.callee = callee->second;
      for (const auto& r : in.operands[0].elements)
        site.rets.push_back(od.frame_var(r.name));
      for (const auto& a : in.operands[2].elements) {
        if (a.kind != ptx::Operand::Kind::symbol)
          throw_unsupported(in, "call argument that is not a .param");
        site.args.push_back(od.frame_var(a.name));
      }
      const DecodedFunction& target = m_program.functions[site.callee];
      if (!target.is_vprintf && !m_module.functions[site.callee].has_body)
        throw device_error(fmt::format("PTX line {}: call to external function '{}', which the "
                                       "emulator does not provide",
                                       in.line, target.name));
      out.control = target.is_vprintf ? Control::vprintf : Control::call;
      out.imm = df.frame_bytes; // the callee's frame starts after the caller's
      out.target = site.callee;
      out.aux = static_cast<std::uint32_t>(m_program.call_sites.size());
      m_program.call_sites.push_back(std::move(site));
      m_callees[index].insert(out.target);
    } else if (op == "ret") {
      (void)mods.take("uni");
      out.control = Control::ret;
    } else if (op == "exit") {
      out.control = Control::exit;
    } else if (op == "trap") {
      out.control = Control::trap;
    } else if ((op == "bar" || op == "barrier") &&
               std::find(in.modifiers.begin(), in.modifiers.end(), "warp") == in.modifiers.end()) {
      bool arrive = mods.take("arrive");
      // bar.red.popc.u32 d, a{, b}, {!}c / bar.red.{and,or}.pred p, a{, b}, {!}c: a bar.sync
      // that also reduces c over the threads that arrive.
      bool red = !arrive && mods.take("red");
      if (!arrive && !red && !mods.take("sync"))
        throw_unsupported(in);
      (void)mods.take("aligned");
      (void)mods.take("cta");
      out.control = arrive ? Control::bar_arrive : Control::bar_sync;
      auto ops = in.operands;
      if (red) {
        const auto kind = mods.take_any({"popc", "and", "or"});
        const auto types = mods.take_types();
        const Type want = kind == "popc" ? Type::u32 : Type::pred;
        if (kind.empty() || types.size() != 1 || types[0] != want || ops.size() < 3 ||
            ops.size() > 4)
          throw_unsupported(in);
        out.aux = kind == "popc" ? kBarRedPopc : kind == "and" ? kBarRedAnd : kBarRedOr;
        out.d = kind == "popc" ? od.dst(ops.front()) : od.pred_dst(ops.front());
        bool neg = false;
        out.c = od.pred_src(ops.back(), &neg);
        if (neg)
          out.flags |= kNegC;
        ops = std::vector<ptx::Operand>(ops.begin() + 1, ops.end() - 1);
      }
      if (ops.size() > 2 || (arrive && ops.size() != 2))
        throw_unsupported(in, "operand count");
      if (!ops.empty())
        out.a = od.src(ops[0], Type::u32);
      if (ops.size() == 2)
        out.b = od.src(ops[1], Type::u32);
    } else if (!(select_integer_ext(in, mods, od, out) || select_packed(in, mods, od, out) ||
                 select_integer(in, mods, od, out) || select_float(in, mods, od, out) ||
                 select_compare(in, mods, od, out) || select_convert(in, mods, od, out) ||
                 select_memory(in, mods, od, out) || select_atomic(in, mods, od, out) ||
                 select_bits(in, mods, od, out) || select_warp(in, mods, od, out))) {
      throw_unsupported(in);
    }
    if (!mods.leftover().empty())
      throw_unsupported(in);
    if (!od.pending_patch.empty())
      m_program.address_patches.emplace_back(static_cast<std::uint32_t>(m_program.code.size()),
                                             od.pending_patch);
    m_program.code.push_back(out);
  }
  // Falling off the end of a function returns.
  Inst ret;
  ret.control = Control::ret;
  ret.line = fn.line;
  m_program.code.push_back(ret);
  df.end = static_cast<std::uint32_t>(m_program.code.size());
}

void Decoder::compute_stack() {
  m_callees.resize(m_program.functions.size());
  std::size_t n = m_program.functions.size();
  std::vector<int> state(n, 0); // 0 new, 1 on the path, 2 done
  std::vector<std::uint32_t> depth(n, 0);
  bool cycle = false;
  std::function<std::uint32_t(std::uint32_t)> visit = [&](std::uint32_t f) -> std::uint32_t {
    if (state[f] == 1) {
      cycle = true;
      m_program.functions[f].recursive = true;
      return 0;
    }
    if (state[f] == 2)
      return depth[f];
    state[f] = 1;
    std::uint32_t deepest = 0;
    for (auto c : m_callees[f])
      deepest = std::max(deepest, visit(c));
    // Every function on a cycle saves its registers: mark the ones that reach themselves.
    for (auto c : m_callees[f])
      if (state[c] == 1)
        m_program.functions[f].recursive = true;
    state[f] = 2;
    depth[f] = m_program.functions[f].frame_bytes + deepest;
    return depth[f];
  };
  std::uint32_t need = 0;
  for (std::uint32_t f = 0; f < n; ++f)
    if (m_program.functions[f].is_entry)
      need = std::max(need, visit(f));
  if (cycle) {
    for (auto& f : m_program.functions)
      if (!f.is_entry && !f.is_vprintf)
        f.recursive = true;
    need = std::max(need, kRecursiveStackBytes);
  }
  m_program.local_bytes_per_thread = align_up(need, 16);
}

} // namespace

Program decode(const ptx::Module& module) {
  return Decoder(module).run();
}

} // namespace gpurun::emu
