// cvt's .relu/.satfinite and the FP8 formats (backends/cpu/emu/detail/numeric_fp8.hpp), and
// min/max.xorsign.abs and f16 .ftz of numeric.hpp, pinned to bit patterns worked out by hand
// from the formats' definitions.
#include "backends/cpu/emu/numeric.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace {
using namespace gpurun::emu::numeric;

constexpr double k_inf = std::numeric_limits<double>::infinity();
constexpr double k_nan = std::numeric_limits<double>::quiet_NaN();

TEST(NumericFp8, E4m3RoundsToNearestEvenAndSaturates) {
  EXPECT_EQ(to_fp8(1.0, Fp8::e4m3, false), 0x38);
  EXPECT_EQ(to_fp8(-1.0, Fp8::e4m3, false), 0xb8);
  EXPECT_EQ(to_fp8(1.0625, Fp8::e4m3, false), 0x38); // 8.5 units: tie to the even 8
  EXPECT_EQ(to_fp8(1.1875, Fp8::e4m3, false), 0x3a); // 9.5 units: tie to the even 10
  EXPECT_EQ(to_fp8(1.9999, Fp8::e4m3, false), 0x40); // carries into the next binade: 2.0
  EXPECT_EQ(to_fp8(448.0, Fp8::e4m3, false), 0x7e);  // the largest value
  EXPECT_EQ(to_fp8(464.0, Fp8::e4m3, false), 0x7e);  // 480 would be the NaN code
  EXPECT_EQ(to_fp8(1e30, Fp8::e4m3, false), 0x7e);
  EXPECT_EQ(to_fp8(-k_inf, Fp8::e4m3, false), 0xfe);
  EXPECT_EQ(to_fp8(k_nan, Fp8::e4m3, false), 0x7f);
  EXPECT_EQ(to_fp8(-k_nan, Fp8::e4m3, false), 0x7f);
}

TEST(NumericFp8, E4m3Subnormals) {
  EXPECT_EQ(to_fp8(std::ldexp(1.0, -6), Fp8::e4m3, false), 0x08); // the smallest normal
  EXPECT_EQ(to_fp8(std::ldexp(7.0, -9), Fp8::e4m3, false), 0x07);
  EXPECT_EQ(to_fp8(std::ldexp(1.0, -9), Fp8::e4m3, false), 0x01); // the smallest subnormal
  EXPECT_EQ(to_fp8(std::ldexp(1.0, -10), Fp8::e4m3, false), 0x00); // a tie to the even 0
  EXPECT_EQ(to_fp8(std::ldexp(1.5, -10), Fp8::e4m3, false), 0x01);
  EXPECT_EQ(to_fp8(-std::ldexp(1.0, -12), Fp8::e4m3, false), 0x80); // -0
  EXPECT_EQ(to_fp8(std::ldexp(15.5, -10), Fp8::e4m3, false), 0x08); // rounds up to normal
}

TEST(NumericFp8, E5m2HasInfinityButSatfiniteNeverReturnsIt) {
  EXPECT_EQ(to_fp8(1.0, Fp8::e5m2, false), 0x3c);
  EXPECT_EQ(to_fp8(57344.0, Fp8::e5m2, false), 0x7b);
  EXPECT_EQ(to_fp8(61439.0, Fp8::e5m2, false), 0x7b);
  EXPECT_EQ(to_fp8(k_inf, Fp8::e5m2, false), 0x7b);
  EXPECT_EQ(to_fp8(-k_inf, Fp8::e5m2, false), 0xfb);
  EXPECT_EQ(to_fp8(k_nan, Fp8::e5m2, false), 0x7f);
  EXPECT_EQ(to_fp8(std::ldexp(1.0, -16), Fp8::e5m2, false), 0x01);
  EXPECT_EQ(to_fp8(1.125, Fp8::e5m2, false), 0x3c); // 4.5 units: tie to the even 4
}

TEST(NumericFp8, ReluClampsNegativesAndKeepsNaN) {
  EXPECT_EQ(to_fp8(-1.0, Fp8::e4m3, true), 0x00);
  EXPECT_EQ(to_fp8(-0.0, Fp8::e4m3, true), 0x00);
  EXPECT_EQ(to_fp8(-0.0, Fp8::e4m3, false), 0x80);
  EXPECT_EQ(to_fp8(-k_inf, Fp8::e5m2, true), 0x00);
  EXPECT_EQ(to_fp8(k_nan, Fp8::e5m2, true), 0x7f);
  EXPECT_EQ(to_fp8(3.0, Fp8::e5m2, true), 0x42);
}

TEST(NumericFp8, ToF16IsExact) {
  EXPECT_EQ(fp8_to_f16(0x38, Fp8::e4m3, false).bits, 0x3c00);
  EXPECT_EQ(fp8_to_f16(0x7e, Fp8::e4m3, false).bits, 0x5f00); // 448
  EXPECT_EQ(fp8_to_f16(0x01, Fp8::e4m3, false).bits, 0x1800); // 2^-9, normal in f16
  EXPECT_EQ(fp8_to_f16(0x80, Fp8::e4m3, false).bits, 0x8000);
  EXPECT_EQ(fp8_to_f16(0xff, Fp8::e4m3, false).bits, 0x7fff);
  EXPECT_EQ(fp8_to_f16(0x7c, Fp8::e5m2, false).bits, 0x7c00); // infinity
  EXPECT_EQ(fp8_to_f16(0xfd, Fp8::e5m2, false).bits, 0x7fff);
  EXPECT_EQ(fp8_to_f16(0xc2, Fp8::e5m2, false).bits, 0xc200); // -3
  EXPECT_EQ(fp8_to_f16(0xc2, Fp8::e5m2, true).bits, 0x0000);
  EXPECT_EQ(fp8_to_f16(0xff, Fp8::e4m3, true).bits, 0x7fff);
  // Every E4M3 value but NaN survives a round trip.
  for (unsigned v = 0; v < 256; ++v) {
    if ((v & 0x7f) == 0x7f)
      continue;
    const Half h = fp8_to_f16(static_cast<std::uint8_t>(v), Fp8::e4m3, false);
    EXPECT_EQ(to_fp8(f16_to_f64(h), Fp8::e4m3, false), v) << v;
  }
}

TEST(NumericCvtModifiers, SatfiniteAndReluOnHalfResults) {
  EXPECT_EQ(satfinite(Half{0x7c00}).bits, 0x7bff);
  EXPECT_EQ(satfinite(Half{0xfc00}).bits, 0xfbff);
  EXPECT_EQ(satfinite(Half{0x3c00}).bits, 0x3c00);
  EXPECT_EQ(satfinite(BFloat16{0xff80}).bits, 0xff7f);
  EXPECT_EQ(satfinite(Half{0xfe01}).bits, 0x7fff);
  EXPECT_EQ(relu(Half{0xbc00}).bits, 0x0000);
  EXPECT_EQ(relu(Half{0x8000}).bits, 0x0000);
  EXPECT_EQ(relu(BFloat16{0xff81}).bits, 0x7fff);
  CvtMode m;
  m.satfinite = true;
  EXPECT_EQ((cvt<Half, float>(70000.0f, m).bits), 0x7bff);
  EXPECT_EQ((cvt<BFloat16, float>(-std::numeric_limits<float>::infinity(), m).bits), 0xff7f);
  m.relu = true;
  EXPECT_EQ((cvt<Half, float>(-70000.0f, m).bits), 0x0000);
  m.satfinite = false;
  m.round = Round::rz;
  EXPECT_EQ((cvt<Half, float>(1.0009765625f * 3, m).bits), 0x4201); // rz kept
}

TEST(NumericMinMax, XorsignAbs) {
  auto max = [](float a, float b) {
    return bits_of(minmax_xorsign_abs(a, b, true, false, NanMode::ignore));
  };
  auto min = [](float a, float b) {
    return bits_of(minmax_xorsign_abs(a, b, false, false, NanMode::ignore));
  };
  EXPECT_EQ(max(-3.0f, 2.0f), bits_of(-3.0f));
  EXPECT_EQ(min(-3.0f, 2.0f), bits_of(-2.0f));
  EXPECT_EQ(max(-3.0f, -2.0f), bits_of(3.0f));
  EXPECT_EQ(min(0.0f, -0.0f), bits_of(-0.0f));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(max(nan, -2.0f), bits_of(-2.0f)); // the NaN's sign bit (0) xor 1
  EXPECT_EQ(max(-nan, -2.0f), bits_of(2.0f));
  EXPECT_EQ(max(nan, nan), canonical_nan_f32);
  EXPECT_EQ(bits_of(minmax_xorsign_abs(nan, -2.0f, true, false, NanMode::propagate)),
            canonical_nan_f32);
  // .ftz: a subnormal counts as a zero of its sign.
  const float tiny = std::ldexp(1.0f, -140);
  EXPECT_EQ(bits_of(minmax_xorsign_abs(-tiny, 0.0f, true, true, NanMode::ignore)),
            bits_of(-0.0f));
  EXPECT_EQ(minmax_xorsign_abs(Half{0xc200}, Half{0x3c00}, true, false, NanMode::ignore).bits,
            0xc200); // -3 and 1: 3 with the sign 1 xor 0
}

TEST(NumericHalfFtz, SubnormalInputsAndResultsFlush) {
  const Half tiny{0x0001};
  EXPECT_EQ(add(tiny, tiny, FpMode{Round::rn, false, false}).bits, 0x0002);
  EXPECT_EQ(add(tiny, tiny, FpMode{Round::rn, true, false}).bits, 0x0000);
  const Half min_normal{0x0400}, half{0x3800};
  EXPECT_EQ(mul(min_normal, half, FpMode{Round::rn, false, false}).bits, 0x0200);
  EXPECT_EQ(mul(min_normal, half, FpMode{Round::rn, true, false}).bits, 0x0000);
  EXPECT_EQ(mul(Half{0x8400}, half, FpMode{Round::rn, true, false}).bits, 0x8000);
  EXPECT_EQ(fma(min_normal, half, min_normal, FpMode{Round::rn, true, false}).bits, 0x0600);
  EXPECT_EQ(fmax(Half{0x8001}, Half{0x0000}, true).bits, 0x0000);
  EXPECT_EQ(fmin(Half{0x8001}, Half{0x0000}, true).bits, 0x8000);
  EXPECT_EQ(fneg(Half{0x0001}, true).bits, 0x8000);
}

} // namespace
