#pragma once
// cvt's .relu and .satfinite on f16/bf16 results, and the FP8 formats of .e4m3x2/.e5m2x2:
// E4M3 (bias 7, no infinity, 0x7f/0xff NaN, largest 448) and E5M2 (bias 15, IEEE-like, largest
// 57344). The values of either format are exact in binary64, so a conversion rounds once.

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpurun::emu::numeric {

namespace detail {

template <class H> inline constexpr std::uint16_t largest_finite = 0;
template <> inline constexpr std::uint16_t largest_finite<Half> = 0x7bff;
template <> inline constexpr std::uint16_t largest_finite<BFloat16> = 0x7f7f;

} // namespace detail

template <class H> inline H relu(H h) noexcept {
  if (detail::is_nan(h))
    return detail::canonical_nan<H>();
  return (h.bits & 0x8000u) != 0 ? H{0} : h;
}

template <class H> inline H satfinite(H h) noexcept {
  if (detail::is_nan(h))
    return detail::canonical_nan<H>();
  if ((h.bits & 0x7fffu) > detail::largest_finite<H>) // an infinity
    return H{static_cast<std::uint16_t>((h.bits & 0x8000u) | detail::largest_finite<H>)};
  return h;
}

inline std::uint8_t to_fp8(double v, Fp8 f, bool relu) noexcept {
  const bool e4m3 = f == Fp8::e4m3;
  const int mant_bits = e4m3 ? 3 : 2;
  const int bias = e4m3 ? 7 : 15;
  const unsigned largest = e4m3 ? 0x7eu : 0x7bu;
  if (std::isnan(v))
    return 0x7f;
  const bool negative = std::signbit(v);
  if (relu && negative)
    return 0;
  const unsigned sign = negative ? 0x80u : 0u;
  const double a = std::fabs(v);
  if (std::isinf(a))
    return static_cast<std::uint8_t>(sign | largest);
  if (a == 0)
    return static_cast<std::uint8_t>(sign);
  int e = 0;
  (void)std::frexp(a, &e); // a in [2^(e-1), 2^e)
  const int exponent = std::max(e - 1, 1 - bias);
  // a in units of the result's last place: exact (a scaling by a power of two).
  const double units = std::ldexp(a, mant_bits - exponent);
  if (units >= 4096) // far beyond the largest value: saturates
    return static_cast<std::uint8_t>(sign | largest);
  const double whole = std::floor(units);
  auto n = static_cast<unsigned>(whole);
  const double rest = units - whole;
  if (rest > 0.5 || (rest == 0.5 && (n & 1u) != 0))
    ++n;
  // The encoding of n units at `exponent`: a carry into the next binade, and the subnormal range
  // (exponent = 1 - bias, n < 2^mant_bits), come out right without a special case.
  unsigned code = static_cast<unsigned>(exponent + bias) * (1u << mant_bits) + n - (1u << mant_bits);
  if (code > largest)
    code = largest;
  return static_cast<std::uint8_t>(sign | code);
}

inline Half fp8_to_f16(std::uint8_t v, Fp8 f, bool relu) noexcept {
  const bool e4m3 = f == Fp8::e4m3;
  const unsigned magnitude = v & 0x7fu;
  if (e4m3 ? magnitude == 0x7f : magnitude > 0x7c)
    return Half{canonical_nan_f16};
  if (relu && (v & 0x80u) != 0)
    return Half{0};
  if (!e4m3) // E5M2 is the high byte of an f16
    return Half{static_cast<std::uint16_t>(v << 8)};
  const int exponent = static_cast<int>(magnitude >> 3);
  const unsigned mant = magnitude & 7u;
  const double mag = exponent == 0 ? std::ldexp(static_cast<double>(mant), -9)
                                   : std::ldexp(static_cast<double>(mant | 8u), exponent - 10);
  return f64_to_f16((v & 0x80u) != 0 ? -mag : mag, Round::rn);
}

} // namespace gpurun::emu::numeric
