// cvt semantics of backends/cpu/emu/numeric.hpp: float <-> float in every rounding mode,
// integer <-> float, integer <-> integer, .ftz, .sat and NaN handling, pinned to bit patterns.
#include "backends/cpu/emu/numeric.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace {
using namespace gpurun::emu::numeric;

constexpr Round all_rounds[] = {Round::rn, Round::rz, Round::rm, Round::rp, Round::rna};

std::uint32_t f32_bits(double d, Round r) {
  return bits_of(f64_to_f32(d, r));
}

TEST(NumericCvt, F64ToF32DirectedModesJustAboveOne) {
  const double x = 1.0 + std::ldexp(1.0, -30);
  EXPECT_EQ(f32_bits(x, Round::rn), 0x3f800000u);
  EXPECT_EQ(f32_bits(x, Round::rz), 0x3f800000u);
  EXPECT_EQ(f32_bits(x, Round::rm), 0x3f800000u);
  EXPECT_EQ(f32_bits(x, Round::rp), 0x3f800001u); // nextafter(1.0f, 2.0f)
  EXPECT_EQ(f32_bits(-x, Round::rz), 0xbf800000u);
  EXPECT_EQ(f32_bits(-x, Round::rm), 0xbf800001u);
  EXPECT_EQ(f32_bits(-x, Round::rp), 0xbf800000u);
}

TEST(NumericCvt, F64ToF32TiesToEvenAndAway) {
  const double tie_low = 1.0 + std::ldexp(1.0, -24);      // between 1 and 1+2^-23, even is 1
  const double tie_high = 1.0 + 3 * std::ldexp(1.0, -24); // even neighbour is 1+2^-22
  EXPECT_EQ(f32_bits(tie_low, Round::rn), 0x3f800000u);
  EXPECT_EQ(f32_bits(tie_high, Round::rn), 0x3f800002u);
  EXPECT_EQ(f32_bits(tie_low, Round::rna), 0x3f800001u);
  EXPECT_EQ(f32_bits(-tie_low, Round::rna), 0xbf800001u);
}

TEST(NumericCvt, F64ToF32OverflowPerMode) {
  EXPECT_EQ(f32_bits(1e300, Round::rn), 0x7f800000u);
  EXPECT_EQ(f32_bits(1e300, Round::rz), 0x7f7fffffu);
  EXPECT_EQ(f32_bits(1e300, Round::rm), 0x7f7fffffu);
  EXPECT_EQ(f32_bits(1e300, Round::rp), 0x7f800000u);
  EXPECT_EQ(f32_bits(-1e300, Round::rm), 0xff800000u);
  EXPECT_EQ(f32_bits(-1e300, Round::rp), 0xff7fffffu);
  EXPECT_EQ(f32_bits(-1e300, Round::rz), 0xff7fffffu);
}

TEST(NumericCvt, F64ToF32SubnormalRounding) {
  EXPECT_EQ(f32_bits(1.5 * std::ldexp(1.0, -149), Round::rn), 0x00000002u); // tie -> even
  EXPECT_EQ(f32_bits(1.5 * std::ldexp(1.0, -149), Round::rz), 0x00000001u);
  EXPECT_EQ(f32_bits(std::ldexp(1.0, -151), Round::rn), 0x00000000u);
  EXPECT_EQ(f32_bits(std::ldexp(1.0, -151), Round::rp), 0x00000001u);
  EXPECT_EQ(f32_bits(-std::ldexp(1.0, -151), Round::rm), 0x80000001u);
  EXPECT_EQ(f32_bits(-std::ldexp(1.0, -151), Round::rn), 0x80000000u);
  // The largest subnormal rounds up into the smallest normal.
  EXPECT_EQ(f32_bits(std::ldexp(1.0, -126) - std::ldexp(1.0, -160), Round::rp), 0x00800000u);
}

TEST(NumericCvt, F32ToF16OverflowAndLargestFinite) {
  EXPECT_EQ(f32_to_f16(65504.0f, Round::rn).bits, 0x7bffu);
  EXPECT_EQ(f32_to_f16(65519.0f, Round::rn).bits, 0x7bffu);
  EXPECT_EQ(f32_to_f16(65520.0f, Round::rn).bits, 0x7c00u); // the tie rounds to even = inf
  EXPECT_EQ(f32_to_f16(1e6f, Round::rz).bits, 0x7bffu);
  EXPECT_EQ(f32_to_f16(1e6f, Round::rm).bits, 0x7bffu);
  EXPECT_EQ(f32_to_f16(-1e6f, Round::rp).bits, 0xfbffu);
  EXPECT_EQ(f32_to_f16(-1e6f, Round::rn).bits, 0xfc00u);
  EXPECT_EQ(f32_to_f16(std::numeric_limits<float>::infinity(), Round::rz).bits, 0x7c00u);
}

TEST(NumericCvt, F32ToF16TiesAndSubnormals) {
  EXPECT_EQ(f32_to_f16(1.0f + std::ldexp(1.0f, -11), Round::rn).bits, 0x3c00u);
  EXPECT_EQ(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11), Round::rn).bits, 0x3c02u);
  EXPECT_EQ(f32_to_f16(1.0f + std::ldexp(1.0f, -11), Round::rna).bits, 0x3c01u);
  EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -24), Round::rn).bits, 0x0001u);
  EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -25), Round::rn).bits, 0x0000u);
  EXPECT_EQ(f32_to_f16(std::ldexp(1.0f, -25), Round::rp).bits, 0x0001u);
  EXPECT_EQ(f32_to_f16(3 * std::ldexp(1.0f, -25), Round::rn).bits, 0x0002u);
  EXPECT_EQ(f32_to_f16(-0.0f, Round::rn).bits, 0x8000u);
}

// Every f16 value, the midpoint above it and a point a quarter-step above it, in every mode:
// the expected results follow from the ordering of f16 bit patterns alone.
TEST(NumericCvt, F32ToF16ExhaustiveMidpointsAllModes) {
  int checked = 0;
  for (std::uint32_t h = 0; h < 0x7bff; ++h) {
    for (const bool negative : {false, true}) {
      const auto sign = static_cast<std::uint16_t>(negative ? 0x8000u : 0u);
      const Half lo{static_cast<std::uint16_t>(h | sign)};
      const Half hi{static_cast<std::uint16_t>((h + 1) | sign)};
      const double a = f16_to_f64(lo);
      const double b = f16_to_f64(hi);
      const double mid = (a + b) / 2;
      const double quarter = a + (b - a) / 4;
      const bool lo_even = (h & 1u) == 0;
      const Half away_from_zero = hi;
      const Half toward_zero = lo;
      ASSERT_EQ(f64_to_f16(a, Round::rp), lo);
      ASSERT_EQ(f64_to_f16(mid, Round::rn), lo_even ? lo : hi);
      ASSERT_EQ(f64_to_f16(mid, Round::rna), away_from_zero);
      ASSERT_EQ(f64_to_f16(mid, Round::rz), toward_zero);
      ASSERT_EQ(f64_to_f16(quarter, Round::rn), lo);
      ASSERT_EQ(f64_to_f16(quarter, Round::rp), negative ? lo : hi);
      ASSERT_EQ(f64_to_f16(quarter, Round::rm), negative ? hi : lo);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * 0x7bff);
}

TEST(NumericCvt, F16RoundTripsThroughF32Exactly) {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const Half x{static_cast<std::uint16_t>(h)};
    const float f = f16_to_f32(x);
    if (std::isnan(f)) {
      ASSERT_EQ(bits_of(f), canonical_nan_f32);
      continue;
    }
    for (const Round r : all_rounds) {
      ASSERT_EQ(f32_to_f16(f, r), x) << std::hex << h;
    }
  }
  EXPECT_EQ(bits_of(f16_to_f32(Half{0x0001})), bits_of(std::ldexp(1.0f, -24)));
  EXPECT_EQ(f16_to_f32(Half{0xc000}), -2.0f);
}

TEST(NumericCvt, Bf16MatchesBitReferenceOnRandomFloats) {
  std::mt19937 rng(12345);
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t b = rng();
    const float f = f32_from_bits(b);
    if (std::isnan(f)) {
      ASSERT_EQ(f32_to_bf16(f, Round::rn).bits, canonical_nan_bf16);
      continue;
    }
    const auto rz = static_cast<std::uint16_t>(b >> 16);
    const auto rn = static_cast<std::uint16_t>((b + 0x7fffu + ((b >> 16) & 1u)) >> 16);
    ASSERT_EQ(f32_to_bf16(f, Round::rz).bits, rz) << std::hex << b;
    ASSERT_EQ(f32_to_bf16(f, Round::rn).bits, rn) << std::hex << b;
  }
}

TEST(NumericCvt, Bf16TiesToEven) {
  EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f808000u), Round::rn).bits, 0x3f80u);
  EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f818000u), Round::rn).bits, 0x3f82u);
  EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f808001u), Round::rn).bits, 0x3f81u);
  EXPECT_EQ(f32_to_bf16(f32_from_bits(0x3f808000u), Round::rp).bits, 0x3f81u);
  EXPECT_EQ(bf16_to_f32(BFloat16{0x3f81}), f32_from_bits(0x3f810000u));
}

TEST(NumericCvt, NanResults) {
  EXPECT_EQ(f32_to_f16(f32_from_bits(0x7fc01234u), Round::rn).bits, canonical_nan_f16);
  EXPECT_EQ(bits_of(f64_to_f32(f64_from_bits(0xfff8000000000001ull), Round::rz)),
            canonical_nan_f32);
  // Between f32 and f64 the payload is kept, quieted (measured on an H200).
  EXPECT_EQ(bits_of(cvt<double>(f32_from_bits(0xff800001u), {})), 0xfff8000020000000ull);
  EXPECT_EQ(bits_of(cvt<float>(f64_from_bits(0x7ff8123456789abcull), {})), 0x7fc091a2u);
  EXPECT_EQ(bits_of(f16_to_f32(Half{0xfe01})), canonical_nan_f32);
}

// int64 -> f32/f64 checked against the defining property of each mode, compared in x87 long
// double (64-bit significand: every int64, float and double is exact there), on values around
// 2^20 .. 2^63 and random ones.
template <class F> long double exact(F f) {
  return static_cast<long double>(f);
}

template <class F> void check_int_rounding(std::int64_t v) {
  for (const Round r : {Round::rn, Round::rz, Round::rm, Round::rp}) {
    const F got = std::is_same_v<F, float> ? static_cast<F>(int_to_f32(v, r))
                                           : static_cast<F>(int_to_f64(v, r));
    const F up = std::nextafter(got, std::numeric_limits<F>::infinity());
    const F down = std::nextafter(got, -std::numeric_limits<F>::infinity());
    const long double g = exact(got);
    const auto x = static_cast<long double>(v);
    switch (r) {
    case Round::rm:
      ASSERT_TRUE(g <= x && x < exact(up)) << v;
      break;
    case Round::rp:
      ASSERT_TRUE(exact(down) < x && x <= g) << v;
      break;
    case Round::rz:
      ASSERT_TRUE(v >= 0 ? (g <= x && x < exact(up)) : (exact(down) < x && x <= g)) << v;
      break;
    default: {
      const long double err = g > x ? g - x : x - g;
      const long double other = g > x ? x - exact(down) : exact(up) - x;
      ASSERT_LE(err, other) << v;
      if (err == other) {
        const auto mant_lsb =
            std::is_same_v<F, float>
                ? (bits_of(static_cast<float>(got)) & 1u)
                : static_cast<std::uint32_t>(bits_of(static_cast<double>(got)) & 1u);
        ASSERT_EQ(mant_lsb, 0u) << "tie not to even: " << v;
      }
    }
    }
  }
}

TEST(NumericCvt, Int64ToFloatAllModesProperty) {
  std::mt19937_64 rng(7);
  for (int e = 20; e < 63; ++e) {
    for (std::int64_t d = -3; d <= 3; ++d) {
      const std::int64_t base = std::int64_t{1} << e;
      check_int_rounding<float>(base + d);
      check_int_rounding<float>(-(base + d));
      check_int_rounding<double>(base + d);
      check_int_rounding<double>(-(base + d));
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<std::int64_t>(rng() >> (rng() % 40));
    check_int_rounding<float>(v);
    check_int_rounding<double>(v);
  }
}

TEST(NumericCvt, Int64ToFloatPinnedValues) {
  const std::int64_t max = std::numeric_limits<std::int64_t>::max();
  const std::int64_t min = std::numeric_limits<std::int64_t>::min();
  EXPECT_EQ(bits_of(int_to_f32(max, Round::rn)), 0x5f000000u);
  EXPECT_EQ(bits_of(int_to_f32(max, Round::rz)), 0x5effffffu);
  EXPECT_EQ(bits_of(int_to_f32(min, Round::rz)), 0xdf000000u);
  EXPECT_EQ(bits_of(int_to_f32(min, Round::rm)), 0xdf000000u);
  EXPECT_EQ(bits_of(int_to_f32(~std::uint64_t{0}, Round::rn)), 0x5f800000u);
  EXPECT_EQ(bits_of(int_to_f32(~std::uint64_t{0}, Round::rz)), 0x5f7fffffu);
  const std::int64_t two53 = std::int64_t{1} << 53;
  EXPECT_EQ(int_to_f64(two53 + 1, Round::rn), 9007199254740992.0);
  EXPECT_EQ(int_to_f64(two53 + 1, Round::rp), 9007199254740994.0);
  EXPECT_EQ(int_to_f64(two53 + 3, Round::rn), 9007199254740996.0);
  EXPECT_EQ(int_to_f64(two53 + 3, Round::rz), 9007199254740994.0);
  EXPECT_EQ(int_to_f64(-(two53 + 1), Round::rm), -9007199254740994.0);
  EXPECT_EQ(int_to_f32(16777217, Round::rn), 16777216.0f);
  EXPECT_EQ(int_to_f32(16777217, Round::rp), 16777218.0f);
  EXPECT_EQ(bits_of(int_to_f32(0, Round::rm)), 0u); // +0, never -0
}

TEST(NumericCvt, IntToHalfRoundsAndOverflows) {
  EXPECT_EQ(int_to_f16(2049, Round::rn).bits, 0x6800u); // 2048, tie to even
  EXPECT_EQ(int_to_f16(2049, Round::rp).bits, 0x6801u); // 2050
  EXPECT_EQ(int_to_f16(65520, Round::rn).bits, 0x7c00u);
  EXPECT_EQ(int_to_f16(65520, Round::rz).bits, 0x7bffu);
  EXPECT_EQ(int_to_f16(-1, Round::rn).bits, 0xbc00u);
  EXPECT_EQ(int_to_bf16(257, Round::rn).bits, 0x4380u); // 256
}

TEST(NumericCvt, FloatToIntRoundingModes) {
  EXPECT_EQ(f32_to_int<std::int32_t>(2.5f, Round::rn), 2);
  EXPECT_EQ(f32_to_int<std::int32_t>(3.5f, Round::rn), 4);
  EXPECT_EQ(f32_to_int<std::int32_t>(-2.5f, Round::rn), -2);
  EXPECT_EQ(f32_to_int<std::int32_t>(-2.7f, Round::rz), -2);
  EXPECT_EQ(f32_to_int<std::int32_t>(-2.2f, Round::rm), -3);
  EXPECT_EQ(f32_to_int<std::int32_t>(2.2f, Round::rp), 3);
  EXPECT_EQ(f64_to_int<std::int64_t>(-0.5, Round::rp), 0);
  EXPECT_EQ(f64_to_int<std::uint32_t>(4294967294.6, Round::rn), 4294967295u);
}

TEST(NumericCvt, FloatToIntSaturatesAndMapsNanToZero) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(f32_to_int<std::int32_t>(3e9f, Round::rz), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(f32_to_int<std::int32_t>(-3e9f, Round::rz), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(f32_to_int<std::int32_t>(inf, Round::rn), std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ(f32_to_int<std::uint32_t>(-1.5f, Round::rn), 0u);
  EXPECT_EQ(f32_to_int<std::int32_t>(std::nanf(""), Round::rn), 0);
  EXPECT_EQ(f64_to_int<std::int64_t>(1e20, Round::rz), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(f64_to_int<std::int64_t>(-1e20, Round::rz), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(f64_to_int<std::uint64_t>(18446744073709551616.0, Round::rz), ~std::uint64_t{0});
  EXPECT_EQ(f64_to_int<std::int64_t>(-9223372036854775808.0, Round::rz),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ((cvt<std::int8_t>(200.0f, {.round = Round::rz})), 127);
  EXPECT_EQ((cvt<std::uint16_t>(Half{0x7c00}, {.round = Round::rz})), 0xffff);
  EXPECT_EQ((cvt<std::int32_t>(Half{0x7e00}, {.round = Round::rz})), 0); // f16 NaN
}

TEST(NumericCvt, FloatToIntFtzFlushesSubnormalSource) {
  const float tiny = f32_from_bits(0x00000001u);
  EXPECT_EQ((cvt<std::int32_t>(tiny, {.round = Round::rp})), 1);
  EXPECT_EQ((cvt<std::int32_t>(tiny, {.round = Round::rp, .ftz = true})), 0);
  EXPECT_EQ((cvt<std::int32_t>(-tiny, {.round = Round::rm})), -1);
  EXPECT_EQ((cvt<std::int32_t>(-tiny, {.round = Round::rm, .ftz = true})), 0);
}

TEST(NumericCvt, IntToIntTruncateExtendSaturate) {
  EXPECT_EQ((cvt<std::int8_t>(300, {.sat = true})), 127);
  EXPECT_EQ((cvt<std::int8_t>(-300, {.sat = true})), -128);
  EXPECT_EQ((cvt<std::uint8_t>(-5, {.sat = true})), 0);
  EXPECT_EQ((cvt<std::int8_t>(300, {})), 44); // 300 mod 256
  EXPECT_EQ((cvt<std::uint16_t>(0x12345u, {})), 0x2345);
  EXPECT_EQ((cvt<std::int64_t>(std::int32_t{-1}, {})), -1);
  EXPECT_EQ((cvt<std::uint64_t>(0xffffffffu, {})), 0xffffffffull);
  EXPECT_EQ((cvt<std::uint64_t>(std::int32_t{-1}, {})), ~std::uint64_t{0});
  EXPECT_EQ((cvt<std::int32_t>(std::uint64_t{1} << 40, {.sat = true})),
            std::numeric_limits<std::int32_t>::max());
  EXPECT_EQ((cvt<std::uint32_t>(std::int64_t{-1}, {.sat = true})), 0u);
  EXPECT_EQ((cvt<std::int32_t>(0xffffffffu, {.sat = true})),
            std::numeric_limits<std::int32_t>::max());
}

TEST(NumericCvt, SatClampsFloatsToUnitIntervalNanToZero) {
  EXPECT_EQ((cvt<float>(1.5f, {.sat = true})), 1.0f);
  EXPECT_EQ(bits_of(cvt<float>(-0.5f, {.sat = true})), 0u);
  EXPECT_EQ(bits_of(cvt<float>(std::nanf(""), {.sat = true})), 0u);
  EXPECT_EQ((cvt<float>(0.25, {.sat = true})), 0.25f);
  EXPECT_EQ((cvt<float>(7, {.sat = true})), 1.0f);
  EXPECT_EQ((cvt<Half>(2.0f, {.sat = true})).bits, 0x3c00u);
}

TEST(NumericCvt, FtzOnFloatConversions) {
  const float sub = f32_from_bits(0x80000010u);
  EXPECT_EQ(bits_of(cvt<float>(sub, {.ftz = true})), 0x80000000u);
  EXPECT_EQ(bits_of(cvt<float>(sub, {})), 0x80000010u);
  const double becomes_subnormal = std::ldexp(1.0, -140);
  EXPECT_EQ(bits_of(cvt<float>(becomes_subnormal, {.round = Round::rn})), 0x00000200u);
  EXPECT_EQ(bits_of(cvt<float>(becomes_subnormal, {.round = Round::rn, .ftz = true})), 0u);
  EXPECT_EQ(cvt<double>(sub, {.ftz = true}), -0.0);
  EXPECT_TRUE(std::signbit(cvt<double>(sub, {.ftz = true})));
}

TEST(NumericCvt, RoundToIntegralInFloat) {
  EXPECT_EQ(round_integral(2.5f, Round::rn), 2.0f);
  EXPECT_EQ(round_integral(3.5f, Round::rn), 4.0f);
  EXPECT_EQ(bits_of(round_integral(-0.4f, Round::rn)), 0x80000000u);
  EXPECT_EQ(round_integral(-0.5f, Round::rm), -1.0f);
  EXPECT_EQ(bits_of(round_integral(-0.5f, Round::rp)), 0x80000000u);
  EXPECT_EQ(round_integral(8388609.0f, Round::rn), 8388609.0f);
  EXPECT_EQ(round_integral(4503599627370497.0, Round::rz), 4503599627370497.0);
  EXPECT_EQ(round_integral(-1.5, Round::rz), -1.0);
  EXPECT_EQ((cvt<float>(2.7f, {.round = Round::rz, .integral = true})), 2.0f);
  EXPECT_EQ((cvt<double>(-2.5, {.round = Round::rn, .integral = true})), -2.0);
  EXPECT_EQ(bits_of(round_integral(std::nanf(""), Round::rn)), canonical_nan_f32);
}

} // namespace
