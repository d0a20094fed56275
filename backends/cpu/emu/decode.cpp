#include "backends/cpu/emu/decode.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/detail/module_decoder.hpp"
#include "base/error.hpp"

namespace gpurun::emu {
namespace detail {

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

// ---- module variables
// ----------------------------------------------------------------------------

constexpr std::uint64_t k_max_static_shared = std::uint64_t{1} << 30;

void Decoder::layout_module_variables() {
  std::uint32_t shared = 0;
  std::uint32_t declared = 0;
  auto place_shared = [&](const ptx::Variable& v) {
    if (v.is_extern || (v.array_size && *v.array_size == 0)) {
      if (m_dynamic_shared.empty())
        m_dynamic_name = v.name;
      else if (m_dynamic_shared.count(v.name) == 0)
        m_dynamic_name += "/" + v.name;
      m_dynamic_shared.insert(v.name);
      m_program.shared_align =
          std::max<std::uint32_t>(m_program.shared_align, static_cast<std::uint32_t>(var_align(v)));
      return;
    }
    // No device has a gigabyte of shared memory; the bound keeps the 32-bit offsets exact.
    if (v.size_bytes() > k_max_static_shared ||
        std::uint64_t{shared} + kSharedRedzone + var_align(v) + v.size_bytes() >
            k_max_static_shared)
      throw Error(ExitCode::compile,
                  fmt::format("PTX line {}: static shared memory beyond {} bytes with '{}'", v.line,
                              k_max_static_shared, v.name));
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

// ---- functions ---------------------------------------------------------------------------------

Inst Decoder::decode_instruction(const ptx::Instruction& in, FunctionOperands& od,
                                 std::size_t index,
                                 const std::unordered_map<std::string, std::uint32_t>& labels) {
  DecodedFunction& df = m_program.functions[index];
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
      throw device_error(
          fmt::format("PTX line {}: call to unknown function '{}'", in.line, in.operands[1].name));
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
    const bool heap = target.is_malloc || target.is_free;
    if (!target.is_vprintf && !heap && !target.is_assertfail &&
        !m_module.functions[site.callee].has_body)
      throw UnsupportedInstruction(fmt::format("PTX line {}: call to external function '{}', "
                                               "which the emulator does not provide",
                                               in.line, target.name));
    out.control = target.is_vprintf      ? Control::vprintf
                  : heap                 ? Control::heap_call
                  : target.is_assertfail ? Control::assert_fail
                                         : Control::call;
    out.imm = df.frame_bytes; // the callee's frame starts after the caller's
    out.target = site.callee;
    out.aux = static_cast<std::uint32_t>(m_program.call_sites.size());
    m_program.call_sites.push_back(std::move(site));
    m_callees[index].insert(out.target);
    if (heap) { // device_heap_call: 1 malloc, 2 free
      out.target = target.is_malloc ? 1 : 2;
      m_program.uses_heap = true;
    }
  } else if (op == "ret") {
    (void)mods.take("uni");
    out.control = Control::ret;
  } else if (op == "exit") {
    out.control = Control::exit;
  } else if (op == "trap") {
    out.control = Control::trap;
  } else if (op == "barrier" && mods.take("cluster")) {
    // barrier.cluster.arrive / .wait (NVRTC's code for a generic cooperative-groups sync on
    // sm_90): without a cluster launch each block is its own cluster, so either half is the
    // block's barrier — every thread of the block passes both, so a full barrier at each is the
    // same synchronisation.
    if (!mods.take("arrive") && !mods.take("wait"))
      throw_unsupported(in);
    (void)mods.take_any({"release", "relaxed", "acquire"});
    (void)mods.take("aligned");
    if (!in.operands.empty())
      throw_unsupported(in, "operand count");
    out.control = Control::bar_sync;
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
      if (kind.empty() || types.size() != 1 || types[0] != want || ops.size() < 3 || ops.size() > 4)
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
  } else if (in.operands.empty() && in.opcode != "membar" && in.opcode != "fence" &&
             in.opcode != "cp") {
    // Every other instruction has a destination or an address; the selectors below take
    // their first operand for granted.
    throw_unsupported(in, "operand count");
  } else if (!(select_fp8_convert(in, mods, od, out) || select_integer_ext(in, mods, od, out) ||
               select_packed(in, mods, od, out) || select_integer(in, mods, od, out) ||
               select_float(in, mods, od, out) || select_compare(in, mods, od, out) ||
               select_convert(in, mods, od, out) || select_memory(in, mods, od, out) ||
               select_atomic(in, mods, od, out) || select_bits(in, mods, od, out) ||
               select_warp(in, mods, od, out) || select_tensor(in, mods, od, out))) {
    throw_unsupported(in);
  }
  if (!mods.leftover().empty())
    throw_unsupported(in);
  return out;
}

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
    try {
      out = decode_instruction(in, od, index, labels);
    } catch (const UnsupportedInstruction& e) {
      // Recorded, not thrown: only the kernels that can reach this function are refused.
      if (df.unsupported.empty())
        df.unsupported = e.what();
      out = Inst{};
      out.control = Control::trap;
      out.line = in.line;
      od.pending_patch.clear();
    }
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
  // Depth first with an explicit stack: a call chain as long as the PTX text must not exhaust
  // gpurun's own stack. `result` is what the last finished visit returned.
  struct Frame {
    std::uint32_t f;
    std::set<std::uint32_t>::const_iterator next_callee;
    std::uint32_t deepest = 0;
  };
  std::vector<Frame> path;
  std::uint32_t result = 0;
  auto enter = [&](std::uint32_t f) { // true when `f` is new and now on the path
    if (state[f] == 1) {
      cycle = true;
      m_program.functions[f].recursive = true;
      result = 0;
      return false;
    }
    if (state[f] == 2) {
      result = depth[f];
      return false;
    }
    state[f] = 1;
    path.push_back(Frame{f, m_callees[f].begin()});
    return true;
  };
  auto visit = [&](std::uint32_t root) {
    if (!enter(root))
      return result;
    while (!path.empty()) {
      const std::uint32_t f = path.back().f;
      if (path.back().next_callee != m_callees[f].end()) {
        if (!enter(*path.back().next_callee++))
          path.back().deepest = std::max(path.back().deepest, result);
        continue;
      }
      // Every function on a cycle saves its registers: mark the ones that reach themselves.
      for (auto c : m_callees[f])
        if (state[c] == 1)
          m_program.functions[f].recursive = true;
      state[f] = 2;
      depth[f] = m_program.functions[f].frame_bytes + path.back().deepest;
      result = depth[f];
      path.pop_back();
      if (!path.empty())
        path.back().deepest = std::max(path.back().deepest, result);
    }
    return result;
  };
  std::uint32_t need = 0;
  for (std::uint32_t f = 0; f < n; ++f)
    if (m_program.functions[f].is_entry)
      need = std::max(need, visit(f));
  if (cycle) {
    for (auto& f : m_program.functions)
      if (!f.is_entry && !f.is_vprintf && !f.is_malloc && !f.is_free && !f.is_assertfail)
        f.recursive = true;
    need = std::max(need, kRecursiveStackBytes);
  }
  m_program.local_bytes_per_thread = align_up(need, 16);
}

void Decoder::mark_kernels_that_cannot_run() {
  // Each kernel's call graph, from its entry, in call order: the first unsupported instruction
  // it can reach is the one its launch reports.
  const std::size_t n = m_program.functions.size();
  for (std::uint32_t entry = 0; entry < n; ++entry) {
    DecodedFunction& kernel = m_program.functions[entry];
    if (!kernel.is_entry)
      continue;
    std::vector<bool> seen(n, false);
    std::vector<std::uint32_t> todo{entry};
    seen[entry] = true;
    for (std::size_t i = 0; i < todo.size() && kernel.cannot_run.empty(); ++i) {
      const DecodedFunction& f = m_program.functions[todo[i]];
      if (!f.unsupported.empty()) {
        kernel.cannot_run =
            f.name == kernel.name
                ? fmt::format("kernel '{}': {}", kernel.name, f.unsupported)
                : fmt::format("kernel '{}': {}, in function '{}' that the kernel can call",
                              kernel.name, f.unsupported, f.name);
        break;
      }
      for (std::uint32_t c : m_callees[todo[i]])
        if (!seen[c]) {
          seen[c] = true;
          todo.push_back(c);
        }
    }
  }
}

} // namespace detail

Program decode(const ptx::Module& module) {
  return detail::Decoder(module).run();
}

} // namespace gpurun::emu
