// Packed half-precision arithmetic (.f16x2 / .bf16x2: two halves in one b32, low half first) and
// cvt.f16x2.f32 / cvt.bf16x2.f32, which pack two converted f32 values (a in the high half).
#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"
#include "backends/cpu/emu/sfu.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

template <class H> H half_at(std::uint64_t v, int i) {
  return H{static_cast<std::uint16_t>(v >> (16 * i))};
}
template <class H> std::uint64_t pack(H lo, H hi) {
  return std::uint64_t{lo.bits} | std::uint64_t{hi.bits} << 16;
}

template <class H, nm::FpMode M> struct PAdd {
  H operator()(H a, H b) const { return nm::add(a, b, M); }
};
template <class H, nm::FpMode M> struct PSub {
  H operator()(H a, H b) const { return nm::sub(a, b, M); }
};
template <class H, nm::FpMode M> struct PMul {
  H operator()(H a, H b) const { return nm::mul(a, b, M); }
};
template <class H, nm::FpMode M> struct PFma {
  H operator()(H a, H b, H c) const { return nm::fma(a, b, c, M); }
};
template <class H, bool Max, bool Ftz, nm::NanMode N, bool Xorsign> struct PMinMax {
  H operator()(H a, H b) const {
    if constexpr (Xorsign)
      return nm::minmax_xorsign_abs(a, b, Max, Ftz, N);
    else
      return Max ? nm::fmax(a, b, Ftz, N) : nm::fmin(a, b, Ftz, N);
  }
};
// neg.f16x2 and abs.f16x2 are bit operations, NaNs kept; their .ftz forms make the canonical NaN
// of a NaN half (measured on an H200).
template <class H, bool Ftz> struct PNeg {
  H operator()(H a) const {
    if constexpr (Ftz && std::is_same_v<H, Half>)
      if (nm::detail::is_nan(a))
        return H{nm::canonical_nan_f16};
    return nm::fneg(a, Ftz);
  }
};
template <class H, bool Ftz> struct PAbs {
  H operator()(H a) const {
    if constexpr (Ftz && std::is_same_v<H, Half>)
      if (nm::detail::is_nan(a))
        return H{nm::canonical_nan_f16};
    return nm::fabs(a, Ftz);
  }
};

template <class H, class Op, int Arity> void packed(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t* a = w.reg(in.a);
  const std::uint64_t* b = Arity >= 2 ? w.reg(in.b) : a;
  const std::uint64_t* c = Arity >= 3 ? w.reg(in.c) : a;
  std::uint64_t* d = w.reg(in.d);
  each_lane(mask, [&](int l) {
    H r[2];
    for (int i = 0; i < 2; ++i) {
      H x = half_at<H>(a[l], i);
      if constexpr (Arity == 1)
        r[i] = Op{}(x);
      else if constexpr (Arity == 2)
        r[i] = Op{}(x, half_at<H>(b[l], i));
      else
        r[i] = Op{}(x, half_at<H>(b[l], i), half_at<H>(c[l], i));
    }
    d[l] = pack(r[0], r[1]);
  });
}

// in.imm: relu | satfinite << 1.
template <class H, nm::Round R> void cvt_pack(Warp& w, const Inst& in, std::uint32_t mask) {
  const std::uint64_t *a = w.reg(in.a), *b = w.reg(in.b);
  std::uint64_t* d = w.reg(in.d);
  const bool relu = (in.imm & 1) != 0, satfinite = (in.imm & 2) != 0;
  auto one = [&](float f) {
    H h{};
    if constexpr (std::is_same_v<H, Half>)
      h = nm::f32_to_f16(f, R);
    else
      h = nm::f32_to_bf16(f, R);
    if (satfinite)
      h = nm::satfinite(h);
    return relu ? nm::relu(h) : h;
  };
  each_lane(mask, [&](int l) { d[l] = pack(one(get<float>(b[l])), one(get<float>(a[l]))); });
}

template <class H, bool Ftz, bool Sat> Handler arith(const std::string& op) {
  constexpr nm::FpMode M{nm::Round::rn, Ftz, Sat};
  if (op == "add")
    return &packed<H, PAdd<H, M>, 2>;
  if (op == "sub")
    return &packed<H, PSub<H, M>, 2>;
  if (op == "mul")
    return &packed<H, PMul<H, M>, 2>;
  if (op == "fma")
    return &packed<H, PFma<H, M>, 3>;
  return nullptr;
}

template <class H, bool Ftz> Handler plain(const std::string& op, bool nan, bool xorsign) {
  using NM = nm::NanMode;
  if (op == "neg")
    return &packed<H, PNeg<H, Ftz>, 1>;
  if (op == "abs")
    return &packed<H, PAbs<H, Ftz>, 1>;
  if (op != "min" && op != "max")
    return nullptr;
  auto pick = [&]<bool Max, bool Xor>() -> Handler {
    return nan ? &packed<H, PMinMax<H, Max, Ftz, NM::propagate, Xor>, 2>
               : &packed<H, PMinMax<H, Max, Ftz, NM::ignore, Xor>, 2>;
  };
  if (op == "max")
    return xorsign ? pick.template operator()<true, true>()
                   : pick.template operator()<true, false>();
  return xorsign ? pick.template operator()<false, true>()
                 : pick.template operator()<false, false>();
}

template <std::uint16_t (*Fn)(std::uint16_t) noexcept> struct Sfu16x2 {
  std::uint32_t operator()(std::uint32_t a) const {
    return static_cast<std::uint32_t>(Fn(static_cast<std::uint16_t>(a))) |
           static_cast<std::uint32_t>(Fn(static_cast<std::uint16_t>(a >> 16))) << 16;
  }
};

bool packed_type(const ptx::Instruction& in, Type* out) {
  for (const auto& s : in.modifiers)
    if (auto t = parse_type(s); t && (*t == Type::f16x2 || *t == Type::bf16x2)) {
      *out = *t;
      return true;
    }
  return false;
}

} // namespace

bool select_packed(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  Type t{};
  // atom/red on packed halves are atomics (ops_atomic.cpp), not packed arithmetic.
  if (in.opcode == "atom" || in.opcode == "red" || !packed_type(in, &t))
    return false;
  const std::string& op = in.opcode;
  const OperandList ops(in);
  bool bf = t == Type::bf16x2;
  if (op == "cvt") {
    auto rnd = m.take_any({"rn", "rz"});
    const bool relu = m.take("relu");
    const bool satfinite = m.take("satfinite");
    auto types = m.take_types();
    if (rnd.empty() || types.size() != 2 || types[1] != Type::f32 || ops.size() != 3)
      throw_unsupported(in);
    out.imm = (relu ? 1 : 0) | (satfinite ? 2 : 0);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::f32);
    out.b = od.src(ops[2], Type::f32);
    bool rz = rnd == "rz";
    out.fn = bf ? (rz ? &cvt_pack<BFloat16, nm::Round::rz> : &cvt_pack<BFloat16, nm::Round::rn>)
                : (rz ? &cvt_pack<Half, nm::Round::rz> : &cvt_pack<Half, nm::Round::rn>);
    return true;
  }
  if ((op == "ex2" || op == "tanh") && m.take("approx")) {
    // The unit's 16-bit forms, lane by lane; ex2 on bf16x2 is spelled with .ftz.
    if (op == "ex2" && bf != m.take("ftz"))
      throw_unsupported(in);
    auto types = m.take_types();
    if (types.size() != 1 || ops.size() != 2)
      throw_unsupported(in);
    out.d = od.dst(ops[0]);
    out.a = od.src(ops[1], Type::b32);
    out.fn = op == "ex2" ? (bf ? &unary_op<std::uint32_t, std::uint32_t, Sfu16x2<sfu::ex2_bf16>>
                               : &unary_op<std::uint32_t, std::uint32_t, Sfu16x2<sfu::ex2_f16>>)
                         : (bf ? &unary_op<std::uint32_t, std::uint32_t, Sfu16x2<sfu::tanh_bf16>>
                               : &unary_op<std::uint32_t, std::uint32_t, Sfu16x2<sfu::tanh_f16>>);
    return true;
  }
  bool arithmetic = op == "add" || op == "sub" || op == "mul" || op == "fma";
  bool other = op == "neg" || op == "abs" || op == "min" || op == "max";
  if (!arithmetic && !other)
    throw_unsupported(in);
  (void)m.take("rn");
  // f16x2 takes .ftz (subnormal halves flushed, inputs and results) everywhere; bf16x2 never.
  bool ftz = !bf && m.take("ftz");
  bool sat = arithmetic && !bf && m.take("sat");
  bool nan = !arithmetic && m.take("NaN");
  bool xorsign = (op == "min" || op == "max") && m.take("xorsign");
  if (xorsign != ((op == "min" || op == "max") && m.take("abs")))
    throw_unsupported(in); // .xorsign needs .abs
  auto types = m.take_types();
  std::size_t arity = op == "fma" ? 3 : (op == "neg" || op == "abs") ? 1 : 2;
  if (types.size() != 1 || ops.size() != arity + 1)
    throw_unsupported(in);
  out.d = od.dst(ops[0]);
  out.a = od.src(ops[1], Type::b32);
  if (arity >= 2)
    out.b = od.src(ops[2], Type::b32);
  if (arity >= 3)
    out.c = od.src(ops[3], Type::b32);
  if (arithmetic)
    out.fn = bf           ? arith<BFloat16, false, false>(op)
             : ftz && sat ? arith<Half, true, true>(op)
             : ftz        ? arith<Half, true, false>(op)
             : sat        ? arith<Half, false, true>(op)
                          : arith<Half, false, false>(op);
  else
    out.fn = bf    ? plain<BFloat16, false>(op, nan, xorsign)
             : ftz ? plain<Half, true>(op, nan, xorsign)
                   : plain<Half, false>(op, nan, xorsign);
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
