#include "backends/cpu/native/translate.hpp"

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/types.hpp"
#include "backends/cpu/native/affine.hpp"

namespace gpurun::native {

namespace {

using emu::Control;
using emu::Inst;
using emu::kNoReg;
using emu::Space;
using emu::Special;
using emu::Type;

/// Thrown while translating: the kernel stays on the interpreter.
struct Refusal {
  std::string why;
};

/// The four versions of a region's code.
enum class Mode {
  checked,   ///< the lane loop that checks every access against its site's window
  check,     ///< only the checks, for every lane, before an unchecked loop
  unchecked, ///< the lane loop once every access is known to be in its window
  resume,    ///< one thread from where the checked loop left it, translating exactly
};

/// Labels of a region's code: each version of it gets its own.
char label_prefix(Mode m) {
  switch (m) {
  case Mode::checked:
    return 'L';
  case Mode::check:
    return 'C';
  case Mode::unchecked:
    return 'U';
  case Mode::resume:
    return 'R';
  }
  return 'L';
}

// Inst::flags bits of ld/st (ops_memory.cpp).
constexpr std::uint8_t kSignExtend = 0x10;

const char* ctype(Type t) {
  switch (t) {
  case Type::b8:
  case Type::u8:
    return "std::uint8_t";
  case Type::b16:
  case Type::u16:
    return "std::uint16_t";
  case Type::b32:
  case Type::u32:
    return "std::uint32_t";
  case Type::b64:
  case Type::u64:
    return "std::uint64_t";
  case Type::s8:
    return "std::int8_t";
  case Type::s16:
    return "std::int16_t";
  case Type::s32:
    return "std::int32_t";
  case Type::s64:
    return "std::int64_t";
  case Type::f16:
    return "Half";
  case Type::bf16:
    return "BFloat16";
  case Type::f32:
    return "float";
  case Type::f64:
    return "double";
  default:
    return nullptr;
  }
}

const char* unsigned_of_bytes(unsigned bytes) {
  switch (bytes) {
  case 1:
    return "std::uint8_t";
  case 2:
    return "std::uint16_t";
  case 4:
    return "std::uint32_t";
  case 8:
    return "std::uint64_t";
  default:
    return nullptr;
  }
}

bool is_int(Type t) {
  return ctype(t) != nullptr && !emu::is_float(t);
}


const char* round_of(std::int64_t r) {
  static const char* const names[] = {"nm::Round::rn", "nm::Round::rz", "nm::Round::rm",
                                      "nm::Round::rp", "nm::Round::rna"};
  return r >= 0 && r < 5 ? names[r] : nullptr;
}

/// The instruction's type modifiers, in order, and whether every other modifier is in `allowed`.
struct Modifiers {
  std::vector<Type> types;
  std::set<std::string> rest;
  [[nodiscard]] bool has(const std::string& m) const { return rest.count(m) != 0; }
  [[nodiscard]] bool only(std::initializer_list<std::string_view> allowed) const {
    return std::all_of(rest.begin(), rest.end(), [&](const std::string& m) {
      return std::find(allowed.begin(), allowed.end(), m) != allowed.end();
    });
  }
};

Modifiers modifiers_of(const ptx::Instruction& in) {
  Modifiers m;
  for (const auto& text : in.modifiers) {
    if (auto t = emu::parse_type(text))
      m.types.push_back(*t);
    else
      m.rest.insert(text);
  }
  return m;
}

/// Translates one kernel: regions, then each region's fast loop and resume function.
class Translator {
public:
  Translator(const emu::Program& program, const ptx::Function& fn, std::uint32_t function)
      : m_program(program), m_function(program.functions[function]) {
    for (const auto& st : fn.body)
      if (st.instruction)
        m_ast.push_back(&*st.instruction);
    for (const auto& [slot, value] : program.constants)
      m_constants[slot] = value;
    for (const auto& [slot, special] : program.specials)
      m_specials[slot] = special;
  }

  Translation run() {
    Translation result;
    try {
      check_instructions();
      find_regions();
      std::set<std::uint32_t> read;
      std::map<std::uint32_t, std::set<std::uint32_t>> defs;
      std::map<std::uint32_t, Use> uses;
      for (std::uint32_t r = 0; r < m_heads.size(); ++r) {
        const Body b = body(r, Mode::checked);
        m_crossing.insert(b.live_in.begin(), b.live_in.end());
        m_pcrossing.insert(b.plive_in.begin(), b.plive_in.end());
        for (const auto& [pc, u] : b.uses) {
          read.insert(u.read.begin(), u.read.end());
          for (std::uint32_t w : u.written)
            defs[w].insert(pc);
          uses[pc] = u;
        }
      }
      find_recomputable(defs, uses);
      find_raw_nan(uses);
      std::set<std::uint32_t> single_writes;
      for (const auto& [pc, u] : uses)
        if (u.written.size() == 1)
          single_writes.insert(pc);
      m_affine = guess_affine(
          {m_program, m_ast, m_function.begin, m_constants, m_specials, defs, single_writes});
      for (const auto& [slot, pc] : m_recompute)
        m_crossing.erase(slot);
      for (const auto& [slot, pc] : m_must_be_unread)
        if (read.count(slot))
          refuse(pc, "an atomic whose old value is used (the order of threads would show)");
      std::string out = prelude();
      for (std::size_t r = 0; r < m_heads.size(); ++r) {
        out += region_function(static_cast<std::uint32_t>(r), true);
        out += region_function(static_cast<std::uint32_t>(r), false);
      }
      out += exports();
      result.ok = true;
      result.source = std::move(out);
      result.regions = static_cast<std::uint32_t>(m_heads.size());
      result.sites = static_cast<std::uint32_t>(m_sites.size());
    } catch (const Refusal& r) {
      result.refusal = r.why;
    }
    return result;
  }

private:
  [[noreturn]] void refuse(std::uint32_t pc, std::string_view why) const {
    const Inst& in = m_program.code[pc];
    std::string text;
    if (const auto* a = ast(pc)) {
      text = a->opcode;
      for (const auto& m : a->modifiers)
        text += "." + m;
    }
    throw Refusal{fmt::format("PTX line {}: {}{}{}", in.line, text, text.empty() ? "" : ": ", why)};
  }

  [[nodiscard]] const ptx::Instruction* ast(std::uint32_t pc) const {
    const std::uint32_t k = pc - m_function.begin;
    return k < m_ast.size() ? m_ast[k] : nullptr;
  }

  // ---- structure -------------------------------------------------------------------------

  void check_instructions() {
    if (!m_function.cannot_run.empty())
      throw Refusal{m_function.cannot_run};
    if (m_ast.size() + 1 != m_function.end - m_function.begin)
      throw Refusal{"the decoded program does not match the PTX"};
    for (std::uint32_t pc = m_function.begin; pc < m_function.end; ++pc) {
      const Inst& in = m_program.code[pc];
      switch (in.control) {
      case Control::none:
      case Control::bra:
      case Control::ret:
      case Control::exit:
        break;
      case Control::bar_sync:
        if (in.guard != kNoReg)
          refuse(pc, "a barrier under a guard");
        if (in.b != kNoReg || in.aux != 0 || (in.a != kNoReg && constant(in.a) != 0))
          refuse(pc, "a barrier other than barrier 0 of the whole block");
        break;
      case Control::call:
        refuse(pc, "a call of a device function");
      case Control::vprintf:
        refuse(pc, "device printf");
      case Control::heap_call:
        refuse(pc, "device malloc/free");
      case Control::assert_fail:
        refuse(pc, "device assert");
      case Control::warp_sync:
        refuse(pc, "a warp collective");
      default:
        refuse(pc, "not handled by the compiled engine");
      }
    }
  }

  void find_regions() {
    std::set<std::uint32_t> heads{m_function.begin};
    for (std::uint32_t pc = m_function.begin; pc < m_function.end; ++pc) {
      const Inst& in = m_program.code[pc];
      if (in.control == Control::bar_sync && pc + 1 < m_function.end)
        heads.insert(pc + 1);
      if (in.control == Control::bra && in.target <= pc)
        heads.insert(in.target);
    }
    m_heads.assign(heads.begin(), heads.end());
    for (std::size_t i = 0; i < m_heads.size(); ++i)
      m_region_of[m_heads[i]] = static_cast<std::uint32_t>(i);
    for (std::uint32_t pc = m_function.begin; pc < m_function.end; ++pc) {
      const Inst& in = m_program.code[pc];
      // Kernel parameters named without a register are read from the launch's copy: no site.
      const bool parameter = in.space == Space::param_kernel && in.a == kNoReg;
      if (in.control == Control::none && is_memory(pc) && !parameter)
        m_sites[pc] = static_cast<std::uint32_t>(m_sites.size());
    }
  }

  [[nodiscard]] bool is_head(std::uint32_t pc) const { return m_region_of.count(pc) != 0; }

  /// The instructions a thread can run from region `r`'s head before it leaves the region.
  [[nodiscard]] std::vector<std::uint32_t> region_code(std::uint32_t r) const {
    std::set<std::uint32_t> seen;
    std::vector<std::uint32_t> todo{m_heads[r]};
    while (!todo.empty()) {
      const std::uint32_t pc = todo.back();
      todo.pop_back();
      if (pc >= m_function.end || !seen.insert(pc).second)
        continue;
      const Inst& in = m_program.code[pc];
      const bool guarded = in.guard != kNoReg;
      auto follow = [&](std::uint32_t next) {
        if (next > pc && !is_head(next))
          todo.push_back(next);
      };
      switch (in.control) {
      case Control::bra:
        follow(in.target);
        if (guarded)
          follow(pc + 1);
        break;
      case Control::ret:
      case Control::exit:
        if (guarded)
          follow(pc + 1);
        break;
      case Control::bar_sync:
        break;
      default:
        follow(pc + 1);
      }
    }
    return {seen.begin(), seen.end()};
  }

  // ---- values ----------------------------------------------------------------------------

  [[nodiscard]] std::uint64_t constant(std::uint32_t slot) const {
    auto it = m_constants.find(slot);
    return it == m_constants.end() ? ~std::uint64_t{0} : it->second;
  }

  /// A register slot's value as a std::uint64_t expression.
  std::string val(std::uint32_t slot) {
    if (slot == kNoReg)
      throw Refusal{"an operand the compiled engine does not read"};
    if (auto it = m_constants.find(slot); it != m_constants.end())
      return fmt::format("std::uint64_t{{{:#x}u}}", it->second);
    if (auto it = m_specials.find(slot); it != m_specials.end())
      return special(it->second);
    m_read.insert(slot);
    return fmt::format("r{}", slot);
  }

  std::string get(const char* type, std::uint32_t slot) {
    return fmt::format("get<{}>({})", type, val(slot));
  }

  /// `value` into register `slot`. `narrow`: the value is below 2^32; a `put<T>(…)` of a type
  /// of 32 bits or less is known to be. A register no instruction writes wider is kept in 32 bits
  /// (the zero-extension the interpreter's 64-bit slot holds is implied), which doubles the
  /// lanes of the compiler's vectors.
  std::string set(std::uint32_t slot, const std::string& value, bool narrow = false) {
    if (slot == kNoReg)
      return fmt::format("(void)({});", value);
    if (m_constants.count(slot) || m_specials.count(slot))
      throw Refusal{"a write to a constant register"};
    static const char* const narrow_puts[] = {
        "put<std::uint8_t>(", "put<std::uint16_t>(", "put<std::uint32_t>(", "put<std::int8_t>(",
        "put<std::int16_t>(", "put<std::int32_t>(", "put<float>(",         "put<Half>(",
        "put<BFloat16>("};
    for (const char* prefix : narrow_puts)
      narrow = narrow || value.starts_with(prefix);
    if (!narrow)
      m_wide.insert(slot);
    m_written.insert(slot);
    return fmt::format("r{} = {};", slot, value);
  }

  [[nodiscard]] bool is_narrow(std::uint32_t slot) const { return m_wide.count(slot) == 0; }
  /// A register's per-thread array entry.
  [[nodiscard]] std::string stored(std::uint32_t slot) const {
    return is_narrow(slot) ? fmt::format("R32[std::size_t{{{}}} * T + t]", slot)
                           : fmt::format("R[std::size_t{{{}}} * T + t]", slot);
  }

  std::string pval(std::uint32_t slot, bool negated) {
    std::string v;
    if (slot == m_program.pred_true)
      v = "true";
    else if (slot == m_program.pred_false)
      v = "false";
    else {
      m_pread.insert(slot);
      v = fmt::format("p{}", slot);
    }
    return negated ? "!" + v : v;
  }

  std::string pset(std::uint32_t slot, const std::string& value) {
    if (slot == kNoReg)
      return fmt::format("(void)({});", value);
    m_pwritten.insert(slot);
    return fmt::format("p{} = {};", slot, value);
  }

  static std::string special(Special s) {
    const char* lane = "(t & 31u)";
    switch (s) {
    case Special::tid_x:
      return "std::uint64_t(tx)";
    case Special::tid_y:
      return "std::uint64_t(ty)";
    case Special::tid_z:
      return "std::uint64_t(tz)";
    case Special::ntid_x:
      return "std::uint64_t(bx)";
    case Special::ntid_y:
      return "std::uint64_t(by)";
    case Special::ntid_z:
      return "std::uint64_t(bz)";
    case Special::ctaid_x:
    case Special::clusterid_x:
      return "std::uint64_t(cx)";
    case Special::ctaid_y:
    case Special::clusterid_y:
      return "std::uint64_t(cy)";
    case Special::ctaid_z:
    case Special::clusterid_z:
      return "std::uint64_t(cz)";
    case Special::nctaid_x:
    case Special::nclusterid_x:
      return "std::uint64_t(L->grid[0])";
    case Special::nctaid_y:
    case Special::nclusterid_y:
      return "std::uint64_t(L->grid[1])";
    case Special::nctaid_z:
    case Special::nclusterid_z:
      return "std::uint64_t(L->grid[2])";
    case Special::laneid:
      return fmt::format("std::uint64_t{}", lane);
    case Special::warpid:
      return "std::uint64_t(t >> 5)";
    case Special::nwarpid:
      return "std::uint64_t((T + 31u) >> 5)";
    case Special::lanemask_eq:
      return fmt::format("std::uint64_t(std::uint32_t(1u << {}))", lane);
    case Special::lanemask_lt:
      return fmt::format("std::uint64_t(std::uint32_t((1u << {}) - 1u))", lane);
    case Special::lanemask_le:
      return fmt::format("std::uint64_t({0} == 31u ? 0xffffffffu : std::uint32_t((2u << {0}) - 1u))",
                         lane);
    case Special::lanemask_gt:
      return fmt::format("std::uint64_t({0} == 31u ? 0u : std::uint32_t(~((2u << {0}) - 1u)))",
                         lane);
    case Special::lanemask_ge:
      return fmt::format("std::uint64_t(std::uint32_t(~((1u << {}) - 1u)))", lane);
    case Special::warpsize:
      return "std::uint64_t{32}";
    case Special::gridid:
      return "std::uint64_t(L->grid_id)";
    case Special::is_explicit_cluster:
    case Special::cluster_ctaid_x:
    case Special::cluster_ctaid_y:
    case Special::cluster_ctaid_z:
    case Special::cluster_ctarank:
    case Special::zero:
      return "std::uint64_t{0}";
    default:
      throw Refusal{"a special register the compiled engine does not provide"};
    }
  }

  // ---- instructions ----------------------------------------------------------------------

  [[nodiscard]] bool is_memory(std::uint32_t pc) const {
    const auto* a = ast(pc);
    return a && (a->opcode == "ld" || a->opcode == "st" || a->opcode == "ldu" ||
                 a->opcode == "atom" || a->opcode == "red");
  }

  /// The C++ of a non-control, non-memory instruction.
  std::string compute(std::uint32_t pc) {
    const Inst& in = m_program.code[pc];
    const ptx::Instruction& a = *ast(pc);
    const Modifiers m = modifiers_of(a);
    const std::string& op = a.opcode;
    for (const auto& o : a.operands)
      if (o.kind == ptx::Operand::Kind::vector)
        refuse(pc, "vector operand");
    const bool any_float = std::any_of(m.types.begin(), m.types.end(), emu::is_float);

    if (op == "mov" || op == "cvta") {
      if (m.types.size() != 1 || !m.only({"to", "global", "shared", "local", "const", "param"}))
        refuse(pc, "form");
      if (m.types[0] == Type::pred)
        return pset(in.d, pval(in.a, (in.flags & emu::kNegA) != 0));
      if (in.a == kNoReg)
        refuse(pc, "a frame address or clock");
      const char* u = unsigned_of_bytes(emu::type_bytes(m.types[0]));
      if (!u || emu::type_bytes(m.types[0]) < 2)
        refuse(pc, "type");
      return set(in.d, fmt::format("put<{0}>({1})", u, get(u, in.a)));
    }
    if ((op == "and" || op == "or" || op == "xor" || op == "not") && m.types.size() == 1 &&
        m.types[0] == Type::pred) {
      const std::string x = pval(in.a, (in.flags & emu::kNegA) != 0);
      if (op == "not")
        return pset(in.d, "!" + x);
      const std::string y = pval(in.b, (in.flags & emu::kNegB) != 0);
      const char* o = op == "and" ? "&&" : op == "or" ? "||" : "!=";
      return pset(in.d, fmt::format("({} {} {})", x, o, y));
    }
    if (op == "selp") {
      if (m.types.size() != 1 || !m.rest.empty())
        refuse(pc, "form");
      const char* u = unsigned_of_bytes(emu::type_bytes(m.types[0]));
      if (!u || emu::type_bytes(m.types[0]) < 2)
        refuse(pc, "type");
      return set(in.d, fmt::format("put<{0}>({1} ? {2} : {3})", u,
                                   pval(in.c, (in.flags & emu::kNegC) != 0), get(u, in.a),
                                   get(u, in.b)));
    }
    if (op == "setp")
      return setp(pc, m);
    if (op == "cvt")
      return cvt(pc, m);
    if (any_float)
      return floating(pc, m);
    return integer(pc, m);
  }

  std::string integer(std::uint32_t pc, const Modifiers& m) {
    const Inst& in = m_program.code[pc];
    const std::string& op = ast(pc)->opcode;
    if (m.types.size() != 1 || !is_int(m.types[0]) || emu::type_bytes(m.types[0]) < 2)
      refuse(pc, "type");
    const char* T = ctype(m.types[0]);
    const std::string mode = m.has("lo") ? "lo" : m.has("hi") ? "hi" : m.has("wide") ? "wide" : "";
    auto bin = [&](const char* fn) {
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}))", T, fn, get(T, in.a), get(T, in.b)));
    };
    auto un = [&](const char* fn, const char* result) {
      return set(in.d, fmt::format("put<{}>(nm::{}({}))", result, fn, get(T, in.a)));
    };
    if ((op == "add" || op == "sub") && m.only({"sat"})) {
      if (m.has("sat")) {
        if (m.types[0] != Type::s32)
          refuse(pc, "form");
        return set(in.d, fmt::format("put<std::int32_t>(nm::{}(get<std::int32_t>({}), "
                                     "get<std::int32_t>({})))",
                                     op == "add" ? "add_sat" : "sub_sat", val(in.a), val(in.b)));
      }
      return bin(op == "add" ? "iadd" : "isub");
    }
    if (op == "mul" && m.only({"lo", "hi", "wide"}) && !mode.empty()) {
      if (mode == "wide")
        return set(in.d, fmt::format("put<nm::Wide<{0}>>(nm::mul_wide({1}, {2}))", T, get(T, in.a),
                                     get(T, in.b)));
      return bin(mode == "lo" ? "mul_lo" : "mul_hi");
    }
    if (op == "mad" && m.only({"lo", "hi", "wide"}) && !mode.empty()) {
      if (mode == "wide")
        return set(in.d, fmt::format("put<nm::Wide<{0}>>(nm::mad_wide({1}, {2}, get<nm::Wide<{0}>>({3})))", T,
                                     get(T, in.a), get(T, in.b), val(in.c)));
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}, {4}))", T,
                                   mode == "lo" ? "mad_lo" : "mad_hi", get(T, in.a), get(T, in.b),
                                   get(T, in.c)));
    }
    if (!m.rest.empty())
      refuse(pc, "form");
    static const std::map<std::string, const char*, std::less<>> binary{
        {"div", "idiv"},    {"rem", "irem"},   {"min", "imin"},   {"max", "imax"},
        {"and", "bit_and"}, {"or", "bit_or"},  {"xor", "bit_xor"}};
    if (auto it = binary.find(op); it != binary.end())
      return bin(it->second);
    if (op == "shl" || op == "shr")
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, get<std::uint32_t>({3})))", T, op,
                                   get(T, in.a), val(in.b)));
    static const std::map<std::string, const char*, std::less<>> unary{
        {"abs", "iabs"}, {"neg", "ineg"}, {"not", "bit_not"}, {"cnot", "cnot"}, {"brev", "brev"}};
    if (auto it = unary.find(op); it != unary.end())
      return un(it->second, T);
    if ((op == "popc" || op == "clz") && emu::type_bytes(m.types[0]) >= 4)
      return un(op == "popc" ? "popc" : "clz", "std::uint32_t");
    if (op == "bfe")
      return set(in.d, fmt::format("put<{}>(nm::bfe({}, get<std::uint32_t>({}), get<std::uint32_t>({})))",
                                   T, get(T, in.a), val(in.b), val(in.c)));
    if (op == "bfi")
      return set(in.d, fmt::format("put<{}>(nm::bfi({}, {}, get<std::uint32_t>({}), "
                                   "get<std::uint32_t>({})))",
                                   T, get(T, in.a), get(T, in.b), val(in.c), val(in.e)));
    refuse(pc, "not handled by the compiled engine");
  }

  /// An f32 add/sub/mul/fma/mad whose NaN results are NaN whatever NaN came in: reading a NaN
  /// of any payload, it makes a NaN, and (through numeric.hpp) the canonical one.
  [[nodiscard]] bool is_nan_blind(std::uint32_t pc) const {
    const auto* a = ast(pc);
    if (!a || m_program.code[pc].control != Control::none)
      return false;
    const std::string& op = a->opcode;
    if (op != "add" && op != "sub" && op != "mul" && op != "fma" && op != "mad")
      return false;
    const Modifiers m = modifiers_of(*a);
    return m.types.size() == 1 && m.types[0] == Type::f32 && !m.has("approx") && !m.has("full");
  }

  /// The registers whose NaN payload nothing can see: every instruction of the kernel that reads
  /// one is NaN-blind (is_nan_blind). An f32 add/sub/mul/fma (round to nearest, no .ftz/.sat)
  /// writing one then needs no canonical NaN of its own: the host's NaN goes on into a NaN-blind
  /// instruction, which makes its own NaN canonical (or passes it on to another such register).
  /// A tiled matmul's inner product is a chain of these: each FMA's result feeds only the next.
  template <class Uses> void find_raw_nan(const Uses& uses) {
    std::map<std::uint32_t, bool> blind;
    for (const auto& [pc, u] : uses)
      for (std::uint32_t r : u.read) {
        auto [it, fresh] = blind.emplace(r, true);
        it->second = it->second && is_nan_blind(pc);
      }
    for (const auto& [pc, u] : uses)
      for (std::uint32_t r : u.written)
        if (auto it = blind.find(r); it == blind.end() || it->second)
          m_raw_nan.insert(r);
  }

  std::string floating(std::uint32_t pc, const Modifiers& m) {
    const Inst& in = m_program.code[pc];
    const std::string& op = ast(pc)->opcode;
    if (m.types.size() != 1 || (m.types[0] != Type::f32 && m.types[0] != Type::f64))
      refuse(pc, "type");
    const bool f64 = m.types[0] == Type::f64;
    if (m.has("approx") || m.has("full"))
      return special_function(pc, m, f64);
    if (!m.only({"rn", "rz", "rm", "rp", "ftz", "sat"}))
      refuse(pc, "form (.NaN and .xorsign stay on the interpreter)");
    const char* T = f64 ? "double" : "float";
    const char* round = m.has("rz")   ? "nm::Round::rz"
                        : m.has("rm") ? "nm::Round::rm"
                        : m.has("rp") ? "nm::Round::rp"
                                      : "nm::Round::rn";
    const bool ftz = !f64 && m.has("ftz");
    const bool sat = m.has("sat");
    const std::string mode =
        fmt::format("nm::FpMode{{{}, {}, {}}}", round, ftz ? "true" : "false", sat ? "true" : "false");
    const bool rounding = m.has("rn") || m.has("rz") || m.has("rm") || m.has("rp");
    // The host's own arithmetic where no one sees the NaN it makes (find_raw_nan).
    if (!f64 && !ftz && !sat && !m.has("rz") && !m.has("rm") && !m.has("rp") &&
        m_raw_nan.count(in.d)) {
      if (op == "add" || op == "sub" || op == "mul")
        return set(in.d, fmt::format("put<float>({} {} {})", get(T, in.a),
                                     op == "add" ? "+" : op == "sub" ? "-" : "*", get(T, in.b)));
      if (op == "fma" || op == "mad")
        return set(in.d, fmt::format("put<float>(std::fma({}, {}, {}))", get(T, in.a),
                                     get(T, in.b), get(T, in.c)));
    }
    if (op == "add" || op == "sub" || op == "mul" || op == "div")
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}, {4}))", T, op, get(T, in.a),
                                   get(T, in.b), mode));
    if (op == "fma" || op == "mad")
      return set(in.d, fmt::format("put<{0}>(nm::fma({1}, {2}, {3}, {4}))", T, get(T, in.a),
                                   get(T, in.b), get(T, in.c), mode));
    if (op == "sqrt" || op == "rcp")
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}))", T, op, get(T, in.a), mode));
    if ((op == "abs" || op == "neg") && !sat && !rounding)
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}))", T, op == "abs" ? "fabs" : "fneg",
                                   get(T, in.a), ftz ? "true" : "false"));
    if ((op == "min" || op == "max") && !sat && !rounding)
      return set(in.d, fmt::format("put<{0}>(nm::{1}({2}, {3}, {4}, nm::NanMode::ignore))", T,
                                   op == "min" ? "fmin" : "fmax", get(T, in.a), get(T, in.b),
                                   ftz ? "true" : "false"));
    if (op == "copysign" && !sat && !rounding && !ftz)
      return set(in.d, fmt::format("put<{0}>(nm::copysign({1}, {2}))", T, get(T, in.a),
                                   get(T, in.b)));
    refuse(pc, "not handled by the compiled engine");
  }

  /// `.approx` and div.full: the interpreter's own functions, through the launch's table.
  std::string special_function(std::uint32_t pc, const Modifiers& m, bool f64) {
    const Inst& in = m_program.code[pc];
    const std::string& op = ast(pc)->opcode;
    if (!m.only({"approx", "full", "ftz"}) || (m.has("full") && op != "div"))
      refuse(pc, "form");
    const char* ftz = m.has("ftz") ? "true" : "false";
    if (f64) {
      const char* fn = op == "rcp" && m.has("ftz") ? "rcp_ftz_f64"
                       : op == "rsqrt"             ? (m.has("ftz") ? "rsqrt_ftz_f64" : "rsqrt_f64")
                                                   : nullptr;
      if (!fn)
        refuse(pc, "form");
      return set(in.d, fmt::format("put<double>(L->sfu->{}({}))", fn, get("double", in.a)));
    }
    static const std::set<std::string, std::less<>> unary{"rcp", "sqrt", "rsqrt", "ex2",
                                                          "lg2", "sin",  "cos"};
    if (unary.count(op))
      return set(in.d, fmt::format("put<float>(L->sfu->{}({}, {}))", op, get("float", in.a), ftz));
    if (op == "tanh" && !m.has("ftz"))
      return set(in.d, fmt::format("put<float>(L->sfu->tanh({}))", get("float", in.a)));
    if (op == "div")
      return set(in.d, fmt::format("put<float>(L->sfu->{}({}, {}, {}))",
                                   m.has("full") ? "div_full" : "div_approx", get("float", in.a),
                                   get("float", in.b), ftz));
    refuse(pc, "form");
  }

  std::string setp(std::uint32_t pc, const Modifiers& m) {
    const Inst& in = m_program.code[pc];
    static const char* const cmps[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                       "lo",  "ls",  "hi",  "hs",  "equ", "neu",
                                       "ltu", "leu", "gtu", "geu", "num", "nan"};
    std::string cmp;
    for (const char* c : cmps)
      if (m.has(c))
        cmp = c;
    const std::string bop = m.has("and") ? "&&" : m.has("or") ? "||" : m.has("xor") ? "!=" : "";
    if (cmp.empty() || m.types.size() != 1)
      refuse(pc, "form");
    const Type t = m.types[0];
    const bool ftz = m.has("ftz");
    if (t != Type::f32 && t != Type::f64 && !(is_int(t) && emu::type_bytes(t) >= 2))
      refuse(pc, "type");
    const char* T = ctype(t);
    std::string s = fmt::format("{{ {0} x_ = {1}; {0} y_ = {2}; ", T, get(T, in.a), get(T, in.b));
    if (ftz && t == Type::f32)
      s += "x_ = nm::flush_subnormal(x_); y_ = nm::flush_subnormal(y_); ";
    s += fmt::format("const bool c_ = nm::compare(nm::Cmp::{}, x_, y_); bool p_ = c_, q_ = !c_; ",
                     cmp);
    if (!bop.empty())
      s += fmt::format("const bool s_ = {0}; p_ = p_ {1} s_; q_ = q_ {1} s_; ",
                       pval(in.c, (in.flags & emu::kNegC) != 0), bop);
    s += pset(in.d, "p_") + " ";
    if (in.d2 != kNoReg)
      s += pset(in.d2, "q_") + " ";
    return s + "}";
  }

  std::string cvt(std::uint32_t pc, const Modifiers& m) {
    const Inst& in = m_program.code[pc];
    if (m.types.size() != 2 || m.has("tf32"))
      refuse(pc, "form");
    const Type dt = m.types[0], st = m.types[1];
    const char* D = ctype(dt);
    const char* S = ctype(st);
    if (!D || !S)
      refuse(pc, "type");
    const char* round = round_of(in.imm & 0xff);
    if (!round)
      refuse(pc, "rounding");
    auto bit = [&](int b) { return ((in.imm >> b) & 1) != 0 ? "true" : "false"; };
    std::string s = fmt::format("{{ const auto v_ = nm::cvt<{0}, {1}>({2}, nm::CvtMode{{{3}, {4}, "
                                "{5}, {6}, {7}, {8}}}); std::uint64_t u_ = put(v_); ",
                                D, S, get(S, in.a), round, bit(8), bit(9), bit(10), bit(11),
                                bit(12));
    if (is_int(dt) && emu::is_signed(dt))
      s += "u_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(v_)); ";
    s += set(in.d, fmt::format("u_ & std::uint64_t{{{:#x}u}}", in.mask_bits),
             in.mask_bits <= 0xffffffffu);
    return s + " }";
  }

  /// ld / st: the checked loop checks the site's window inline and leaves the loop when it
  /// misses; the resume version translates exactly.
  std::string memory(std::uint32_t pc, Mode mode) {
    const Inst& in = m_program.code[pc];
    const ptx::Instruction& a = *ast(pc);
    if (a.opcode == "atom" || a.opcode == "red")
      return atomic(pc, mode);
    const bool store = a.opcode == "st";
    if (in.width == 0 || in.width > 8 || in.vec < 1 || in.vec > 4)
      refuse(pc, "access size");
    if ((in.flags & emu::kFrameRelative) || in.space == Space::local ||
        in.space == Space::param_frame)
      refuse(pc, "local memory");
    const unsigned total = unsigned{in.width} * in.vec;
    const bool sign = (in.flags & kSignExtend) != 0;
    auto loaded = [&](std::uint32_t slot, unsigned offset, const std::string& base) {
      std::string v = fmt::format("{{ std::uint64_t v_ = 0; std::memcpy(&v_, {} + {}, {}); ", base,
                                  offset, unsigned{in.width});
      if (sign && in.width < 8) {
        const unsigned shift = 64 - 8 * in.width;
        v += fmt::format("v_ = static_cast<std::uint64_t>(static_cast<std::int64_t>(v_ << {0}) >> "
                         "{0}) & std::uint64_t{{{1:#x}u}}; ",
                         shift, in.mask_bits);
      }
      const bool narrow = in.width <= 4 && (!sign || in.mask_bits <= 0xffffffffu);
      return v + set(slot, "v_", narrow) + " }";
    };
    auto stored = [&](std::uint32_t slot, unsigned offset, const std::string& base) {
      return fmt::format("{{ const std::uint64_t s_ = {}; std::memcpy({} + {}, &s_, {}); }}",
                         val(slot), base, offset, unsigned{in.width});
    };
    auto each = [&](const std::string& base) {
      std::string s;
      if (in.vec == 1 && !store)
        return loaded(in.d, 0, base);
      if (in.vec == 1)
        return stored(in.b, 0, base);
      for (unsigned i = 0; i < in.vec; ++i) {
        if (in.v[i] == kNoReg)
          continue;
        s += store ? stored(in.v[i], i * in.width, base) : loaded(in.v[i], i * in.width, base);
      }
      return s;
    };
    // A kernel parameter named without a register: the same bytes for every thread.
    if (in.space == Space::param_kernel && in.a == kNoReg) {
      const std::int64_t off = in.imm - static_cast<std::int64_t>(emu::kParamBase);
      if (store || off < 0 || off + total > m_function.kernel_param_bytes)
        refuse(pc, "a parameter access outside the parameters");
      // Read from the function's own copy of the parameters (Q), which no store in the loop
      // can reach: the compiler then keeps the value out of the loop.
      m_region_reads_params = true;
      return "{ const std::uint8_t* h_ = Q + " + std::to_string(off) + "; " + each("h_") + " }";
    }
    const std::uint32_t site = m_sites.at(pc);
    use_site(site, in.space, mode, total);
    const std::string address =
        in.a == kNoReg ? fmt::format("std::uint64_t{{{:#x}u}}", static_cast<std::uint64_t>(in.imm))
                       : fmt::format("({} + std::uint64_t{{{:#x}u}})", val(in.a),
                                     static_cast<std::uint64_t>(in.imm));
    const std::uint32_t space = static_cast<std::uint32_t>(in.space);
    return in_window(site, in.space, mode, total, [&]() -> std::string {
    if (mode == Mode::check)
      return check_text(address, site, total);
    if (mode == Mode::unchecked)
      return fmt::format("{{ const std::uint64_t a_ = {0}; std::uint8_t* const h_ = s{1}h + (a_ - "
                         "s{1}b); {2} }}",
                         address, site, each("h_"));
    if (mode == Mode::checked)
      return fmt::format("{{ const std::uint64_t a_ = {0}; const std::uint64_t o_ = a_ - s{1}b; "
                         "if (o_ >= s{1}n || (a_ & {2}u) != 0) {{ @SAVEAT{5}@ Rs[t] = {3}u; continue; }} "
                         "std::uint8_t* const h_ = s{1}h + o_; {4} }}",
                         address, site, total - 1, site + 1, each("h_"), pc);
    return fmt::format("site{1}: {{ const std::uint64_t a_ = {0}; std::uint8_t* const h_ = "
                       "L->translate(B, a_, {2}u, {3}u, {4}u, {1}u, {5}u, t); if (!h_) return 1; "
                       "{6} }}",
                       address, site, total, space, store ? 1 : 0, in.line, each("h_"));
    });
  }

  /// The check loop's test of one access of `bytes` (a power of two) at `address`: its offset in
  /// the window, rotated right by log2(bytes), is at most the window's limit exactly when the
  /// access is inside and aligned (the window's base is aligned, or `s…i` fails every access):
  /// one comparison where testing the range and the alignment apart takes three.
  static std::string check_text(const std::string& address, std::uint32_t site, unsigned bytes) {
    return fmt::format("bad_ |= (std::rotr(std::uint64_t({0} - s{1}b), {2}) | s{1}i) > s{1}l;",
                       address, site, std::countr_zero(bytes));
  }

  /// The fast loops check an access against its site's window; shared memory has one window,
  /// the block's, which every shared access uses (fewer values the loop keeps in registers).
  void use_site(std::uint32_t site, Space space, Mode mode, unsigned bytes) {
    if (space == Space::shared && mode != Mode::resume)
      m_region_shared_widths.insert(bytes);
    else
      m_region_sites.insert(site);
  }

  template <class Make>
  std::string in_window(std::uint32_t site, Space space, Mode mode, unsigned bytes, Make make) {
    std::string text = make();
    if (space != Space::shared || mode == Mode::resume)
      return text;
    auto replace = [&](const std::string& from, const std::string& to) {
      for (std::size_t pos; (pos = text.find(from)) != std::string::npos;)
        text.replace(pos, from.size(), to);
    };
    replace(fmt::format("s{}b", site), "shb");
    replace(fmt::format("s{}h", site), "shh");
    replace(fmt::format("s{}n", site), fmt::format("shn{}", bytes));
    replace(fmt::format("s{}i", site), fmt::format("shi{}", bytes));
    replace(fmt::format("s{}l", site), fmt::format("shl{}", bytes));
    return text;
  }

  /// An atomic whose result does not depend on the order the threads apply it (integer add,
  /// and, or, xor, min, max with the old value unused): the interpreter applies a warp's lanes in
  /// lane order and the compiled engine its threads in thread order, which only order-free forms
  /// survive unchanged. The others stay on the interpreter.
  std::string atomic(std::uint32_t pc, Mode mode) {
    const Inst& in = m_program.code[pc];
    const ptx::Instruction& a = *ast(pc);
    const Modifiers m = modifiers_of(a);
    // The old value must be unused: CUDA's atomicAdd without a result still names a register,
    // which the kernel then never reads (checked once the whole kernel is translated).
    if (a.opcode == "atom" && in.d != kNoReg)
      m_must_be_unread[in.d] = pc;
    if (!m.only({"global", "shared", "cta", "gpu", "sys", "cluster", "relaxed", "acquire",
                 "release", "acq_rel", "sem", "add", "and", "or", "xor", "min", "max"}) ||
        m.types.size() != 1 || !is_int(m.types[0]) || emu::type_bytes(m.types[0]) < 4)
      refuse(pc, "an atomic other than an integer add, and, or, xor, min or max");
    const char* T = ctype(m.types[0]);
    const unsigned bytes = emu::type_bytes(m.types[0]);
    std::string apply;
    for (const char* op : {"add", "and", "or", "xor"})
      if (m.has(op))
        apply = fmt::format("__atomic_fetch_{}(reinterpret_cast<{}*>(h_), v_, __ATOMIC_SEQ_CST);",
                            op, T);
    for (const char* op : {"min", "max"})
      if (m.has(op))
        apply = fmt::format("{0}* p_ = reinterpret_cast<{0}*>(h_); {0} o_ = __atomic_load_n(p_, "
                            "__ATOMIC_SEQ_CST); while (!__atomic_compare_exchange_n(p_, &o_, v_ {1} "
                            "o_ ? v_ : o_, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {{}}",
                            T, op[1] == 'i' ? "<" : ">");
    if (apply.empty())
      refuse(pc, "atomic operation");
    const std::string body = fmt::format("{{ const {0} v_ = {1}; {2} }}", T, get(T, in.b), apply);
    if (in.flags & emu::kFrameRelative)
      refuse(pc, "local memory");
    const std::uint32_t site = m_sites.at(pc);
    use_site(site, in.space, mode, bytes);
    const std::string address =
        in.a == kNoReg ? fmt::format("std::uint64_t{{{:#x}u}}", static_cast<std::uint64_t>(in.imm))
                       : fmt::format("({} + std::uint64_t{{{:#x}u}})", val(in.a),
                                     static_cast<std::uint64_t>(in.imm));
    return in_window(site, in.space, mode, bytes, [&]() -> std::string {
    switch (mode) {
    case Mode::check:
      return check_text(address, site, bytes);
    case Mode::unchecked:
      return fmt::format("{{ const std::uint64_t a_ = {0}; std::uint8_t* const h_ = s{1}h + (a_ - "
                         "s{1}b); {2} }}",
                         address, site, body);
    case Mode::checked:
      return fmt::format("{{ const std::uint64_t a_ = {0}; const std::uint64_t o_ = a_ - s{1}b; "
                         "if (o_ >= s{1}n || (a_ & {2}u) != 0) {{ @SAVEAT{4}@ Rs[t] = {3}u; "
                         "continue; }} std::uint8_t* const h_ = s{1}h + o_; {5} }}",
                         address, site, bytes - 1, site + 1, pc, body);
    case Mode::resume:
      break;
    }
    return fmt::format("site{1}: {{ const std::uint64_t a_ = {0}; std::uint8_t* const h_ = "
                       "L->translate(B, a_, {2}u, {3}u, 1u, {1}u, {4}u, t); if (!h_) return 1; "
                       "{5} }}",
                       address, site, bytes, static_cast<std::uint32_t>(in.space), in.line, body);
    });
  }

  // ---- regions ---------------------------------------------------------------------------

  std::string leave(std::uint32_t target, Mode mode) {
    if (mode == Mode::check)
      return "continue;";
    m_region_exits.insert(target == native_done ? native_done : m_region_of.at(target));
    std::string next = mode != Mode::resume ? "continue;" : "return 0;";
    // The loops without checks also say which ways their threads left (native_abi::one_way).
    if (mode == Mode::unchecked) {
      const std::uint32_t region = target == native_done ? native_done : m_region_of.at(target);
      next = fmt::format("ways_ |= {:#x}u; {}", region < 31 ? 1u << region : 1u << 31, next);
    }
    // A thread that is done has nothing left to keep.
    if (target == native_done)
      return fmt::format("{{ At[t] = 0xffffffffu; {} }}", next);
    return fmt::format("{{ @SAVE@ At[t] = {}u; {} }}", m_region_of.at(target), next);
  }

  std::string jump(std::uint32_t pc, std::uint32_t target, const std::set<std::uint32_t>& code,
                   Mode mode) {
    if (target > pc && !is_head(target) && code.count(target))
      return fmt::format("goto {}{}{};", label_prefix(mode), m_label_tail, target);
    return leave(target, mode);
  }

  std::string guard_of(const Inst& in) {
    return in.guard == kNoReg ? "" : pval(in.guard, in.guard_negated);
  }

  /// What one instruction reads and writes (registers and predicates).
  struct Use {
    std::set<std::uint32_t> read, written, pread, pwritten;
    bool guarded = false;
  };

  /// A region's code, and what each of its instructions uses.
  struct Body {
    std::vector<std::uint32_t> pcs;
    std::string text;
    std::map<std::uint32_t, Use> uses;
    std::set<std::uint32_t> live_in, plive_in; ///< read before written on some path from the head
    /// Per instruction: the registers and predicates read before written from there on.
    std::map<std::uint32_t, std::pair<std::set<std::uint32_t>, std::set<std::uint32_t>>> live;
  };

  Body body(std::uint32_t r, Mode mode) {
    Body b;
    b.pcs = region_code(r);
    const std::set<std::uint32_t> code(b.pcs.begin(), b.pcs.end());
    std::set<std::uint32_t> targets;
    for (std::uint32_t pc : b.pcs)
      if (m_program.code[pc].control == Control::bra)
        targets.insert(m_program.code[pc].target);
    for (std::uint32_t pc : b.pcs) {
      const Inst& in = m_program.code[pc];
      m_read.clear();
      m_written.clear();
      m_pread.clear();
      m_pwritten.clear();
      if (targets.count(pc) && !is_head(pc))
        b.text += fmt::format("{}{}{}:;\n", label_prefix(mode), m_label_tail, pc);
      const std::string guard = guard_of(in);
      std::string text;
      bool falls_through = true;
      switch (in.control) {
      case Control::bra:
        text = jump(pc, in.target, code, mode);
        falls_through = !guard.empty();
        break;
      case Control::ret:
      case Control::exit:
        text = leave(native_done, mode);
        falls_through = !guard.empty();
        break;
      case Control::bar_sync:
        // Each thread counts the block-wide barriers it reached, as the interpreter does, for
        // the warning about a barrier in divergent code.
        text = leave(pc + 1 < m_function.end ? pc + 1 : native_done, mode);
        if (mode != Mode::check)
          text = "{ ++Bc[t]; " + text + " }";
        falls_through = false;
        break;
      default:
        text = is_memory(pc) ? memory(pc, mode) : compute(pc);
      }
      b.text += fmt::format("  // PTX line {}\n", in.line);
      b.text += guard.empty() ? "  " + text + "\n" : fmt::format("  if ({}) {{ {} }}\n", guard, text);
      if (falls_through && pc + 1 < m_function.end && !code.count(pc + 1))
        b.text += "  " + leave(pc + 1, mode) + "\n";
      b.uses[pc] = Use{m_read, m_written, m_pread, m_pwritten, !guard.empty()};
    }
    // Backward over the region's acyclic code: what is read before it is written.
    auto& live = b.live;
    for (auto it = b.pcs.rbegin(); it != b.pcs.rend(); ++it) {
      const std::uint32_t pc = *it;
      const Inst& in = m_program.code[pc];
      std::set<std::uint32_t> regs, preds;
      auto from = [&](std::uint32_t next) {
        if (next > pc && code.count(next) && !is_head(next)) {
          regs.insert(live[next].first.begin(), live[next].first.end());
          preds.insert(live[next].second.begin(), live[next].second.end());
        }
      };
      const bool guarded = in.guard != kNoReg;
      if (in.control == Control::bra) {
        from(in.target);
        if (guarded)
          from(pc + 1);
      } else if (in.control == Control::ret || in.control == Control::exit) {
        if (guarded)
          from(pc + 1);
      } else if (in.control != Control::bar_sync) {
        from(pc + 1);
      }
      const Use& u = b.uses[pc];
      if (!u.guarded) {
        for (auto w : u.written)
          regs.erase(w);
        for (auto w : u.pwritten)
          preds.erase(w);
      }
      regs.insert(u.read.begin(), u.read.end());
      preds.insert(u.pread.begin(), u.pread.end());
      live[pc] = {std::move(regs), std::move(preds)};
    }
    if (!b.pcs.empty()) {
      b.live_in = live[b.pcs.front()].first;
      b.plive_in = live[b.pcs.front()].second;
    }
    return b;
  }

  /// A version of region `r`'s code with its locals (the lane loop's body, or the resume
  /// function's).
  /// `copy` tells apart the labels of further copies of the same loop in one function.
  std::string region_code_text(std::uint32_t r, Mode mode, const Affine* affine = nullptr,
                               std::string_view copy = {}) {
    // The loops with affine registers are a second copy in the same function: labels of their own.
    m_label_tail = std::string(affine != nullptr ? "a" : "") + std::string(copy);
    Body b = body(r, mode);
    m_label_tail.clear();
    std::set<std::uint32_t> regs, written, preds, pwritten;
    for (const auto& [pc, u] : b.uses) {
      regs.insert(u.read.begin(), u.read.end());
      regs.insert(u.written.begin(), u.written.end());
      written.insert(u.written.begin(), u.written.end());
      preds.insert(u.pread.begin(), u.pread.end());
      preds.insert(u.pwritten.begin(), u.pwritten.end());
      pwritten.insert(u.pwritten.begin(), u.pwritten.end());
    }
    // The lane loops load what the region reads before writing; the resume function loads
    // everything, as the checked loop left it. Leaving for another region keeps what some region
    // reads before writing (m_crossing). A register computed once from thread and block indices,
    // parameters and constants is computed again instead (m_recompute): the compiler then sees
    // its address arithmetic and makes plain vector loads and stores of what would be gathers.
    std::string locals, save, recomputed;
    std::set<std::uint32_t> chain;
    for (std::uint32_t s : regs)
      if (m_recompute.count(s) && (mode == Mode::resume || b.live_in.count(s)))
        add_chain(s, chain);
    regs.insert(chain.begin(), chain.end());
    for (std::uint32_t s : regs) {
      const bool load = !chain.count(s) && (mode == Mode::resume || b.live_in.count(s));
      const char* type = is_narrow(s) ? "std::uint32_t" : "std::uint64_t";
      if (load && affine != nullptr && affine->count(s)) {
        // Checked before the loop: this thread's value is its row's first plus c × tid.x.
        locals += fmt::format("  {0} r{1} = A{1} + {0}({2:#x}u) * tx;\n", type, s,
                              is_narrow(s) ? std::uint64_t{static_cast<std::uint32_t>(affine->at(s))}
                                           : static_cast<std::uint64_t>(affine->at(s)));
        continue;
      }
      locals += load ? fmt::format("  {} r{} = {};\n", type, s, stored(s))
                     : fmt::format("  {} r{} = 0;\n", type, s);
    }
    if (!chain.empty())
      recomputed = recompute_text(chain);
    for (std::uint32_t s : written)
      if (m_crossing.count(s))
        save += fmt::format("{} = r{}; ", stored(s), s);
    for (std::uint32_t s : preds) {
      const bool load = mode == Mode::resume || b.plive_in.count(s);
      locals += load ? fmt::format("  bool p{0} = P[std::size_t{{{0}}} * T + t] != 0;\n", s)
                     : fmt::format("  bool p{} = false;\n", s);
    }
    for (std::uint32_t s : pwritten)
      if (m_pcrossing.count(s))
        save += fmt::format("P[std::size_t{{{0}}} * T + t] = p{0}; ", s);
    std::string code = std::move(b.text);
    // Leaving the checked loop at an access: what the rest of the region reads, and what later
    // regions read (the resume function's exits store those from its own copies).
    for (std::size_t pos; (pos = code.find("@SAVEAT")) != std::string::npos;) {
      const std::size_t close = code.find('@', pos + 7);
      const auto pc = static_cast<std::uint32_t>(std::stoul(code.substr(pos + 7, close - pos - 7)));
      std::string keep;
      for (std::uint32_t x : written)
        if (b.live[pc].first.count(x) || m_crossing.count(x))
          keep += fmt::format("{} = r{}; ", stored(x), x);
      for (std::uint32_t x : pwritten)
        if (b.live[pc].second.count(x) || m_pcrossing.count(x))
          keep += fmt::format("P[std::size_t{{{0}}} * T + t] = p{0}; ", x);
      code.replace(pos, close + 1 - pos, keep);
    }
    for (std::size_t pos; (pos = code.find("@SAVE@")) != std::string::npos;)
      code.replace(pos, 6, save);
    return locals + recomputed + code;
  }

  /// `slot` and the recomputed registers its definition reads, into `chain`.
  void add_chain(std::uint32_t slot, std::set<std::uint32_t>& chain) const {
    if (!chain.insert(slot).second)
      return;
    for (std::uint32_t source : m_recompute_sources.at(slot))
      add_chain(source, chain);
  }

  /// The definitions of `chain`'s registers, each after those it reads (definitions come
  /// before their uses in the code: PTX order is a topological order of single definitions).
  std::string recompute_text(const std::set<std::uint32_t>& chain) {
    std::map<std::uint32_t, std::uint32_t> by_pc;
    for (std::uint32_t slot : chain)
      by_pc[m_recompute.at(slot)] = slot;
    // What the definitions read and write is not the region's own: keep the region's tracking.
    const auto read = m_read, written = m_written, pread = m_pread, pwritten = m_pwritten;
    std::string text;
    for (const auto& [pc, slot] : by_pc)
      text += "  " + (is_memory(pc) ? memory(pc, Mode::unchecked) : compute(pc)) + "\n";
    m_read = read;
    m_written = written;
    m_pread = pread;
    m_pwritten = pwritten;
    return text;
  }

  /// Registers written by one unguarded instruction of pure integer arithmetic (or a parameter
  /// load) whose sources are constants, special registers or such registers themselves.
  void find_recomputable(const std::map<std::uint32_t, std::set<std::uint32_t>>& defs,
                         const std::map<std::uint32_t, Use>& uses) {
    static const std::set<std::string, std::less<>> pure{"mov", "cvta", "add", "sub", "mul",
                                                         "mad", "shl", "shr", "and", "or",
                                                         "xor", "not", "cvt", "neg"};
    std::map<std::uint32_t, int> state; // 1 being decided, 2 yes, 3 no
    std::function<bool(std::uint32_t)> decide = [&](std::uint32_t slot) -> bool {
      if (m_constants.count(slot) || m_specials.count(slot))
        return true;
      auto& st = state[slot];
      if (st != 0)
        return st == 2;
      st = 1;
      bool ok = false;
      auto d = defs.find(slot);
      if (d != defs.end() && d->second.size() == 1) {
        const std::uint32_t pc = *d->second.begin();
        const Inst& in = m_program.code[pc];
        const auto* a = ast(pc);
        const Use& u = uses.at(pc);
        const bool parameter = is_memory(pc) && a->opcode == "ld" &&
                               in.space == Space::param_kernel && in.a == kNoReg;
        bool integer = true;
        for (const auto& text : a->modifiers)
          if (auto t = emu::parse_type(text); t && (emu::is_float(*t) || *t == Type::pred))
            integer = false;
        ok = in.guard == kNoReg && u.pread.empty() && u.written.size() == 1 &&
             (parameter || (!is_memory(pc) && pure.count(a->opcode) && integer));
        for (std::uint32_t source : u.read)
          ok = ok && decide(source);
        if (ok) {
          m_recompute[slot] = pc;
          m_recompute_sources[slot] = u.read;
        }
      }
      st = ok ? 2 : 3;
      return ok;
    };
    for (const auto& [slot, pcs] : defs)
      decide(slot);
  }

  /// Whether region `r`'s checks (with `affine`) read nothing but the block's constants and the
  /// candidates, and only shared memory, whose window is the block's for the whole block.
  bool check_is_memoizable(std::uint32_t r, const Affine& affine) {
    const auto sites = m_region_sites;
    m_region_sites.clear();
    const Body b = body(r, Mode::check);
    const bool shared_only = m_region_sites.empty();
    m_region_sites = sites;
    if (!shared_only)
      return false;
    // Backward over the region: what the addresses and the paths taken depend on.
    std::set<std::uint32_t> regs, preds;
    for (auto it = b.pcs.rbegin(); it != b.pcs.rend(); ++it) {
      const std::uint32_t pc = *it;
      const Inst& in = m_program.code[pc];
      const Use& u = b.uses.at(pc);
      bool needed = in.control != Control::none;
      if (in.control == Control::none && is_memory(pc) &&
          !(in.space == Space::param_kernel && in.a == kNoReg)) {
        needed = true;
        if (in.a != kNoReg)
          regs.insert(in.a);
      }
      for (std::uint32_t w : u.written)
        needed = needed || regs.count(w) != 0;
      for (std::uint32_t w : u.pwritten)
        needed = needed || preds.count(w) != 0;
      if (!needed)
        continue;
      if (!is_memory(pc))
        regs.insert(u.read.begin(), u.read.end());
      preds.insert(u.pread.begin(), u.pread.end());
    }
    for (std::uint32_t p : preds)
      if (b.plive_in.count(p))
        return false;
    return std::all_of(regs.begin(), regs.end(), [&](std::uint32_t s) {
      return !b.live_in.count(s) || affine.count(s) != 0 || m_recompute.count(s) != 0;
    });
  }

  /// Region `r`'s registers that come in from earlier regions and are, by guess_affine's guess
  /// (native/affine.cpp), the same for the threads of a row up to c × tid.x: slot → c.
  Affine affine_live_in(std::uint32_t r) {
    Body b = body(r, Mode::unchecked);
    Affine out;
    for (std::uint32_t s : b.live_in) {
      auto it = m_affine.find(s);
      if (it != m_affine.end() && it->second.state == Coefficient::known && m_crossing.count(s) &&
          !m_recompute.count(s))
        out[s] = it->second.c;
    }
    return out;
  }

  /// Whether every address and every branch of region `r` can be known before it runs: no value
  /// it loads from memory reaches an address or a condition. Then one pass over the threads checks
  /// every access first, and a loop without checks (which the compiler vectorizes with plain
  /// loads and stores) runs the region.
  bool addresses_known(std::uint32_t r) {
    Body b = body(r, Mode::checked);
    std::set<std::uint32_t> tainted, ptainted;
    for (std::uint32_t pc : b.pcs) {
      const Inst& in = m_program.code[pc];
      const Use& u = b.uses[pc];
      if (in.guard != kNoReg && ptainted.count(in.guard))
        return false;
      if (is_memory(pc)) {
        if (in.a != kNoReg && tainted.count(in.a))
          return false;
        // Kernel parameters named without a register are the launch's constants.
        const bool parameter = in.space == Space::param_kernel && in.a == kNoReg;
        if (ast(pc)->opcode != "st" && !parameter)
          tainted.insert(u.written.begin(), u.written.end());
        continue;
      }
      bool from_memory = false;
      for (auto x : u.read)
        from_memory = from_memory || tainted.count(x) != 0;
      for (auto x : u.pread)
        from_memory = from_memory || ptainted.count(x) != 0;
      if (from_memory) {
        tainted.insert(u.written.begin(), u.written.end());
        ptainted.insert(u.pwritten.begin(), u.pwritten.end());
      }
    }
    return true;
  }

  std::string region_function(std::uint32_t r, bool fast) {
    m_region_sites.clear();
    m_region_exits.clear();
    m_region_shared_widths.clear();
    m_region_reads_params = false;
    std::string out;
    const char* common =
        "  const Launch* const L = B->launch;\n"
        "  const std::uint32_t T = L->threads, bx = L->block[0], by = L->block[1], bz = "
        "L->block[2];\n"
        "  const std::uint32_t cx = B->ctaid[0], cy = B->ctaid[1], cz = B->ctaid[2];\n"
        "  std::uint64_t* const R = B->regs;\n"
        "  std::uint32_t* const R32 = B->regs32;\n"
        "  std::uint8_t* const P = B->preds;\n"
        "  std::uint32_t* const At = B->at;\n"
        "  std::uint32_t* const Rs = B->resume;\n"
        "  std::uint32_t* const Bc = B->barriers;\n"
        "  (void)At; (void)Rs; (void)Bc; (void)R; (void)R32; (void)P; (void)bx; (void)by; (void)bz; (void)cx; (void)cy; (void)cz;\n";
    auto params_copy = [&] {
      const std::uint32_t bytes = std::max<std::uint32_t>(m_function.kernel_param_bytes, 1);
      return m_region_reads_params
                 ? fmt::format("  alignas(16) std::uint8_t Q[{0}]; std::memcpy(Q, L->params, {0});\n",
                               bytes)
                 : std::string();
    };
    if (!fast) {
      const std::string code = region_code_text(r, Mode::resume);
      out += fmt::format("static int resume{}(Block* B, std::uint32_t t, std::uint32_t site) {{\n",
                         r);
      out += common;
      out += "  const std::uint32_t tx = t % bx, ty = t / bx % by, tz = t / (bx * by);\n"
             "  (void)tx; (void)ty; (void)tz;\n";
      out += params_copy();
      const auto split = code.find("  // PTX line");
      out += code.substr(0, split);
      out += "  switch (site) {\n";
      for (std::uint32_t s : m_region_sites)
        out += fmt::format("  case {}u: goto site{};\n", s + 1, s);
      out += "  default: break;\n  }\n";
      out += (split == std::string::npos ? "" : code.substr(split)) + "  return 0;\n}\n\n";
      return out;
    }
    auto loop = [&](const std::string& body, bool vectorize, const std::string& row_values = {}) {
      return fmt::format("  for (std::uint32_t tz = 0; tz < bz; ++tz)\n"
                         "  for (std::uint32_t ty = 0; ty < by; ++ty) {{\n"
                         "  const std::uint32_t row = bx * (ty + by * tz);\n"
                         "{}{}"
                         "  for (std::uint32_t tx = 0; tx < bx; ++tx) {{\n"
                         "  const std::uint32_t t = row + tx;\n"
                         "  if (!all && At[t] != {}u) continue;\n"
                         "{}  }}\n  }}\n",
                         row_values, vectorize ? "#pragma clang loop vectorize(assume_safety) interleave_count(1)\n" : "",
                         r, body);
    };
    // The loops without checks, each in a function of its own: the fast function holds several
    // loops over the threads, and the register allocator, given them all, spilled in the hottest
    // (a tiled matmul's inner product went from 0.16 to 0.39 ms when another loop was added).
    std::vector<std::string> outlined;
    auto outline = [&](std::string body) {
      outlined.push_back(std::move(body));
      return fmt::format("  const std::uint32_t ways_ = fast{}_{}(B, all);\n  (void)ways_;\n", r,
                         outlined.size() - 1);
    };
    const std::string checked = region_code_text(r, Mode::checked);
    std::string first;
    if ((!m_region_sites.empty() || !m_region_shared_widths.empty()) && addresses_known(r)) {
      first = "  std::uint32_t bad_ = 0;\n" + loop(region_code_text(r, Mode::check), true) +
              "  if (bad_ == 0) {\n" + outline(loop(region_code_text(r, Mode::unchecked), true)) +
              "  return all ? @WAYS@ : kScan;\n  }\n";
      // When every thread is here and each candidate register holds its row's first value plus
      // c × tid.x (checked first, over every thread), the loops compute it so: the compiler then
      // sees uniform values and consecutive addresses where the arrays would give gathers.
      const Affine affine = affine_live_in(r);
      if (!affine.empty()) {
        std::string row_values, verify;
        for (const auto& [slot, c] : affine) {
          const char* type = is_narrow(slot) ? "std::uint32_t" : "std::uint64_t";
          row_values += fmt::format("  const {0} A{1} = {2}[std::size_t{{{1}}} * T + row];\n", type,
                                    slot, is_narrow(slot) ? "R32" : "R");
          // The difference's bits, OR-ed: no compare whose mask must be widened into a number.
          const std::string expected =
              fmt::format("(A{} + {}({:#x}u) * tx)", slot, type,
                          is_narrow(slot) ? std::uint64_t{static_cast<std::uint32_t>(c)}
                                          : static_cast<std::uint64_t>(c));
          verify += is_narrow(slot)
                        ? fmt::format("  miss_ |= {} ^ {};\n", stored(slot), expected)
                        : fmt::format("  {{ const std::uint64_t d_ = {} ^ {}; miss_ |= "
                                      "std::uint32_t(d_ | (d_ >> 32)); }}\n",
                                      stored(slot), expected);
        }
        const auto all_rows = [&](const std::string& body, bool vectorize) {
          std::string text = loop(body, vectorize, row_values);
          const std::string skip = fmt::format("  if (!all && At[t] != {}u) continue;\n", r);
          text.erase(text.find(skip), skip.size()); // every thread is here
          return text;
        };
        // The verify and check loops OR a flag over every lane. OR-ing into one scalar makes the
        // compiler fold its vector at the end of each row, which costs more than a short row's
        // work (16 × 16 blocks): there each lane ORs into an accumulator of its own, folded once
        // after every row; long rows keep the scalar, whose fold is then the cheaper.
        const auto all_rows_or = [&](const std::string& body, const std::string& body_copy,
                                     const char* flag) {
          return fmt::format(
              "  if (bx < 128) {{\n"
              "  for (std::uint32_t tx = 0; tx < bx; ++tx) acc_[tx] = 0;\n{}"
              "  for (std::uint32_t tx = 0; tx < bx; ++tx) {} |= acc_[tx];\n"
              "  }} else {{\n{}  }}\n",
              all_rows(fmt::format("  std::uint32_t& {} = acc_[tx];\n{}", flag, body), true),
              flag, all_rows(body_copy, true));
        };
        std::string check = all_rows_or(region_code_text(r, Mode::check, &affine),
                                        region_code_text(r, Mode::check, &affine, "w"), "bad_");
        if (check_is_memoizable(r, affine)) {
          // What the checks read is the launch's constants, the candidates' row values and, where
          // the text names it, the block's index: when those are values whose checks passed
          // before in this launch (the memo keeps the last kMemoEntries sets), the accesses are
          // known to be in the window again, and the checks are skipped. A loop's counter
          // (a reduction's stride) comes round again in every block.
          std::vector<std::string> keys;
          for (const auto& [slot, c] : affine)
            keys.push_back(fmt::format("std::uint64_t(A{})", slot));
          for (const char* block : {"cx", "cy", "cz"})
            if (check.find(fmt::format("({})", block)) != std::string::npos)
              keys.push_back(fmt::format("std::uint64_t({})", block));
          const std::uint32_t at = m_memo_slots;
          m_memo_slots += static_cast<std::uint32_t>(keys.size());
          const std::uint32_t flag = m_memo_regions++;
          std::string compare, keep;
          std::uint32_t i = at;
          for (const std::string& key : keys) {
            const std::string entry = fmt::format("E[(row / bx) * MS + {}]", i++);
            compare += fmt::format("  again_ &= {} == {};\n", entry, key);
            keep += fmt::format("  {} = {};\n", entry, key);
          }
          auto rows = [&](const std::string& body) {
            return fmt::format("  for (std::uint32_t tz = 0; tz < bz; ++tz)\n"
                               "  for (std::uint32_t ty = 0; ty < by; ++ty) {{\n"
                               "  const std::uint32_t row = bx * (ty + by * tz);\n{}{}  }}\n",
                               row_values, body);
          };
          // Looked up from the entry after the last one that matched: a loop's values come
          // round in the same order in every block, and then the first entry tried matches.
          check = fmt::format(
              "  std::uint64_t* const M = B->memo;\n"
              "  const std::size_t MR = gpurun_native_kernel.memo_regions, MS = "
              "gpurun_native_kernel.memo_slots, ME = std::size_t{{by}} * bz * MS;\n"
              "  std::uint64_t* const count_ = M + 2 * {0}, *const last_ = count_ + 1;\n"
              "  const std::uint64_t kept_ = *count_ < kMemoEntries ? *count_ : kMemoEntries;\n"
              "  bool again_ = false;\n"
              "  for (std::uint64_t i_ = 1; i_ <= kept_ && !again_; ++i_) {{\n"
              "  const std::uint64_t e_ = *last_ + i_ < kept_ ? *last_ + i_ : *last_ + i_ - kept_;\n"
              "  const std::uint64_t* const E = M + 2 * MR + e_ * ME;\n"
              "  again_ = true;\n{1}"
              "  if (again_) *last_ = e_;\n  }}\n"
              "  if (!again_) {{\n{2}  if (bad_ == 0) {{\n"
              "  *last_ = *count_ & (kMemoEntries - 1);\n"
              "  std::uint64_t* const E = M + 2 * MR + *last_ * ME;\n"
              "  ++*count_;\n{3}  }}\n  }}\n",
              flag, rows(compare), check, rows(keep));
        }
        first = "  if (all) {\n  alignas(64) std::uint32_t acc_[128];\n"
                "  std::uint32_t miss_ = 0;\n" + all_rows_or(verify, verify, "miss_") +
                "  if (miss_ == 0) {\n  std::uint32_t bad_ = 0;\n" + check +
                "  if (bad_ == 0) {\n" +
                outline(all_rows(region_code_text(r, Mode::unchecked, &affine), true)) +
                "  return @WAYS@;\n  }\n  }\n  }\n" + first;
      }
    }
    std::string setup = params_copy();
    for (std::uint32_t s : m_region_sites)
      setup += fmt::format("  const Window w{0} = B->sites[{0}]; const std::uint64_t s{0}b = w{0}.base; "
                         "std::uint8_t* const s{0}h = w{0}.host; const std::uint64_t s{0}n = "
                         "w{0}.size >= {1}u ? w{0}.size - {1}u + 1u : 0u;\n"
                         "  const std::uint64_t s{0}i = w{0}.size >= {1}u && (s{0}b & {2}u) == 0 ? 0u : "
                         "std::uint64_t{{1}} << 63, s{0}l = s{0}i == 0 ? (w{0}.size - {1}u) >> {3} : 0u;\n",
                         s, site_bytes(s), site_bytes(s) - 1, std::countr_zero(site_bytes(s)));
    if (!m_region_shared_widths.empty())
      setup += "  const std::uint64_t shb = B->shared.base, shs = B->shared.size;\n"
               "  std::uint8_t* const shh = B->shared.host;\n";
    for (unsigned w : m_region_shared_widths)
      setup += fmt::format("  const std::uint64_t shn{0} = shs >= {0}u ? shs - {0}u + 1u : 0u;\n"
                         "  const std::uint64_t shi{0} = shs >= {0}u && (shb & {1}u) == 0 ? 0u : "
                         "std::uint64_t{{1}} << 63, shl{0} = shi{0} == 0 ? (shs - {0}u) >> {2} : 0u;\n",
                         w, w - 1, std::countr_zero(w));
    for (std::size_t i = 0; i < outlined.size(); ++i)
      out += fmt::format("static __attribute__((noinline)) std::uint32_t fast{}_{}(Block* B, "
                         "std::uint32_t all) {{\n  (void)all;\n  std::uint32_t ways_ = 0;\n"
                         "{}{}{}  return ways_;\n}}\n\n",
                         r, i, common, setup, outlined[i]);
    out += fmt::format("static std::uint32_t fast{}(Block* B, std::uint32_t all) {{\n", r);
    out += common + setup;
    // Where every thread waits after the fast loops ran them all without leaving one to resume:
    // the region's one way out, when it has one (the runner then skips its scan).
    // With several, one pass over the threads' places says whether they all went one way.
    // After a loop without checks, the ways its threads left say it (native_abi::one_way).
    const bool one_exit = m_region_exits.size() == 1;
    const std::string exit =
        one_exit ? fmt::format("{:#x}u", *m_region_exits.begin()) : std::string("one_place(B)");
    const std::string ways = one_exit ? exit : std::string("one_way(B, ways_)");
    // The checked loop leaves a thread to resume only at an access: without any, it is as sure.
    const bool accesses = !m_region_sites.empty() || !m_region_shared_widths.empty();
    out += first + loop(checked, true) +
           (accesses ? std::string("  return kScan;\n") : "  return all ? @EXIT@ : kScan;\n") +
           "}\n\n";
    for (auto at = out.find("@EXIT@"); at != std::string::npos; at = out.find("@EXIT@", at))
      out.replace(at, 6, exit);
    for (auto at = out.find("@WAYS@"); at != std::string::npos; at = out.find("@WAYS@", at))
      out.replace(at, 6, ways);
    return out;
  }

  [[nodiscard]] unsigned site_bytes(std::uint32_t site) const {
    for (const auto& [pc, s] : m_sites) {
      if (s != site)
        continue;
      const auto* a = ast(pc);
      if (a->opcode == "atom" || a->opcode == "red")
        for (const auto& text : a->modifiers)
          if (auto t = emu::parse_type(text))
            return emu::type_bytes(*t);
      return unsigned{m_program.code[pc].width} * m_program.code[pc].vec;
    }
    return 1;
  }

  std::string prelude() const {
    return fmt::format("// {} compiled by gpurun's CPU engine from PTX\n"
                       "#include <bit>\n"
                       "#include <cstring>\n"
                       "#include \"backends/cpu/emu/types.hpp\"\n"
                       "#include \"backends/cpu/native/abi.hpp\"\n"
                       "using namespace gpurun::native_abi;\n"
                       "using gpurun::emu::get;\n"
                       "using gpurun::emu::put;\n"
                       "using gpurun::emu::Half;\n"
                       "using gpurun::emu::BFloat16;\n"
                       "namespace nm = gpurun::emu::numeric;\n"
                       "extern \"C\" __attribute__((visibility(\"default\"))) const Kernel "
                       "gpurun_native_kernel;\n\n",
                       m_function.name);
  }

  std::string exports() const {
    std::string fast, resume;
    for (std::size_t r = 0; r < m_heads.size(); ++r) {
      fast += fmt::format("fast{}, ", r);
      resume += fmt::format("resume{}, ", r);
    }
    return fmt::format(
        "static const RegionFn k_fast[] = {{{}}};\n"
        "static const ResumeFn k_resume[] = {{{}}};\n"
        "extern \"C\" __attribute__((visibility(\"default\"))) const Kernel gpurun_native_kernel = "
        "{{kVersion, {}u, {}u, {}u, {}u, k_fast, k_resume, &scan_threads, {}, {}u, {}u}};\n",
        fast, resume, m_heads.size(), m_sites.size(), m_program.register_count,
        std::max<std::uint32_t>(m_program.predicate_count, 1),
        has_barrier() ? "&count_barriers" : "nullptr", m_memo_regions, m_memo_slots);
  }

  [[nodiscard]] bool has_barrier() const {
    for (std::uint32_t pc = m_function.begin; pc < m_function.end; ++pc)
      if (m_program.code[pc].control == Control::bar_sync)
        return true;
    return false;
  }

  static constexpr std::uint32_t native_done = 0xffffffffu;

  const emu::Program& m_program;
  const emu::DecodedFunction& m_function;
  std::vector<const ptx::Instruction*> m_ast;
  std::map<std::uint32_t, std::uint64_t> m_constants;
  std::map<std::uint32_t, Special> m_specials;
  std::vector<std::uint32_t> m_heads;
  std::map<std::uint32_t, std::uint32_t> m_region_of;
  std::map<std::uint32_t, std::uint32_t> m_sites; // pc → site
  // What the region being emitted uses.
  std::set<std::uint32_t> m_read, m_written, m_pread, m_pwritten, m_region_sites;
  bool m_region_reads_params = false;
  std::set<unsigned> m_region_shared_widths; ///< access sizes of the region's shared accesses
  std::map<std::uint32_t, std::uint32_t> m_must_be_unread; ///< atomics' old values: slot → pc
  std::set<std::uint32_t> m_wide; ///< registers some instruction writes 64 bits into
  std::map<std::uint32_t, Coefficient> m_affine; ///< guess_affine's guesses
  std::string m_label_tail; ///< after a label's prefix: the affine copy's labels differ
  std::set<std::uint32_t> m_region_exits; ///< the regions (or kDone) the region's threads leave to
  // The checks' memo (Block::memo): per memoized region a count and the entry that last matched,
  // then kMemoEntries entries of,
  // per row of threads, each such region's key values (candidates, block index).
  std::uint32_t m_memo_regions = 0, m_memo_slots = 0;
  std::set<std::uint32_t> m_raw_nan; ///< registers whose NaN payload no instruction sees
  std::map<std::uint32_t, std::uint32_t> m_recompute; ///< recomputed register → its definition
  std::map<std::uint32_t, std::set<std::uint32_t>> m_recompute_sources; ///< what it reads
  // Registers and predicates some region reads before it writes them: kept across regions.
  std::set<std::uint32_t> m_crossing, m_pcrossing;
};

} // namespace

Translation translate_kernel(const emu::Program& program, const ptx::Module& parsed,
                             std::uint32_t function) {
  if (function >= program.functions.size() || function >= parsed.functions.size())
    return {false, "no such function", {}, 0, 0};
  return Translator(program, parsed.functions[function], function).run();
}

} // namespace gpurun::native
