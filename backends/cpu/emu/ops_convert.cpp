// cvt between every pair of integer and floating-point types, with PTX's rounding, .ftz, .sat,
// and .relu/.satfinite on f16/bf16 results; the FP8 pair conversions (.e4m3x2, .e5m2x2); f32 to
// tf32.
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/detail/numeric_mma.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

// The mode is stored in inst.imm: round | ftz << 8 | sat << 9 | integral << 10 | relu << 11 |
// satfinite << 12.
nm::CvtMode mode_of(const Inst& in) {
  nm::CvtMode m;
  m.round = static_cast<nm::Round>(in.imm & 0xff);
  m.ftz = (in.imm >> 8) & 1;
  m.sat = (in.imm >> 9) & 1;
  m.integral = (in.imm >> 10) & 1;
  m.relu = (in.imm >> 11) & 1;
  m.satfinite = (in.imm >> 12) & 1;
  return m;
}

// FP8 pairs (.e4m3x2 / .e5m2x2 in a b16, the first element in the high byte); in.imm is
// relu | e5m2 << 1.
nm::Fp8 fp8_of(const Inst& in) {
  return (in.imm & 2) != 0 ? nm::Fp8::e5m2 : nm::Fp8::e4m3;
}

// cvt.rn.satfinite{.relu}.f8x2.f32 d, a, b: a into the high byte, b into the low one.
void cvt_fp8x2_f32(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b);
  std::uint64_t* d = w.reg(in.d);
  const nm::Fp8 f = fp8_of(in);
  const bool relu = (in.imm & 1) != 0;
  each_lane(mask, [&](int l) {
    const unsigned hi = nm::to_fp8(get<float>(a[l]), f, relu);
    const unsigned lo = nm::to_fp8(get<float>(b[l]), f, relu);
    d[l] = (hi << 8 | lo) & in.mask_bits;
  });
}

// cvt.rn.satfinite{.relu}.f8x2.f16x2 d, a: each half of a into the byte at the same place.
void cvt_fp8x2_f16x2(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  const nm::Fp8 f = fp8_of(in);
  const bool relu = (in.imm & 1) != 0;
  each_lane(mask, [&](int l) {
    auto half = [&](int i) {
      return nm::f16_to_f64(Half{static_cast<std::uint16_t>(a[l] >> (16 * i))});
    };
    const unsigned hi = nm::to_fp8(half(1), f, relu);
    const unsigned lo = nm::to_fp8(half(0), f, relu);
    d[l] = (hi << 8 | lo) & in.mask_bits;
  });
}

// cvt.rn{.relu}.f16x2.f8x2 d, a: each byte of a into the half at the same place.
void cvt_f16x2_fp8x2(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  const nm::Fp8 f = fp8_of(in);
  const bool relu = (in.imm & 1) != 0;
  each_lane(mask, [&](int l) {
    const std::uint32_t lo = nm::fp8_to_f16(static_cast<std::uint8_t>(a[l]), f, relu).bits;
    const std::uint32_t hi = nm::fp8_to_f16(static_cast<std::uint8_t>(a[l] >> 8), f, relu).bits;
    d[l] = (hi << 16 | lo) & in.mask_bits;
  });
}

// cvt.{rna,rn,rz}{.relu}{.satfinite}.tf32.f32: an f32 rounded to tf32's 10 fraction bits (the low
// 13 bits of the result are zero); in.imm is round | relu << 8 | satfinite << 9.
void cvt_tf32_f32(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  std::uint64_t* d = w.reg(in.d);
  const auto round = static_cast<nm::Round>(in.imm & 0xff);
  const bool relu = (in.imm >> 8) & 1, satfinite = (in.imm >> 9) & 1;
  each_lane(mask, [&](int l) { d[l] = nm::f32_to_tf32(get<float>(a[l]), round, relu, satfinite); });
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

bool select_fp8_convert(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  if (in.opcode != "cvt")
    return false;
  // The FP8 type and the other type, in the order written: the first is the destination.
  int fp8_at = -1, other_at = -1;
  std::string other;
  for (std::size_t i = 0; i < in.modifiers.size(); ++i) {
    const std::string& s = in.modifiers[i];
    if (s == "e4m3x2" || s == "e5m2x2")
      fp8_at = static_cast<int>(i);
    else if (s == "f32" || s == "f16x2") {
      other_at = static_cast<int>(i);
      other = s;
    }
  }
  if (fp8_at < 0)
    return false;
  const bool to_fp8 = fp8_at < other_at;
  const bool e5m2 = m.take_any({"e4m3x2", "e5m2x2"}) == "e5m2x2";
  if (!m.take("rn") || other_at < 0 || !m.take(other) || (to_fp8 && !m.take("satfinite")))
    throw_unsupported(in);
  const bool relu = m.take("relu");
  const OperandList ops(in);
  const std::size_t want = to_fp8 && other == "f32" ? 3 : 2;
  if (ops.size() != want || (!to_fp8 && other != "f16x2"))
    throw_unsupported(in);
  out.d = od.dst(ops[0]);
  out.mask_bits = od.dst_mask(ops[0]);
  out.a = od.src(ops[1], other == "f32" ? Type::f32 : Type::b32);
  if (want == 3)
    out.b = od.src(ops[2], Type::f32);
  out.imm = (relu ? 1 : 0) | (e5m2 ? 2 : 0);
  out.fn = !to_fp8 ? &cvt_f16x2_fp8x2 : other == "f32" ? &cvt_fp8x2_f32 : &cvt_fp8x2_f16x2;
  return true;
}

bool select_convert(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  if (in.opcode != "cvt")
    return false;
  auto rnd = m.take_any({"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi"});
  bool ftz = m.take("ftz");
  bool sat = m.take("sat");
  bool relu = m.take("relu");
  bool satfinite = m.take("satfinite");
  if (m.take("tf32")) {
    if (!m.take("f32") || (rnd != "rna" && rnd != "rn" && rnd != "rz") || ftz || sat ||
        in.operands.size() != 2)
      throw_unsupported(in);
    out.imm = static_cast<std::int64_t>(rnd == "rna"  ? nm::Round::rna
                                        : rnd == "rn" ? nm::Round::rn
                                                      : nm::Round::rz) |
              (relu ? 1 << 8 : 0) | (satfinite ? 1 << 9 : 0);
    out.d = od.dst(in.operands[0]);
    out.mask_bits = od.dst_mask(in.operands[0]);
    out.a = od.src(in.operands[1], Type::f32);
    out.fn = &cvt_tf32_f32;
    return true;
  }
  auto types = m.take_types();
  if (types.size() != 2 || in.operands.size() != 2)
    throw_unsupported(in);
  Type dt = types[0], st = types[1];
  // .relu and .satfinite exist on cvt.{rn,rz}.{f16,bf16}.f32 only.
  if ((relu || satfinite) &&
      ((dt != Type::f16 && dt != Type::bf16) || st != Type::f32 || (rnd != "rn" && rnd != "rz")))
    throw_unsupported(in);
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
            (integral && float_to_float ? 1 << 10 : 0) | (relu ? 1 << 11 : 0) |
            (satfinite ? 1 << 12 : 0);
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
