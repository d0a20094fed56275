// cvt between every pair of integer and floating-point types, with PTX's rounding, .ftz and .sat.
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

// The mode is stored in inst.imm: round | ftz << 8 | sat << 9 | integral << 10.
nm::CvtMode mode_of(const Inst& in) {
  nm::CvtMode m;
  m.round = static_cast<nm::Round>(in.imm & 0xff);
  m.ftz = (in.imm >> 8) & 1;
  m.sat = (in.imm >> 9) & 1;
  m.integral = (in.imm >> 10) & 1;
  return m;
}

template <class D, class S> void cvt(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  nm::CvtMode m = mode_of(in);
  each_lane(mask, [&](int l) {
    std::uint64_t v = put(nm::cvt<D, S>(get<S>(a[l]), m));
    // A signed result written to a wider register is sign-extended (cvt.s32.s16 into %r …).
    if constexpr (std::is_signed_v<D> && std::is_integral_v<D>)
      v = static_cast<std::uint64_t>(static_cast<std::int64_t>(nm::cvt<D, S>(get<S>(a[l]), m)));
    d[l] = v & in.mask_bits;
  });
}

template <class F> Handler by_type(Type t, F&& f) {
  switch (t) {
  case Type::u8:
    return f(std::uint8_t{});
  case Type::u16:
    return f(std::uint16_t{});
  case Type::u32:
    return f(std::uint32_t{});
  case Type::u64:
    return f(std::uint64_t{});
  case Type::s8:
    return f(std::int8_t{});
  case Type::s16:
    return f(std::int16_t{});
  case Type::s32:
    return f(std::int32_t{});
  case Type::s64:
    return f(std::int64_t{});
  case Type::f16:
    return f(Half{});
  case Type::bf16:
    return f(BFloat16{});
  case Type::f32:
    return f(float{});
  case Type::f64:
    return f(double{});
  default:
    return nullptr;
  }
}

} // namespace

bool select_convert(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  if (in.opcode != "cvt")
    return false;
  auto rnd = m.take_any({"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"});
  bool ftz = m.take("ftz");
  bool sat = m.take("sat");
  auto types = m.take_types();
  if (types.size() != 2 || in.operands.size() != 2)
    throw_unsupported(in);
  Type dt = types[0], st = types[1];
  bool integral = rnd.size() == 3;
  nm::Round r = nm::Round::rn;
  if (!rnd.empty()) {
    char c = rnd[1];
    r = c == 'n'   ? (rnd == "rna" ? nm::Round::rna : nm::Round::rn)
        : c == 'z' ? nm::Round::rz
        : c == 'm' ? nm::Round::rm
                   : nm::Round::rp;
  } else if (is_float(st) && !is_float(dt)) {
    r = nm::Round::rz; // C's truncation, for PTX that omits the (required) rounding modifier
  }
  // float -> int uses the integer rounding as its rounding; only float -> float is "integral".
  bool float_to_float = is_float(st) && is_float(dt);
  out.imm = static_cast<std::int64_t>(r) | (ftz ? 1 << 8 : 0) | (sat ? 1 << 9 : 0) |
            (integral && float_to_float ? 1 << 10 : 0);
  out.d = od.dst(in.operands[0]);
  out.mask_bits = od.dst_mask(in.operands[0]);
  out.a = od.src(in.operands[1], st);
  out.fn = by_type(dt, [&](auto dv) -> Handler {
    return by_type(st, [&](auto sv) -> Handler { return &cvt<decltype(dv), decltype(sv)>; });
  });
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
