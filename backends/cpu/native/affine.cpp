#include "backends/cpu/native/affine.hpp"

#include <optional>
#include <set>
#include <string>

#include "backends/cpu/emu/types.hpp"

namespace gpurun::native {
namespace {

using emu::Inst;
using emu::kNoReg;
using emu::Space;
using emu::Special;
using emu::Type;

class Guess {
public:
  explicit Guess(const AffineInput& input) : m_in(input) {}

  std::map<std::uint32_t, Coefficient> run() {
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [slot, pcs] : m_in.defs) {
        Coefficient& now = m_affine[slot];
        if (now.state == Coefficient::not_affine)
          continue;
        for (std::uint32_t pc : pcs) {
          const Coefficient c = m_in.single_writes.count(pc) && m_in.program.code[pc].d == slot
                                    ? coefficient_of(pc)
                                    : Coefficient{Coefficient::not_affine, 0};
          const Coefficient joined = join(now, c);
          if (joined.state != now.state || joined.c != now.c) {
            now = joined;
            changed = true;
          }
        }
      }
    }
    return m_affine;
  }

private:
  [[nodiscard]] const ptx::Instruction* ast(std::uint32_t pc) const {
    const std::uint32_t k = pc - m_in.first_pc;
    return k < m_in.ast.size() ? m_in.ast[k] : nullptr;
  }
  [[nodiscard]] bool is_memory(std::uint32_t pc) const {
    const auto* a = ast(pc);
    return a && (a->opcode == "ld" || a->opcode == "st" || a->opcode == "ldu" ||
                 a->opcode == "atom" || a->opcode == "red");
  }

  static Coefficient join(Coefficient a, Coefficient b) {
    if (a.state == Coefficient::unknown)
      return b;
    if (b.state == Coefficient::unknown)
      return a;
    if (a.state == Coefficient::known && b.state == Coefficient::known && a.c == b.c)
      return a;
    return {Coefficient::not_affine, 0};
  }

  [[nodiscard]] Coefficient operand_coefficient(std::uint32_t slot) const {
    if (slot == kNoReg || m_in.constants.count(slot))
      return {Coefficient::known, 0};
    if (auto it = m_in.specials.find(slot); it != m_in.specials.end()) {
      switch (it->second) {
      case Special::tid_x:
        return {Coefficient::known, 1};
      case Special::laneid:
      case Special::warpid:
      case Special::lanemask_eq:
      case Special::lanemask_lt:
      case Special::lanemask_le:
      case Special::lanemask_gt:
      case Special::lanemask_ge:
        return {Coefficient::not_affine, 0};
      default:
        return {Coefficient::known, 0};
      }
    }
    auto it = m_affine.find(slot);
    return it == m_affine.end() ? Coefficient{} : it->second;
  }

  /// What one definition gives, from what its sources are now.
  [[nodiscard]] Coefficient coefficient_of(std::uint32_t pc) const {
    const Inst& in = m_in.program.code[pc];
    const ptx::Instruction& a = *ast(pc);
    constexpr Coefficient no{Coefficient::not_affine, 0};
    if (is_memory(pc))
      return a.opcode == "ld" && in.space == Space::param_kernel && in.a == kNoReg
                 ? Coefficient{Coefficient::known, 0}
                 : no;
    // Integer types only; `rest` is every modifier that is not a type (.lo, .wide, .sat, …).
    std::set<std::string> rest;
    for (const auto& text : a.modifiers) {
      const auto t = emu::parse_type(text);
      if (!t) {
        rest.insert(text);
        continue;
      }
      const unsigned bytes = emu::type_bytes(*t);
      if (emu::is_float(*t) || *t == Type::pred || (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8))
        return no;
    }
    const Coefficient x = operand_coefficient(in.a), y = operand_coefficient(in.b),
                      z = operand_coefficient(in.c);
    for (const Coefficient& v : {x, y, z})
      if (v.state == Coefficient::not_affine)
        return no;
    if (x.state == Coefficient::unknown || y.state == Coefficient::unknown ||
        z.state == Coefficient::unknown)
      return {};
    auto known = [](std::int64_t c) { return Coefficient{Coefficient::known, c}; };
    auto constant_of = [&](std::uint32_t slot) -> std::optional<std::int64_t> {
      auto it = m_in.constants.find(slot);
      if (it == m_in.constants.end())
        return std::nullopt;
      return static_cast<std::int64_t>(it->second);
    };
    // x × y: affine when one side is a constant or both are uniform.
    auto product = [&]() -> Coefficient {
      if (auto k = constant_of(in.b))
        return known(static_cast<std::int64_t>(static_cast<std::uint64_t>(x.c) *
                                               static_cast<std::uint64_t>(*k)));
      if (auto k = constant_of(in.a))
        return known(static_cast<std::int64_t>(static_cast<std::uint64_t>(y.c) *
                                               static_cast<std::uint64_t>(*k)));
      return x.c == 0 && y.c == 0 ? known(0) : no;
    };
    const std::string& op = a.opcode;
    const bool plain = rest.empty();
    if ((op == "mov" || op == "cvta" || op == "cvt") && in.guard == kNoReg)
      return x;
    if (op == "add" && plain)
      return known(x.c + y.c);
    if (op == "sub" && plain)
      return known(x.c - y.c);
    if (op == "neg" && plain)
      return known(-x.c);
    if ((op == "mul" || op == "mad") && (rest.count("lo") || rest.count("wide"))) {
      const Coefficient p = product();
      return p.state == Coefficient::known && op == "mad" ? known(p.c + z.c) : p;
    }
    if (op == "shl" && plain) {
      if (auto k = constant_of(in.b); k && *k >= 0 && *k < 63)
        return known(static_cast<std::int64_t>(static_cast<std::uint64_t>(x.c) << *k));
    }
    // Anything else of uniform values (a shift, a division, a mask) is uniform.
    return x.c == 0 && y.c == 0 && z.c == 0 && in.e == kNoReg && op != "selp" ? known(0) : no;
  }


  const AffineInput& m_in;
  std::map<std::uint32_t, Coefficient> m_affine;
};

} // namespace

std::map<std::uint32_t, Coefficient> guess_affine(const AffineInput& input) {
  return Guess(input).run();
}

} // namespace gpurun::native
