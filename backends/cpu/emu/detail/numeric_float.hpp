#pragma once
// Floating-point arithmetic, min/max, sign operations, testp and the .approx forms declared in
// numeric.hpp. Round-to-nearest f32/f64 uses the host's IEEE operations (the hot path); other
// modes and f16/bf16 use double arithmetic rounded to odd (f32/f16/bf16 results) or the exact
// integer paths (f64 results) in numeric_round.hpp.

#include <cmath>
#include <initializer_list>
#include <type_traits>

#include "backends/cpu/emu/detail/numeric_round.hpp"
#include "backends/cpu/emu/sfu.hpp"

namespace gpurun::emu::numeric {

namespace detail {

template <class F> inline constexpr bool is_host_float = std::is_floating_point_v<F>;

/// .ftz applies to f32 (and the f16/bf16 forms that accept it); f64 keeps subnormals.
template <class F> [[nodiscard, gnu::always_inline]] inline F ftz_in(F a, bool ftz) noexcept {
  if constexpr (std::is_same_v<F, double>) {
    return a;
  } else {
    return ftz ? flush(a) : a;
  }
}

/// The common tail of an arithmetic result: canonical NaN, output flush, saturation.
template <class F> [[nodiscard, gnu::always_inline]] inline F finish(F r, FpMode m) noexcept {
  if (is_nan(r)) {
    return m.sat ? from_bits<F>(0) : canonical_nan<F>();
  }
  r = ftz_in(r, m.ftz);
  return m.sat ? saturate(r) : r;
}

/// An f64 result that is NaN, as the GPU makes it (measured on an H200 by
/// tools/approx/nan_payloads.cu): a NaN operand passes through, quieted — the first NaN of
/// `order` — and the canonical NaN is made only when no operand is one. f32 and 16-bit results
/// are always canonical.
template <class F>
[[nodiscard, gnu::always_inline]] inline F finish_passing(F r, FpMode m,
                                                          std::initializer_list<F> order) noexcept {
  if constexpr (std::is_same_v<F, double>) {
    if (is_nan(r)) {
      for (const F x : order) {
        if (is_nan(x)) {
          return from_bits<F>(to_bits(x) | 0x0008000000000000ull);
        }
      }
    }
  }
  return finish(r, m);
}

} // namespace detail

// ---------------------------------------------------------------------------------------------
// Bit-level helpers

inline float flush_subnormal(float f) noexcept {
  return detail::flush(f);
}

// .sat clamps to [+0.0, 1.0]: NaN and every negative value, -0 included, become +0 (measured on an
// H100 for f32, tests/data/conformance/nan_payloads.cu, and for f16, minmax_ftz.cu).
inline float saturate(float f) noexcept {
  if (std::isnan(f) || f <= 0.0f) {
    return 0.0f;
  }
  return f > 1.0f ? 1.0f : f;
}

inline double saturate(double d) noexcept {
  if (std::isnan(d) || d <= 0.0) {
    return 0.0;
  }
  return d > 1.0 ? 1.0 : d;
}

inline Half saturate(Half h) noexcept {
  if (detail::is_nan(h)) {
    return Half{0};
  }
  const double d = detail::to_double(h);
  return d <= 0.0 ? Half{0} : (d > 1.0 ? Half{0x3c00} : h);
}

inline BFloat16 saturate(BFloat16 h) noexcept {
  if (detail::is_nan(h)) {
    return BFloat16{0};
  }
  const double d = detail::to_double(h);
  return d <= 0.0 ? BFloat16{0} : (d > 1.0 ? BFloat16{0x3f80} : h);
}

// ---------------------------------------------------------------------------------------------
// Conversions between float formats

inline float f16_to_f32(Half h) noexcept {
  return detail::is_nan(h) ? f32_from_bits(canonical_nan_f32)
                           : static_cast<float>(detail::to_double(h));
}
inline double f16_to_f64(Half h) noexcept {
  return detail::is_nan(h) ? f64_from_bits(canonical_nan_f64) : detail::to_double(h);
}
inline float bf16_to_f32(BFloat16 h) noexcept {
  return detail::is_nan(h) ? f32_from_bits(canonical_nan_f32)
                           : static_cast<float>(detail::to_double(h));
}
inline double bf16_to_f64(BFloat16 h) noexcept {
  return detail::is_nan(h) ? f64_from_bits(canonical_nan_f64) : detail::to_double(h);
}
inline Half f32_to_f16(float f, Round r) noexcept {
  return detail::narrow<Half>(f, r);
}
inline Half f64_to_f16(double d, Round r) noexcept {
  return detail::narrow<Half>(d, r);
}
inline BFloat16 f32_to_bf16(float f, Round r) noexcept {
  return detail::narrow<BFloat16>(f, r);
}
inline BFloat16 f64_to_bf16(double d, Round r) noexcept {
  return detail::narrow<BFloat16>(d, r);
}
inline float f64_to_f32(double d, Round r) noexcept {
  return detail::narrow<float>(d, r);
}

namespace detail {
/// Round to an integral value without touching the host rounding mode.
[[nodiscard]] inline double round_integral_f64(double d, Round r) noexcept {
  if (!std::isfinite(d) || std::fabs(d) >= 4503599627370496.0) { // 2^52: already integral
    return d;
  }
  switch (r) {
  case Round::rz:
    return std::trunc(d);
  case Round::rm:
    return std::floor(d);
  case Round::rp:
    return std::ceil(d);
  case Round::rna:
    return std::round(d);
  case Round::rn:
    break;
  }
  const double t = std::trunc(d);
  const double frac = std::fabs(d - t); // exact for |d| < 2^52
  double r_mag = std::fabs(t);
  if (frac > 0.5 || (frac == 0.5 && std::fmod(r_mag, 2.0) != 0.0)) {
    r_mag += 1.0;
  }
  return std::copysign(r_mag, d); // keeps -0 for small negative inputs
}
} // namespace detail

inline float round_integral(float f, Round r) noexcept {
  if (std::isnan(f)) {
    return f32_from_bits(canonical_nan_f32);
  }
  return static_cast<float>(detail::round_integral_f64(f, r));
}

inline double round_integral(double d, Round r) noexcept {
  if (std::isnan(d)) {
    return f64_from_bits(canonical_nan_f64);
  }
  return detail::round_integral_f64(d, r);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

template <class F> [[gnu::always_inline]] inline F add(F a, F b, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  b = detail::ftz_in(b, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(a + b, m, {b, a});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    return detail::finish_passing(detail::soft_fma<F>(a, 1.0, b, m.round), m, {b, a});
  } else {
    return detail::finish_passing(
        detail::narrow_add<F>(detail::to_double(a), detail::to_double(b), m.round), m, {b, a});
  }
}

template <class F> [[gnu::always_inline]] inline F sub(F a, F b, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  b = detail::ftz_in(b, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(a - b, m, {b, a});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    return detail::finish_passing(detail::soft_fma<F>(a, 1.0, -b, m.round), m, {b, a});
  } else {
    return detail::finish_passing(
        detail::narrow_add<F>(detail::to_double(a), -detail::to_double(b), m.round), m, {b, a});
  }
}

template <class F> [[gnu::always_inline]] inline F mul(F a, F b, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  b = detail::ftz_in(b, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(a * b, m, {b, a});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) {
      return detail::finish_passing(a * b, m, {b, a}); // exact specials
    }
    return detail::finish_passing(detail::soft_fma<F>(a, b, 0.0, m.round), m, {b, a});
  } else {
    return detail::finish_passing(
        detail::narrow_mul<F>(detail::to_double(a), detail::to_double(b), m.round), m, {b, a});
  }
}

template <class F> [[gnu::always_inline]] inline F fma(F a, F b, F c, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  b = detail::ftz_in(b, m.ftz);
  c = detail::ftz_in(c, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(std::fma(a, b, c), m, {b, a, c});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    return detail::finish_passing(detail::soft_fma<F>(a, b, c, m.round), m, {b, a, c});
  } else {
    return detail::finish(detail::narrow_fma<F>(detail::to_double(a), detail::to_double(b),
                                                detail::to_double(c), m.round),
                          m);
  }
}

template <class F> inline F div(F a, F b, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  b = detail::ftz_in(b, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(a / b, m, {a, b});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    return detail::finish_passing(detail::soft_div<F>(a, b, m.round), m, {a, b});
  } else {
    return detail::finish_passing(
        detail::narrow_div<F>(detail::to_double(a), detail::to_double(b), m.round), m, {a, b});
  }
}

template <class F> inline F sqrt(F a, FpMode m) noexcept {
  a = detail::ftz_in(a, m.ftz);
  if constexpr (detail::is_host_float<F>) {
    if (m.round == Round::rn) {
      return detail::finish_passing<F>(std::sqrt(a), m, {a});
    }
  }
  if constexpr (std::is_same_v<F, double>) {
    return detail::finish_passing(detail::soft_sqrt<F>(a, m.round), m, {a});
  } else {
    return detail::finish_passing(detail::narrow_sqrt<F>(detail::to_double(a), m.round), m, {a});
  }
}

template <class F> inline F rcp(F a, FpMode m) noexcept {
  return div(detail::narrow<F>(1.0, Round::rn), a, m);
}

// ---------------------------------------------------------------------------------------------
// min / max / sign operations / classification

namespace detail {
template <class F> [[nodiscard]] inline F min_max(F a, F b, bool ftz, NanMode n, bool want_max) {
  a = ftz_in(a, ftz);
  b = ftz_in(b, ftz);
  const bool an = is_nan(a);
  const bool bn = is_nan(b);
  if (an || bn) {
    if constexpr (std::is_same_v<F, double>) {
      if (an && bn) { // the second, quieted (measured; f32 and halves make the canonical NaN)
        return from_bits<F>(to_bits(b) | 0x0008000000000000ull);
      }
    }
    if (n == NanMode::propagate || (an && bn)) {
      return canonical_nan<F>();
    }
    return an ? b : a;
  }
  const double da = to_double(a);
  const double db = to_double(b);
  if (da == db) { // equal values, possibly ±0: -0 is the smaller one
    const bool a_neg = (to_bits(a) & sign_bit<F>()) != 0;
    return (a_neg != want_max) ? a : b;
  }
  return ((da < db) != want_max) ? a : b;
}
} // namespace detail

template <class F> inline F fmin(F a, F b, bool ftz, NanMode n) noexcept {
  return detail::min_max(a, b, ftz, n, false);
}

template <class F> inline F fmax(F a, F b, bool ftz, NanMode n) noexcept {
  return detail::min_max(a, b, ftz, n, true);
}

template <class F> inline F minmax_xorsign_abs(F a, F b, bool max, bool ftz, NanMode n) noexcept {
  using Bits = typename detail::Format<F>::Bits;
  const Bits sign = (detail::to_bits(a) ^ detail::to_bits(b)) & detail::sign_bit<F>();
  const F r = detail::min_max(fabs(a, ftz), fabs(b, ftz), ftz, n, max);
  if (detail::is_nan(r)) {
    return r;
  }
  return detail::from_bits<F>(static_cast<Bits>(detail::to_bits(r) | sign));
}

template <class F> inline F fabs(F a, bool ftz) noexcept {
  a = detail::ftz_in(a, ftz);
  if constexpr (std::is_same_v<F, float>) {
    if (detail::is_nan(a)) { // abs.f32 and neg.f32 make the canonical NaN (measured)
      return detail::canonical_nan<F>();
    }
  }
  using Bits = typename detail::Format<F>::Bits;
  return detail::from_bits<F>(static_cast<Bits>(detail::to_bits(a) & ~detail::sign_bit<F>()));
}

template <class F> inline F fneg(F a, bool ftz) noexcept {
  a = detail::ftz_in(a, ftz);
  if constexpr (std::is_same_v<F, float>) {
    if (detail::is_nan(a)) {
      return detail::canonical_nan<F>();
    }
  }
  using Bits = typename detail::Format<F>::Bits;
  return detail::from_bits<F>(static_cast<Bits>(detail::to_bits(a) ^ detail::sign_bit<F>()));
}

template <class F> inline F copysign(F sign_source, F magnitude) noexcept {
  using Bits = typename detail::Format<F>::Bits;
  const Bits s = detail::to_bits(sign_source) & detail::sign_bit<F>();
  return detail::from_bits<F>(
      static_cast<Bits>((detail::to_bits(magnitude) & ~detail::sign_bit<F>()) | s));
}

template <class F> inline bool testp(FpClass c, F a) noexcept {
  const bool nan = detail::is_nan(a);
  const bool inf = detail::biased_exponent(a) == detail::exp_mask<F> && !nan;
  switch (c) {
  case FpClass::finite:
    return !nan && !inf;
  case FpClass::infinite:
    return inf;
  case FpClass::number:
    return !nan;
  case FpClass::notanumber:
    return nan;
  case FpClass::normal: // PTX counts ±0 as normal
    return !nan && !inf && !detail::is_subnormal(a);
  case FpClass::subnormal:
    return detail::is_subnormal(a);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// .approx / .full: what ptxas makes of them on sm_90 — one operation of the special-function unit
// (sfu.hpp, bit for bit with the GPU) between exact scalings that keep subnormal arguments and
// results out of its flushing range.

namespace detail {
[[nodiscard]] inline float mufu(std::uint32_t (*op)(std::uint32_t) noexcept, float a) noexcept {
  return f32_from_bits(op(bits_of(a)));
}
/// The FMUL ptxas puts around a unit operation: mul.rn.f32, .ftz where given.
[[nodiscard]] inline float fmul_rn(float a, float b, bool ftz) noexcept {
  return mul(a, b, FpMode{Round::rn, ftz, false});
}

/// ptxas's guard for arguments below the normal range: FSETP.GEU |a|, FLT_MIN, false only for
/// subnormals and zeros.
[[nodiscard]] inline bool below_normal(float a) noexcept {
  return std::fabs(a) < 0x1p-126f;
}
} // namespace detail

inline float rcp_approx(float a, bool ftz) noexcept {
  if (ftz) {
    return detail::mufu(sfu::rcp, a);
  }
  // Scale subnormal arguments up by 2^24 and huge ones down by 4, and the result the same way.
  const float s = std::fabs(a) > 0x1p126f ? 0.25f : detail::below_normal(a) ? 0x1p24f : 1.0f;
  return detail::fmul_rn(s, detail::mufu(sfu::rcp, detail::fmul_rn(a, s, false)), false);
}
inline double rcp_approx_ftz_f64(double a) noexcept {
  // MUFU.RCP64H on the high word; the low word of the result is zero.
  const auto hi = static_cast<std::uint32_t>(bits_of(a) >> 32);
  return f64_from_bits(static_cast<std::uint64_t>(sfu::rcp64h(hi)) << 32);
}
inline float sqrt_approx(float a, bool ftz) noexcept {
  if (ftz) {
    return detail::mufu(sfu::sqrt, a);
  }
  const bool small = detail::below_normal(a);
  const float r = detail::mufu(sfu::sqrt, small ? detail::fmul_rn(a, 0x1p24f, false) : a);
  return small ? detail::fmul_rn(r, 0x1p-12f, false) : r;
}
inline float rsqrt_approx(float a, bool ftz) noexcept {
  if (ftz) {
    return detail::mufu(sfu::rsq, a);
  }
  const bool small = detail::below_normal(a);
  const float r = detail::mufu(sfu::rsq, small ? detail::fmul_rn(a, 0x1p24f, false) : a);
  return small ? detail::fmul_rn(r, 0x1p12f, false) : r;
}
inline double rsqrt_approx_ftz_f64(double a) noexcept {
  const auto hi = static_cast<std::uint32_t>(bits_of(a) >> 32);
  return f64_from_bits(static_cast<std::uint64_t>(sfu::rsq64h(hi)) << 32);
}
inline double rsqrt_approx(double a) noexcept {
  // MUFU.RSQ64H, then one Newton step: y + y*e*(0.375*e + 0.5) with e = 1 - a*y*y. Arguments
  // outside the positive normal range take ptxas's slow path.
  const std::uint64_t bits = bits_of(a);
  const auto hi = static_cast<std::uint32_t>(bits >> 32);
  auto refine = [](double x) {
    const double y = f64_from_bits(
        static_cast<std::uint64_t>(sfu::rsq64h(static_cast<std::uint32_t>(bits_of(x) >> 32)))
        << 32);
    const double e = std::fma(-(y * y), x, 1.0);
    const double c = std::fma(e, 0.375, 0.5);
    return std::fma(c, y * e, y);
  };
  if (hi - 0x00100000u < 0x7fe00000u) {
    return refine(a);
  }
  if (a == 0.0) {
    return f64_from_bits((bits & 0x8000000000000000ull) | 0x7ff0000000000000ull);
  }
  if (std::isnan(a)) {
    return f64_from_bits(bits | 0x0008000000000000ull); // a + a: the payload, quieted
  }
  if (bits >> 63) {
    return f64_from_bits(0xfff8000000000000ull);
  }
  if (std::isinf(a)) {
    return 0.0;
  }
  return refine(a * 0x1p54) * 0x1p27; // subnormal
}
inline float ex2_approx(float a, bool ftz) noexcept {
  if (ftz) {
    return detail::mufu(sfu::ex2, a);
  }
  // Below -126 the result is subnormal: 2^(a/2), squared.
  const bool small = a < -126.0f;
  const float r = detail::mufu(sfu::ex2, small ? detail::fmul_rn(a, 0.5f, false) : a);
  return small ? detail::fmul_rn(r, r, false) : r;
}
inline float lg2_approx(float a, bool ftz) noexcept {
  if (ftz) {
    return detail::mufu(sfu::lg2, a);
  }
  // A subnormal argument is scaled up by 2^24 and 24 taken off the result.
  const bool small = detail::below_normal(a);
  const float r = detail::mufu(sfu::lg2, small ? detail::fmul_rn(a, 0x1p24f, false) : a);
  return small ? add(r, -24.0f, FpMode{Round::rn, false, false}) : r;
}
// ptxas: FMUL.RZ by 1/2π rounded to f32, then MUFU.SIN / MUFU.COS of the revolutions.
inline float sin_approx(float a, bool ftz) noexcept {
  return detail::mufu(sfu::sin, mul(a, 0x1.45f306p-3f, FpMode{Round::rz, ftz, false}));
}
inline float cos_approx(float a, bool ftz) noexcept {
  return detail::mufu(sfu::cos, mul(a, 0x1.45f306p-3f, FpMode{Round::rz, ftz, false}));
}
inline float tanh_approx(float a) noexcept {
  return detail::mufu(sfu::tanh, a);
}
inline float div_approx(float a, float b, bool ftz) noexcept {
  if (ftz) {
    return detail::fmul_rn(detail::mufu(sfu::rcp, b), a, true);
  }
  // A subnormal divisor: both scaled up by 2^24. A huge one (> 2^126) is not guarded: its
  // reciprocal flushes to zero.
  const bool small = detail::below_normal(b);
  if (small) {
    a = detail::fmul_rn(a, 0x1p24f, false);
    b = detail::fmul_rn(b, 0x1p24f, false);
  }
  return detail::fmul_rn(detail::mufu(sfu::rcp, b), a, false);
}
inline float div_full(float a, float b, bool ftz) noexcept {
  // div.approx with huge divisors guarded too: both scaled down by 4.
  if (std::fabs(b) > 0x1p126f) {
    a = detail::fmul_rn(a, 0.25f, ftz);
    b = detail::fmul_rn(b, 0.25f, ftz);
  }
  if (!ftz && detail::below_normal(b)) {
    a = detail::fmul_rn(a, 0x1p24f, false);
    b = detail::fmul_rn(b, 0x1p24f, false);
  }
  return detail::fmul_rn(detail::mufu(sfu::rcp, b), a, ftz);
}

} // namespace gpurun::emu::numeric
