// Floating-point arithmetic: f32/f64/f16/bf16 through numeric.hpp with the instruction's rounding
// and flush modes as compile-time constants; min/max with .NaN and .xorsign.abs.
#include <cmath>

#include "backends/cpu/emu/decoder.hpp"
#include "backends/cpu/emu/handlers.hpp"
#include "backends/cpu/emu/numeric.hpp"
#include "backends/cpu/emu/sfu.hpp"

namespace gpurun::emu {

namespace nm = numeric;

namespace {

template <class F, nm::FpMode M> struct FAdd {
  F operator()(F a, F b) const { return nm::add(a, b, M); }
};
template <class F, nm::FpMode M> struct FSub {
  F operator()(F a, F b) const { return nm::sub(a, b, M); }
};
template <class F, nm::FpMode M> struct FMul {
  F operator()(F a, F b) const { return nm::mul(a, b, M); }
};
template <class F, nm::FpMode M> struct FDiv {
  F operator()(F a, F b) const { return nm::div(a, b, M); }
};
template <class F, nm::FpMode M> struct FFma {
  F operator()(F a, F b, F c) const { return nm::fma(a, b, c, M); }
};
template <class F, nm::FpMode M> struct FSqrt {
  F operator()(F a) const { return nm::sqrt(a, M); }
};
template <class F, nm::FpMode M> struct FRcp {
  F operator()(F a) const { return nm::rcp(a, M); }
};
template <class F, bool Max, bool Ftz, nm::NanMode N, bool Xorsign> struct FMinMax {
  F operator()(F a, F b) const {
    if constexpr (Xorsign)
      return nm::minmax_xorsign_abs(a, b, Max, Ftz, N);
    else
      return Max ? nm::fmax(a, b, Ftz, N) : nm::fmin(a, b, Ftz, N);
  }
};
template <class F, bool Ftz> struct FAbs {
  F operator()(F a) const { return nm::fabs(a, Ftz); }
};
template <class F, bool Ftz> struct FNeg {
  F operator()(F a) const { return nm::fneg(a, Ftz); }
};
/// abs and neg on a scalar f16 make the canonical NaN of a NaN (measured on an H200); on f16x2
/// and bf16 they are bit operations.
template <class H, bool Ftz, bool Abs> struct HSign {
  H operator()(H a) const {
    const H r = Abs ? nm::fabs(a, Ftz) : nm::fneg(a, Ftz);
    if constexpr (std::is_same_v<H, Half>)
      if (nm::detail::is_nan(r))
        return Half{nm::canonical_nan_f16};
    return r;
  }
};
template <class F> struct FCopysign {
  F operator()(F a, F b) const { return nm::copysign(a, b); }
};

template <bool Ftz> struct RcpApprox {
  float operator()(float a) const { return nm::rcp_approx(a, Ftz); }
};
struct RcpApproxF64 {
  double operator()(double a) const { return nm::rcp_approx_ftz_f64(a); }
};
template <bool Ftz> struct SqrtApprox {
  float operator()(float a) const { return nm::sqrt_approx(a, Ftz); }
};
template <bool Ftz> struct RsqrtApprox {
  float operator()(float a) const { return nm::rsqrt_approx(a, Ftz); }
};
struct RsqrtApproxF64 {
  double operator()(double a) const { return nm::rsqrt_approx(a); }
};
struct RsqrtApproxFtzF64 {
  double operator()(double a) const { return nm::rsqrt_approx_ftz_f64(a); }
};
/// ex2.approx / tanh.approx on f16 and bf16: the special-function unit's 16-bit forms.
template <std::uint16_t (*Fn)(std::uint16_t) noexcept> struct Sfu16 {
  std::uint16_t operator()(std::uint16_t a) const { return Fn(a); }
};
template <bool Ftz> struct Ex2 {
  float operator()(float a) const { return nm::ex2_approx(a, Ftz); }
};
template <bool Ftz> struct Lg2 {
  float operator()(float a) const { return nm::lg2_approx(a, Ftz); }
};
template <bool Ftz> struct Sin {
  float operator()(float a) const { return nm::sin_approx(a, Ftz); }
};
template <bool Ftz> struct Cos {
  float operator()(float a) const { return nm::cos_approx(a, Ftz); }
};
struct Tanh {
  float operator()(float a) const { return nm::tanh_approx(a); }
};
template <bool Ftz> struct DivApprox {
  float operator()(float a, float b) const { return nm::div_approx(a, b, Ftz); }
};
template <bool Ftz> struct DivFull {
  float operator()(float a, float b) const { return nm::div_full(a, b, Ftz); }
};

template <template <class, nm::FpMode> class Op, class F, int Arity, nm::FpMode M>
Handler arity_handler() {
  if constexpr (Arity == 1)
    return &unary_op<F, F, Op<F, M>>;
  else if constexpr (Arity == 2)
    return &binary_op<F, F, Op<F, M>>;
  else
    return &ternary_op<F, F, F, Op<F, M>>;
}

template <template <class, nm::FpMode> class Op, class F, int Arity>
Handler by_mode(nm::Round r, bool ftz, bool sat) {
#define GPURUN_MODE(R)                                                                             \
  if (r == nm::Round::R) {                                                                         \
    if (ftz && sat)                                                                                \
      return arity_handler<Op, F, Arity, nm::FpMode{nm::Round::R, true, true}>();                  \
    if (ftz)                                                                                       \
      return arity_handler<Op, F, Arity, nm::FpMode{nm::Round::R, true, false}>();                 \
    if (sat)                                                                                       \
      return arity_handler<Op, F, Arity, nm::FpMode{nm::Round::R, false, true}>();                 \
    return arity_handler<Op, F, Arity, nm::FpMode{nm::Round::R, false, false}>();                  \
  }
  GPURUN_MODE(rn)
  GPURUN_MODE(rz)
  GPURUN_MODE(rm)
  GPURUN_MODE(rp)
#undef GPURUN_MODE
  return nullptr;
}

// min/max{.ftz}{.NaN}{.xorsign.abs}.
template <class F> Handler min_max(bool max, bool ftz, bool nan, bool xorsign) {
  using NM = nm::NanMode;
  auto pick = [&]<bool Max, bool Ftz, bool Xor>() -> Handler {
    return nan ? &binary_op<F, F, FMinMax<F, Max, Ftz, NM::propagate, Xor>>
               : &binary_op<F, F, FMinMax<F, Max, Ftz, NM::ignore, Xor>>;
  };
  auto by_ftz = [&]<bool Max, bool Xor>() -> Handler {
    return ftz ? pick.template operator()<Max, true, Xor>()
               : pick.template operator()<Max, false, Xor>();
  };
  if (xorsign)
    return max ? by_ftz.template operator()<true, true>()
               : by_ftz.template operator()<false, true>();
  return max ? by_ftz.template operator()<true, false>()
             : by_ftz.template operator()<false, false>();
}

} // namespace

bool select_float(const ptx::Instruction& in, Modifiers& m, OperandDecoder& od, Inst& out) {
  static const char* const kFamily[] = {"add",  "sub",   "mul", "mad", "fma",     "div", "rcp",
                                        "sqrt", "rsqrt", "sin", "cos", "lg2",     "ex2", "tanh",
                                        "abs",  "neg",   "min", "max", "copysign"};
  const std::string& op = in.opcode;
  bool mine = false;
  for (const char* f : kFamily)
    mine = mine || op == f;
  if (!mine)
    return false;
  const OperandList ops(in);

  auto rtext = m.take_any({"rn", "rz", "rm", "rp"});
  bool approx = m.take("approx");
  bool full = m.take("full");
  bool ftz = m.take("ftz");
  bool sat = m.take("sat");
  bool nan = m.take("NaN");
  bool xorsign = m.take("xorsign");
  bool abs_mod = m.take("abs");
  auto types = m.take_types();
  if (types.size() != 1 || !is_float(types[0]))
    throw_unsupported(in);
  Type t = types[0];
  nm::Round r = rtext == "rz"   ? nm::Round::rz
                : rtext == "rm" ? nm::Round::rm
                : rtext == "rp" ? nm::Round::rp
                                : nm::Round::rn;
  // PTX requires a rounding mode on f64 div/rcp/sqrt/fma and f32 fma/div (non-approx); mad.f32
  // without rounding is the legacy unfused form on sm_1x only, fused on later targets.
  bool unary = op == "rcp" || op == "sqrt" || op == "rsqrt" || op == "sin" || op == "cos" ||
               op == "lg2" || op == "ex2" || op == "tanh" || op == "abs" || op == "neg";
  bool ternary = op == "fma" || op == "mad";
  std::size_t expected = unary ? 2 : ternary ? 4 : 3;
  if (ops.size() != expected)
    throw_unsupported(in, "operand count");
  out.d = od.dst(ops[0]);
  out.a = od.src(ops[1], t);
  if (!unary)
    out.b = od.src(ops[2], t);
  if (ternary)
    out.c = od.src(ops[3], t);

  if ((xorsign || abs_mod) && (!xorsign || !abs_mod || (op != "min" && op != "max")))
    throw_unsupported(in); // .xorsign needs .abs, and both exist on min/max only
  if (nan && op != "min" && op != "max")
    throw_unsupported(in);

  if (t == Type::f16 || t == Type::bf16) {
    const bool bf = t == Type::bf16;
    // ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.{f16,bf16}: the unit's 16-bit forms.
    if (approx && (op == "ex2" || op == "tanh") && !sat && !nan && rtext.empty() &&
        ftz == (op == "ex2" && bf)) {
      out.fn = op == "ex2" ? (bf ? &unary_op<std::uint16_t, std::uint16_t, Sfu16<sfu::ex2_bf16>>
                                 : &unary_op<std::uint16_t, std::uint16_t, Sfu16<sfu::ex2_f16>>)
                           : (bf ? &unary_op<std::uint16_t, std::uint16_t, Sfu16<sfu::tanh_bf16>>
                                 : &unary_op<std::uint16_t, std::uint16_t, Sfu16<sfu::tanh_f16>>);
      return true;
    }
    // f16 takes .ftz (subnormal inputs and results flushed) and .sat; bf16 neither.
    if (approx || full || (bf && (ftz || sat)))
      throw_unsupported(in);
    const bool plain = !sat && rtext.empty();
    auto pick = [&]<class H>() -> Handler {
      if (op == "add")
        return by_mode<FAdd, H, 2>(r, ftz, sat);
      if (op == "sub")
        return by_mode<FSub, H, 2>(r, ftz, sat);
      if (op == "mul")
        return by_mode<FMul, H, 2>(r, ftz, sat);
      if (op == "fma" && r == nm::Round::rn)
        return by_mode<FFma, H, 3>(r, ftz, sat);
      if ((op == "min" || op == "max") && plain)
        return min_max<H>(op == "max", ftz, nan, xorsign);
      if (op == "neg" && plain)
        return ftz ? &unary_op<H, H, HSign<H, true, false>>
                   : &unary_op<H, H, HSign<H, false, false>>;
      if (op == "abs" && plain)
        return ftz ? &unary_op<H, H, HSign<H, true, true>> : &unary_op<H, H, HSign<H, false, true>>;
      return nullptr;
    };
    out.fn = bf ? pick.template operator()<BFloat16>() : pick.template operator()<Half>();
    if (!out.fn)
      throw_unsupported(in);
    return true;
  }
  if (t != Type::f32 && t != Type::f64)
    throw_unsupported(in);
  bool f64 = t == Type::f64;

  // f64 ignores .ftz (PTX never flushes doubles), which also halves the instantiations; only
  // rcp.approx.ftz.f64, which exists in no other form, needs to know it was given.
  const bool ftz_given = ftz;
  if (f64)
    ftz = false;
  auto modal2 = [&]<template <class, nm::FpMode> class Op>() -> Handler {
    return f64 ? by_mode<Op, double, 2>(r, false, sat) : by_mode<Op, float, 2>(r, ftz, sat);
  };
  if (full && op != "div")
    throw_unsupported(in);
  if (op == "add" && !approx)
    out.fn = modal2.template operator()<FAdd>();
  else if (op == "sub" && !approx)
    out.fn = modal2.template operator()<FSub>();
  else if (op == "mul" && !approx)
    out.fn = modal2.template operator()<FMul>();
  else if ((op == "fma" || op == "mad") && !approx)
    out.fn = f64                     ? by_mode<FFma, double, 3>(r, false, sat)
             : r != nm::Round::rn    ? by_mode<FFma, float, 3>(r, ftz, sat)
             : fma3_rn_f32(ftz, sat) ? fma3_rn_f32(ftz, sat)
                                     : by_mode<FFma, float, 3>(r, ftz, sat);
  else if (op == "div") {
    if (approx || full) {
      if (f64 || sat)
        throw_unsupported(in);
      out.fn = approx ? (ftz ? &binary_op<float, float, DivApprox<true>>
                             : &binary_op<float, float, DivApprox<false>>)
                      : (ftz ? &binary_op<float, float, DivFull<true>>
                             : &binary_op<float, float, DivFull<false>>);
    } else {
      out.fn = modal2.template operator()<FDiv>();
    }
  } else if (op == "sqrt") {
    if (approx) {
      if (f64 || sat)
        throw_unsupported(in);
      out.fn = ftz ? &unary_op<float, float, SqrtApprox<true>>
                   : &unary_op<float, float, SqrtApprox<false>>;
    } else {
      out.fn =
          f64 ? by_mode<FSqrt, double, 1>(r, false, sat) : by_mode<FSqrt, float, 1>(r, ftz, sat);
    }
  } else if (op == "rcp") {
    if (approx) {
      if (sat)
        throw_unsupported(in);
      if (f64) {
        if (!ftz_given)
          throw_unsupported(in);
        out.fn = &unary_op<double, double, RcpApproxF64>;
      } else {
        out.fn = ftz ? &unary_op<float, float, RcpApprox<true>>
                     : &unary_op<float, float, RcpApprox<false>>;
      }
    } else {
      out.fn = f64 ? by_mode<FRcp, double, 1>(r, false, sat) : by_mode<FRcp, float, 1>(r, ftz, sat);
    }
  } else if (op == "rsqrt") {
    if (!approx || sat)
      throw_unsupported(in);
    if (f64)
      out.fn = ftz_given ? &unary_op<double, double, RsqrtApproxFtzF64>
                         : &unary_op<double, double, RsqrtApproxF64>;
    else
      out.fn = ftz ? &unary_op<float, float, RsqrtApprox<true>>
                   : &unary_op<float, float, RsqrtApprox<false>>;
  } else if (op == "sin" || op == "cos" || op == "lg2" || op == "ex2" || op == "tanh") {
    if (!approx || f64 || sat)
      throw_unsupported(in);
    if (op == "sin")
      out.fn = ftz ? &unary_op<float, float, Sin<true>> : &unary_op<float, float, Sin<false>>;
    if (op == "cos")
      out.fn = ftz ? &unary_op<float, float, Cos<true>> : &unary_op<float, float, Cos<false>>;
    if (op == "lg2")
      out.fn = ftz ? &unary_op<float, float, Lg2<true>> : &unary_op<float, float, Lg2<false>>;
    if (op == "ex2")
      out.fn = ftz ? &unary_op<float, float, Ex2<true>> : &unary_op<float, float, Ex2<false>>;
    if (op == "tanh")
      out.fn = &unary_op<float, float, Tanh>;
  } else if (op == "abs" || op == "neg") {
    if (sat || !rtext.empty())
      throw_unsupported(in);
    bool abs = op == "abs";
    if (f64)
      out.fn = abs ? &unary_op<double, double, FAbs<double, false>>
                   : &unary_op<double, double, FNeg<double, false>>;
    else if (ftz)
      out.fn = abs ? &unary_op<float, float, FAbs<float, true>>
                   : &unary_op<float, float, FNeg<float, true>>;
    else
      out.fn = abs ? &unary_op<float, float, FAbs<float, false>>
                   : &unary_op<float, float, FNeg<float, false>>;
  } else if (op == "min" || op == "max") {
    if (sat || !rtext.empty() || (f64 && xorsign))
      throw_unsupported(in);
    const bool max = op == "max";
    out.fn = f64 ? min_max<double>(max, false, nan, false) : min_max<float>(max, ftz, nan, xorsign);
  } else if (op == "copysign") {
    if (sat || ftz || !rtext.empty())
      throw_unsupported(in);
    out.fn = f64 ? &binary_op<double, double, FCopysign<double>>
                 : &binary_op<float, float, FCopysign<float>>;
  }
  if (!out.fn)
    throw_unsupported(in);
  return true;
}

} // namespace gpurun::emu
