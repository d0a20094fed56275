// atom / red on global, shared and generic addresses. Blocks run concurrently on several host
// threads, so global atomics are real host atomics (std::atomic_ref); lanes of one warp apply
// their operations in lane order, as a GPU serialises conflicting lanes.
#include <atomic>
#include <type_traits>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "backends/cpu/emu/numeric.hpp"
#include "backends/cpu/emu/sanitize.hpp"

namespace gpurun::emu {

namespace {

enum class AtomOp : std::uint8_t { add, min, max, inc, dec, and_, or_, xor_, exch, cas };

template <class T, AtomOp Op> T apply(std::atomic_ref<T> ref, T b, T c) {
  if constexpr (Op == AtomOp::add) {
    return ref.fetch_add(b);
  } else if constexpr (Op == AtomOp::and_) {
    return ref.fetch_and(b);
  } else if constexpr (Op == AtomOp::or_) {
    return ref.fetch_or(b);
  } else if constexpr (Op == AtomOp::xor_) {
    return ref.fetch_xor(b);
  } else if constexpr (Op == AtomOp::exch) {
    return ref.exchange(b);
  } else if constexpr (Op == AtomOp::cas) {
    T expected = b;
    ref.compare_exchange_strong(expected, c);
    return expected;
  } else {
    T old = ref.load();
    for (;;) {
      T next{};
      if constexpr (Op == AtomOp::min)
        next = b < old ? b : old;
      if constexpr (Op == AtomOp::max)
        next = b > old ? b : old;
      if constexpr (Op == AtomOp::inc)
        next = old >= b ? T{0} : static_cast<T>(old + 1);
      if constexpr (Op == AtomOp::dec)
        next = (old == 0 || old > b) ? b : static_cast<T>(old - 1);
      if (ref.compare_exchange_weak(old, next))
        return old;
    }
  }
}

template <class T, AtomOp Op> void atom(Warp& w, const Inst& in, std::uint32_t mask) {
  std::byte* p[kWarpSize];
  translate_lanes(w, in, mask, sizeof(T), sizeof(T), true, p);
  each_lane(mask, [&](int l) {
    if (reinterpret_cast<std::uintptr_t>(p[l]) % sizeof(T))
      throw_misaligned(w, l, lane_address(w, in, l), sizeof(T));
  });
  if (w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, sizeof(T), Access::atomic, p);
  const std::uint64_t* b = w.reg(in.b);
  const std::uint64_t* c = in.c != kNoReg ? w.reg(in.c) : b;
  std::uint64_t* d = in.d != kNoReg ? w.reg(in.d) : nullptr;
  each_lane(mask, [&](int l) {
    std::atomic_ref<T> ref(*reinterpret_cast<T*>(p[l]));
    T old = apply<T, Op>(ref, get<T>(b[l]), get<T>(c[l]));
    if (d)
      d[l] = put(old);
  });
}

// atom.add.noftz.{f16, bf16, f16x2, bf16x2}: a compare-and-swap loop on the 16- or 32-bit word,
// each half added as add.rn.{f16,bf16} adds it (no flush), one lane after another.
template <class H, bool Pair> void atom_add_half(Warp& w, const Inst& in, std::uint32_t mask) {
  using Word = std::conditional_t<Pair, std::uint32_t, std::uint16_t>;
  std::byte* p[kWarpSize];
  translate_lanes(w, in, mask, sizeof(Word), sizeof(Word), true, p);
  each_lane(mask, [&](int l) {
    if (reinterpret_cast<std::uintptr_t>(p[l]) % sizeof(Word))
      throw_misaligned(w, l, lane_address(w, in, l), sizeof(Word));
  });
  if (w.block->sanitize) [[unlikely]]
    sanitize_access(w, in, mask, sizeof(Word), Access::atomic, p);
  const std::uint64_t* b = w.reg(in.b);
  std::uint64_t* d = in.d != kNoReg ? w.reg(in.d) : nullptr;
  const auto add = [](Word a, Word v) {
    Word out = 0;
    for (int i = 0; i < (Pair ? 2 : 1); ++i) {
      const H x{static_cast<std::uint16_t>(a >> (16 * i))};
      const H y{static_cast<std::uint16_t>(v >> (16 * i))};
      out |= static_cast<Word>(static_cast<Word>(numeric::add(x, y).bits) << (16 * i));
    }
    return out;
  };
  each_lane(mask, [&](int l) {
    std::atomic_ref<Word> ref(*reinterpret_cast<Word*>(p[l]));
    const Word value = static_cast<Word>(b[l]);
    Word old = ref.load();
    while (!ref.compare_exchange_weak(old, add(old, value))) {
    }
    if (d)
      d[l] = old;
  });
}

template <AtomOp Op> Handler for_type(Type t) {
  auto ints = [](auto v) -> Handler { return &atom<decltype(v), Op>; };
  switch (t) {
  case Type::b32:
  case Type::u32:
    return ints(std::uint32_t{});
  case Type::s32:
    return ints(std::int32_t{});
  case Type::b64:
  case Type::u64:
    return ints(std::uint64_t{});
  case Type::s64:
    return ints(std::int64_t{});
  case Type::f32:
    if constexpr (Op == AtomOp::add || Op == AtomOp::exch)
      return &atom<float, Op>;
    return nullptr;
  case Type::f64:
    if constexpr (Op == AtomOp::add || Op == AtomOp::exch)
      return &atom<double, Op>;
    return nullptr;
  case Type::b16:
  case Type::u16:
    // atom.cas.b16 (sm_70): the 16-bit compare-and-swap.
    if constexpr (Op == AtomOp::cas || Op == AtomOp::exch)
      return ints(std::uint16_t{});
    return nullptr;
  case Type::f16:
    return Op == AtomOp::add ? &atom_add_half<numeric::Half, false> : nullptr;
  case Type::bf16:
    return Op == AtomOp::add ? &atom_add_half<numeric::BFloat16, false> : nullptr;
  case Type::f16x2:
    return Op == AtomOp::add ? &atom_add_half<numeric::Half, true> : nullptr;
  case Type::bf16x2:
    return Op == AtomOp::add ? &atom_add_half<numeric::BFloat16, true> : nullptr;
  default:
    return nullptr;
  }
}

} // namespace

bool select_atomic(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  bool red = in.opcode == "red";
  if (in.opcode != "atom" && !red)
    return false;
  auto space = m.take_any({"global", "shared"});
  out.space = space == "global"   ? Space::global
              : space == "shared" ? Space::shared
                                  : Space::generic;
  (void)m.take("cta");
  (void)m.take_any({"relaxed", "acquire", "release", "acq_rel", "sem"});
  (void)m.take_any({"cta", "gpu", "sys", "cluster"});
  auto op = m.take_any({"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas"});
  (void)m.take("noftz");
  auto types = m.take_types();
  if (op.empty() || types.size() != 1)
    throw_unsupported(in);
  Type t = types[0];
  // Bitwise ops are declared on .b types, arithmetic on .u/.s/.f: both map to the same host op.
  const OperandList ops(in);
  std::size_t value_index = red ? 1 : 2;
  std::size_t need = value_index + (op == "cas" ? 2 : 1);
  if (ops.size() != need)
    throw_unsupported(in, "operand count");
  if (!red)
    out.d = od.dst(ops[0]);
  od.address(ops[value_index - 1], out);
  if (out.space != Space::global && out.space != Space::shared && out.space != Space::generic)
    throw_unsupported(in, "atomic on this state space");
  out.b = od.src(ops[value_index], t);
  if (op == "cas")
    out.c = od.src(ops[value_index + 1], t);
  out.fn = op == "add"    ? for_type<AtomOp::add>(t)
           : op == "min"  ? for_type<AtomOp::min>(t)
           : op == "max"  ? for_type<AtomOp::max>(t)
           : op == "inc"  ? (t == Type::u32 ? for_type<AtomOp::inc>(t) : nullptr)
           : op == "dec"  ? (t == Type::u32 ? for_type<AtomOp::dec>(t) : nullptr)
           : op == "and"  ? for_type<AtomOp::and_>(t)
           : op == "or"   ? for_type<AtomOp::or_>(t)
           : op == "xor"  ? for_type<AtomOp::xor_>(t)
           : op == "exch" ? for_type<AtomOp::exch>(t)
                          : for_type<AtomOp::cas>(t);
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
