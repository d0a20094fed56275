#pragma once
// Exact rounding machinery behind numeric.hpp: format traits, rounding of an exact value given as
// an integer significand, exponent and sticky bit into any IEEE format in any rounding mode, and
// exact ("soft") fma/div/sqrt on integer significands. The directed-rounding and f16/bf16 paths
// go through here so that no result depends on the host's rounding mode or on double rounding.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

namespace gpurun::emu::numeric::detail {

using u128 = unsigned __int128;

/// Layout of each floating-point format: significand bits (without the hidden one), exponent bits.
template <class F> struct Format;
template <> struct Format<float> {
  using Bits = std::uint32_t;
  static constexpr int mant_bits = 23;
  static constexpr int exp_bits = 8;
  static constexpr Bits canonical_nan = 0x7fffffffu;
};
template <> struct Format<double> {
  using Bits = std::uint64_t;
  static constexpr int mant_bits = 52;
  static constexpr int exp_bits = 11;
  static constexpr Bits canonical_nan = 0x7fffffffffffffffull;
};
template <> struct Format<Half> {
  using Bits = std::uint16_t;
  static constexpr int mant_bits = 10;
  static constexpr int exp_bits = 5;
  static constexpr Bits canonical_nan = 0x7fffu;
};
template <> struct Format<BFloat16> {
  using Bits = std::uint16_t;
  static constexpr int mant_bits = 7;
  static constexpr int exp_bits = 8;
  static constexpr Bits canonical_nan = 0x7fffu;
};

template <class F> [[nodiscard]] constexpr typename Format<F>::Bits to_bits(F f) noexcept {
  if constexpr (std::is_same_v<F, Half> || std::is_same_v<F, BFloat16>) {
    return f.bits;
  } else {
    return std::bit_cast<typename Format<F>::Bits>(f);
  }
}

template <class F> [[nodiscard]] constexpr F from_bits(typename Format<F>::Bits b) noexcept {
  if constexpr (std::is_same_v<F, Half> || std::is_same_v<F, BFloat16>) {
    return F{b};
  } else {
    return std::bit_cast<F>(b);
  }
}

template <class F> inline constexpr int exp_mask = (1 << Format<F>::exp_bits) - 1;
template <class F> inline constexpr int bias = (1 << (Format<F>::exp_bits - 1)) - 1;

template <class F> [[nodiscard]] constexpr typename Format<F>::Bits sign_bit() noexcept {
  using Bits = typename Format<F>::Bits;
  return static_cast<Bits>(Bits{1} << (Format<F>::mant_bits + Format<F>::exp_bits));
}

template <class F> [[nodiscard]] constexpr typename Format<F>::Bits mant_mask() noexcept {
  using Bits = typename Format<F>::Bits;
  return static_cast<Bits>((Bits{1} << Format<F>::mant_bits) - 1);
}

template <class F> [[nodiscard]] constexpr int biased_exponent(F f) noexcept {
  return static_cast<int>((to_bits(f) >> Format<F>::mant_bits) & exp_mask<F>);
}

template <class F> [[nodiscard]] constexpr bool is_nan(F f) noexcept {
  // Host floats compare unordered with themselves exactly when NaN (no fast-math anywhere): one
  // vector compare where the bit test takes three, in every float result's canonicalization.
  if constexpr (std::is_same_v<F, float> || std::is_same_v<F, double>)
    return f != f;
  else
    return biased_exponent(f) == exp_mask<F> && (to_bits(f) & mant_mask<F>()) != 0;
}

template <class F> [[nodiscard]] constexpr bool is_subnormal(F f) noexcept {
  return biased_exponent(f) == 0 && (to_bits(f) & mant_mask<F>()) != 0;
}

template <class F> [[nodiscard]] constexpr F canonical_nan() noexcept {
  return from_bits<F>(Format<F>::canonical_nan);
}

/// Subnormal -> zero of the same sign.
template <class F> [[nodiscard]] constexpr F flush(F f) noexcept {
  return is_subnormal(f)
             ? from_bits<F>(static_cast<typename Format<F>::Bits>(to_bits(f) & sign_bit<F>()))
             : f;
}

/// The exact value of any format as a double (every format here is a subset of binary64).
template <class F> [[nodiscard]] inline double to_double(F f) noexcept {
  if constexpr (std::is_same_v<F, double>) {
    return f;
  } else if constexpr (std::is_same_v<F, float>) {
    return static_cast<double>(f);
  } else if constexpr (std::is_same_v<F, BFloat16>) {
    return static_cast<double>(std::bit_cast<float>(std::uint32_t{f.bits} << 16));
  } else {
    const std::uint32_t sign = (f.bits >> 15) & 1u;
    const int e = (f.bits >> 10) & 0x1f;
    const std::uint32_t m = f.bits & 0x3ffu;
    double mag = 0;
    if (e == 0x1f) {
      mag = m != 0 ? std::numeric_limits<double>::quiet_NaN()
                   : std::numeric_limits<double>::infinity();
    } else if (e == 0) {
      mag = std::ldexp(static_cast<double>(m), -24);
    } else {
      mag = std::ldexp(static_cast<double>(m | 0x400u), e - 25);
    }
    return sign != 0 ? -mag : mag;
  }
}

/// A finite nonzero double as significand * 2^exponent (significand < 2^53).
struct Decomposed {
  bool negative;
  std::uint64_t mant;
  int exp;
};

[[nodiscard]] inline Decomposed decompose(double d) noexcept {
  const std::uint64_t b = std::bit_cast<std::uint64_t>(d);
  const int e = static_cast<int>((b >> 52) & 0x7ff);
  const std::uint64_t m = b & ((std::uint64_t{1} << 52) - 1);
  if (e == 0) {
    return {(b >> 63) != 0, m, -1074};
  }
  return {(b >> 63) != 0, m | (std::uint64_t{1} << 52), e - 1075};
}

template <class U> [[nodiscard]] constexpr int msb_index(U v) noexcept {
  if constexpr (std::is_same_v<U, u128>) {
    const auto hi = static_cast<std::uint64_t>(v >> 64);
    return hi != 0 ? 64 + 63 - std::countl_zero(hi)
                   : 63 - std::countl_zero(static_cast<std::uint64_t>(v));
  } else {
    return 63 - std::countl_zero(static_cast<std::uint64_t>(v));
  }
}

/// Rounds (-1)^negative * (mant + sticky·ε) * 2^exp to F in mode r, where sticky says that
/// nonzero bits were lost below mant's last bit. Handles subnormal results, overflow (to inf or
/// the largest finite value as the mode demands) and underflow to signed zero.
template <class F>
[[nodiscard]] inline F round_pack(bool negative, std::uint64_t mant, int exp, bool sticky,
                                  Round r) noexcept {
  using Bits = typename Format<F>::Bits;
  constexpr int mb = Format<F>::mant_bits;
  constexpr int emin = 1 - bias<F>;
  constexpr int emax = bias<F>;
  const Bits sign = negative ? sign_bit<F>() : Bits{0};
  if (mant == 0) {
    // Only a sticky remainder below the smallest subnormal: round it like a tiny value.
    mant = sticky ? 1 : 0;
    if (mant == 0) {
      return from_bits<F>(sign);
    }
    exp = -100000;
    sticky = false;
  }
  const int shift = std::countl_zero(mant);
  mant <<= shift;
  exp -= shift;
  const int e_unbiased = exp + 63; // value in [2^e, 2^(e+1))
  const int e_kept = e_unbiased < emin ? emin : e_unbiased;
  const int lsb_exp = e_kept - mb;
  const long drop = static_cast<long>(lsb_exp) - exp; // bits of mant below the result's lsb
  std::uint64_t q = 0;
  bool round_bit = false;
  bool rest = sticky;
  if (drop <= 0) {
    q = mant << -drop; // cannot happen for mb < 63, kept for completeness
  } else if (drop <= 64) {
    q = drop == 64 ? 0 : mant >> drop;
    round_bit = ((mant >> (drop - 1)) & 1u) != 0;
    const std::uint64_t below = drop == 1 ? 0 : (mant << (65 - drop));
    rest = rest || below != 0;
  } else {
    rest = true;
  }
  bool up = false;
  switch (r) {
  case Round::rn:
    up = round_bit && (rest || (q & 1u) != 0);
    break;
  case Round::rna:
    up = round_bit;
    break;
  case Round::rz:
    break;
  case Round::rp:
    up = !negative && (round_bit || rest);
    break;
  case Round::rm:
    up = negative && (round_bit || rest);
    break;
  }
  q += up ? 1u : 0u;
  // q carries the hidden bit, so adding it to (biased exponent - 1) << mb also handles a carry
  // into the next binade and the subnormal -> normal step.
  const std::uint64_t magnitude =
      (static_cast<std::uint64_t>(e_kept + bias<F> - 1) << mb) * (e_unbiased >= emin ? 1u : 0u) + q;
  const std::uint64_t inf_bits = static_cast<std::uint64_t>(exp_mask<F>) << mb;
  if (e_unbiased > emax || magnitude >= inf_bits) {
    const bool to_inf = r == Round::rn || r == Round::rna || (r == Round::rp && !negative) ||
                        (r == Round::rm && negative);
    const std::uint64_t m = to_inf ? inf_bits : inf_bits - 1;
    return from_bits<F>(static_cast<Bits>(sign | static_cast<Bits>(m)));
  }
  return from_bits<F>(static_cast<Bits>(sign | static_cast<Bits>(magnitude)));
}

/// Same as round_pack with a 128-bit significand: folds the low bits into sticky first.
template <class F>
[[nodiscard]] inline F round_pack128(bool negative, u128 mant, int exp, bool sticky,
                                     Round r) noexcept {
  if ((mant >> 64) != 0) {
    const int s = msb_index(mant) - 63;
    sticky = sticky || (mant & ((u128{1} << s) - 1)) != 0;
    mant >>= s;
    exp += s;
  }
  return round_pack<F>(negative, static_cast<std::uint64_t>(mant), exp, sticky, r);
}

/// A double rounded to F in mode r (cvt.f32.f64, cvt.f16.f32 …); NaN becomes F's canonical NaN.
template <class F> [[nodiscard]] inline F narrow(double d, Round r) noexcept {
  if (std::isnan(d)) {
    return canonical_nan<F>();
  }
  if constexpr (std::is_same_v<F, double>) {
    return d;
  } else if constexpr (std::is_same_v<F, float>) {
    if (r == Round::rn) {
      return static_cast<float>(d); // the host converts in round-to-nearest (default FP env)
    }
  }
  if constexpr (!std::is_same_v<F, double>) {
    using Bits = typename Format<F>::Bits;
    if (std::isinf(d)) {
      const Bits inf = static_cast<Bits>(static_cast<Bits>(exp_mask<F>) << Format<F>::mant_bits);
      return from_bits<F>(static_cast<Bits>((std::signbit(d) ? sign_bit<F>() : Bits{0}) | inf));
    }
    if (d == 0) {
      return from_bits<F>(std::signbit(d) ? sign_bit<F>() : Bits{0});
    }
    const Decomposed x = decompose(d);
    return round_pack<F>(x.negative, x.mant, x.exp, false, r);
  }
}

/// a * b + c rounded once to F. The inputs are exact F values widened to double.
template <class F> [[nodiscard]] inline F soft_fma(double a, double b, double c, Round r) noexcept {
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c) || a == 0 || b == 0) {
    // NaN, infinity or a zero product: the IEEE result is exact (or NaN) in every mode.
    double x = std::fma(a, b, c);
    if (x == 0 && r == Round::rm && (std::signbit(a) != std::signbit(b)) != std::signbit(c)) {
      x = -0.0;
    }
    return narrow<F>(x, Round::rn);
  }
  const Decomposed da = decompose(a);
  const Decomposed db = decompose(b);
  const bool p_neg = da.negative != db.negative;
  u128 p = static_cast<u128>(da.mant) * db.mant;
  int p_exp = da.exp + db.exp;
  if (c == 0) {
    return round_pack128<F>(p_neg, p, p_exp, false, r);
  }
  const Decomposed dc = decompose(c);
  // Both significands left-aligned at bit 125: two guard bits for the sum's carry.
  const int ps = 125 - msb_index(p);
  p <<= ps;
  p_exp -= ps;
  u128 q = dc.mant;
  const int qs = 125 - msb_index(q);
  q <<= qs;
  int q_exp = dc.exp - qs;
  bool q_neg = dc.negative;
  bool big_neg = p_neg;
  if (q_exp > p_exp || (q_exp == p_exp && q > p)) {
    std::swap(p, q);
    std::swap(p_exp, q_exp);
    std::swap(big_neg, q_neg);
  }
  const int d = p_exp - q_exp;
  bool sticky = false;
  if (d >= 128) {
    sticky = true;
    q = 0;
  } else if (d > 0) {
    sticky = (q & ((u128{1} << d) - 1)) != 0;
    q >>= d;
  }
  u128 s = 0;
  if (big_neg == q_neg) {
    s = p + q;
  } else {
    // Subtracting a value with lost bits: borrow one unit and keep the rest as sticky.
    s = p - q - (sticky ? 1u : 0u);
  }
  if (s == 0 && !sticky) {
    return from_bits<F>(r == Round::rm ? sign_bit<F>() : typename Format<F>::Bits{0});
  }
  return round_pack128<F>(big_neg, s, p_exp, sticky, r);
}

/// a / b rounded once to F (inputs exact F values widened to double).
template <class F> [[nodiscard]] inline F soft_div(double a, double b, Round r) noexcept {
  if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) {
    return narrow<F>(a / b, Round::rn); // NaN, ±inf, ±0: exact
  }
  const Decomposed da = decompose(a);
  const Decomposed db = decompose(b);
  const int as = 63 - msb_index(da.mant);
  const int bs = 52 - msb_index(db.mant);
  const u128 n = static_cast<u128>(da.mant << as) << 64;
  const std::uint64_t dv = db.mant << bs;
  const u128 quotient = n / dv;
  const bool sticky = n % dv != 0;
  const int exp = (da.exp - as - 64) - (db.exp - bs);
  return round_pack128<F>(da.negative != db.negative, quotient, exp, sticky, r);
}

/// sqrt(a) rounded once to F.
template <class F> [[nodiscard]] inline F soft_sqrt(double a, Round r) noexcept {
  if (std::isnan(a) || a < 0) {
    return canonical_nan<F>();
  }
  if (a == 0 || std::isinf(a)) {
    return narrow<F>(a, Round::rn); // sqrt(±0) = ±0, sqrt(inf) = inf
  }
  const Decomposed da = decompose(a);
  int s = 124 - msb_index(da.mant);
  if (((da.exp - s) & 1) != 0) {
    ++s;
  }
  const u128 m = static_cast<u128>(da.mant) << s;
  auto root = static_cast<std::uint64_t>(std::sqrt(static_cast<long double>(m)));
  while (static_cast<u128>(root) * root > m) {
    --root;
  }
  while (static_cast<u128>(root + 1) * (root + 1) <= m) {
    ++root;
  }
  const bool sticky = static_cast<u128>(root) * root != m;
  return round_pack<F>(false, root, (da.exp - s) / 2, sticky, r);
}

// ---------------------------------------------------------------------------------------------
// Fast exact paths for f32/f16/bf16 results: the operation is done in double together with an
// error-free transformation that gives the sign of the rounding error; rounding that double to
// odd keeps the sticky information, so one more rounding to a format with at most 51 significand
// bits (f32, f16, bf16) is exact in every mode. Operands are exact F values widened to double,
// far from double's overflow and underflow thresholds.

/// The error of s = rn(x + y), exactly (TwoSum).
[[nodiscard]] inline double two_sum_error(double x, double y, double s) noexcept {
  const double yy = s - x;
  return (x - (s - yy)) + (y - yy);
}

/// s rounded to odd, given the sign of (exact - s) as `err`.
[[nodiscard]] inline double to_odd(double s, double err) noexcept {
  std::uint64_t b = std::bit_cast<std::uint64_t>(s);
  if (err == 0 || !std::isfinite(s) || (b & 1u) != 0) {
    return s;
  }
  const bool away_from_zero = (err > 0) == (s > 0);
  b = away_from_zero ? b + 1 : b - 1; // a neighbour on the exact value's side, with an odd last bit
  return std::bit_cast<double>(b);
}

/// IEEE sign of an exact zero sum x + y: -0 when rounding toward -inf unless both are +0.
[[nodiscard]] inline double zero_sum(double x, double y, Round r) noexcept {
  if (r != Round::rm) {
    return (std::signbit(x) && std::signbit(y)) ? -0.0 : 0.0;
  }
  return (std::signbit(x) || std::signbit(y) || x != 0) ? -0.0 : 0.0;
}

template <class F> [[nodiscard]] inline F narrow_add(double x, double y, Round r) noexcept {
  const double s = x + y;
  if (s == 0) {
    return narrow<F>(zero_sum(x, y, r), r);
  }
  return narrow<F>(to_odd(s, two_sum_error(x, y, s)), r);
}

template <class F> [[nodiscard]] inline F narrow_mul(double x, double y, Round r) noexcept {
  return narrow<F>(x * y, r); // 2 x 24 significant bits: exact in double
}

template <class F>
[[nodiscard]] inline F narrow_fma(double x, double y, double z, Round r) noexcept {
  const double p = x * y; // exact
  const double s = p + z;
  if (s == 0) {
    return narrow<F>(zero_sum(p, z, r), r);
  }
  return narrow<F>(to_odd(s, two_sum_error(p, z, s)), r);
}

template <class F> [[nodiscard]] inline F narrow_div(double x, double y, Round r) noexcept {
  const double q = x / y;
  if (!std::isfinite(q) || q == 0) {
    return narrow<F>(q, r); // NaN, ±inf and ±0 quotients are exact
  }
  const double residual = std::fma(-q, y, x); // x - q*y, exact
  return narrow<F>(to_odd(q, (residual > 0) == (y > 0) ? residual : -residual), r);
}

template <class F> [[nodiscard]] inline F narrow_sqrt(double x, Round r) noexcept {
  if (std::isnan(x) || x < 0) {
    return canonical_nan<F>();
  }
  const double s = std::sqrt(x);
  if (s == 0 || !std::isfinite(s)) {
    return narrow<F>(s, r);
  }
  return narrow<F>(to_odd(s, std::fma(-s, s, x)), r);
}

} // namespace gpurun::emu::numeric::detail
