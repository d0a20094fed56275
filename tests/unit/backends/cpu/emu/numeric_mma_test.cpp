// The tensor core's arithmetic (detail/numeric_mma.hpp) on values recorded on an H200: results
// that neither rounding of the exact sum gives, and the tf32 conversion's handling of NaNs.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "backends/cpu/emu/detail/numeric_mma.hpp"
#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu::numeric {
namespace {

float half_value(std::uint16_t bits) {
  return f16_to_f32(Half{bits});
}
std::vector<float> halves(std::initializer_list<std::uint16_t> bits) {
  std::vector<float> out;
  for (auto b : bits)
    out.push_back(half_value(b));
  return out;
}
float f32(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}
std::uint32_t bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}

// mma.sync.m16n8k8 f32.f16.f16.f32 outputs from the H200. Each term is truncated toward zero
// after alignment, so the result may lie below the truncated exact sum (0xc704f4dd) or above it
// (0x4873f87d, where a negative term lost its low bits).
TEST(NumericMma, F16DotProductsAsTheH200GivesThem) {
  auto a = halves({0x5b07, 0xb78a, 0x5efe, 0x1142, 0x8dc5, 0xcbd5, 0x31f7, 0x25ff});
  auto b = halves({0x9ea8, 0xc489, 0xd4c1, 0x90fc, 0x96ce, 0x2c50, 0x47f9, 0xa393});
  EXPECT_EQ(bits(mma_dot_f32(a.data(), b.data(), 8, f32(0xb6263862), kMmaF16, 16)), 0xc704f4dcu);
  a = halves({0x906a, 0x345c, 0x9123, 0x1d55, 0x1194, 0x8f65, 0x9789, 0xd398});
  b = halves({0x9137, 0x9fde, 0x4f30, 0x5701, 0x3a2a, 0xd6d1, 0x4173, 0xb6c4});
  EXPECT_EQ(bits(mma_dot_f32(a.data(), b.data(), 8, f32(0x4873f1eb), kMmaF16, 16)), 0x4873f87eu);
  a = halves({0x940e, 0x15dc, 0xcc97, 0x0d0a, 0x4544, 0x1f29, 0xbf27, 0xd8ae});
  b = halves({0xbec2, 0x2ddb, 0x424a, 0x5c3b, 0x1386, 0xd139, 0x940c, 0xcb58});
  EXPECT_EQ(bits(mma_dot_f32(a.data(), b.data(), 8, f32(0xb451f40b), kMmaF16, 16)), 0x4505d855u);
}

TEST(NumericMma, AlignmentKeeps25BitsBelowTheLargestExponent) {
  // 1 + 2^-25 + 2^-25: each small term is exactly the last bit kept, so both count (2^-24 is
  // below f32's precision at 1 and the sum is truncated: 1).
  const float one = 1.0f, tiny = 0x1p-25f;
  float a[3] = {one, tiny, tiny}, b[3] = {1, 1, 1};
  EXPECT_EQ(mma_dot_f32(a, b, 3, 0, kMmaF32, 16), 1.0f);
  // Eight terms of 2^-24 make 2^-21, which f32 keeps next to 1.
  float c[9] = {one,      0x1p-24f, 0x1p-24f, 0x1p-24f, 0x1p-24f,
                0x1p-24f, 0x1p-24f, 0x1p-24f, 0x1p-24f};
  float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(mma_dot_f32(c, ones, 9, 0, kMmaF32, 16), 1.0f + 0x1p-21f);
  // Terms below 2^-25 of the largest vanish, however many there are.
  float d[9] = {one,      0x1p-26f, 0x1p-26f, 0x1p-26f, 0x1p-26f,
                0x1p-26f, 0x1p-26f, 0x1p-26f, 0x1p-26f};
  EXPECT_EQ(mma_dot_f32(d, ones, 9, 0, kMmaF32, 16), 1.0f);
}

TEST(NumericMma, NonFiniteOperands) {
  const float inf = std::numeric_limits<float>::infinity();
  float a[2] = {inf, 1}, b[2] = {1, 2};
  EXPECT_EQ(mma_dot_f32(a, b, 2, 5, kMmaF16, 16), inf);
  float z[2] = {inf, 0}, zb[2] = {0, 1};
  EXPECT_EQ(bits(mma_dot_f32(z, zb, 2, 0, kMmaF16, 16)), canonical_nan_f32);   // ∞·0
  EXPECT_EQ(bits(mma_dot_f32(a, b, 2, -inf, kMmaF16, 16)), canonical_nan_f32); // ∞ − ∞
}

TEST(NumericMma, F16ResultIsRoundedOnceAndUnderflowIsPositiveZero) {
  // 110.90625 lies halfway between two f16 values; 2^-18 more (kept: the unit is 2^-19 here)
  // rounds it up, as the H200 did for such sums. Truncating to f32 first (ulp 2^-17) would lose
  // the 2^-18 and round the tie to even, 110.875; and 2^-20, below the unit, is dropped.
  float a[1] = {110.90625f}, b[1] = {1.0f};
  EXPECT_EQ(f16_to_f32(mma_dot_f16(a, b, 1, 0x1p-18f, kMmaF32)), 110.9375f);
  EXPECT_EQ(f16_to_f32(mma_dot_f16(a, b, 1, 0x1p-20f, kMmaF32)), 110.875f);
  float t[1] = {-0x1p-26f};
  EXPECT_EQ(mma_dot_f16(t, b, 1, 0, kMmaF32).bits, 0); // rounds to zero: +0, not −0
}

// mma.sync m16n8k32 .e4m3 × .e5m2 on the H200: two blocks of 16 products (k % 4 < 2 first), then
// C with an f32 add. The e4m3 subnormal 0x07 (7/8 · 2^-6) times 128 leads the first block with
// the exponent of 1.75 (its own, as an f16 value), not e4m3's smallest exponent + 7: with the
// latter the result is 0x457c18dd.
TEST(NumericMma, Fp8ProductsAsTheH200GivesThem) {
  const std::uint8_t a8[32] = {0x07, 0x89, 0x72, 0xb9, 0x48, 0x0f, 0x9a, 0x3e, 0xb2, 0x4b, 0xf2,
                               0x19, 0x81, 0x6e, 0xc5, 0x06, 0xed, 0x0d, 0x09, 0x3f, 0xc1, 0xf0,
                               0xde, 0x8e, 0x71, 0x07, 0xa2, 0x3e, 0x5c, 0x54, 0xfb, 0x38};
  const std::uint8_t b8[32] = {0x58, 0x98, 0x56, 0x01, 0x21, 0x24, 0x97, 0x28, 0xbc, 0x38, 0xad,
                               0x13, 0x78, 0x19, 0xbc, 0x97, 0xa9, 0x3f, 0x1c, 0x4f, 0x94, 0x38,
                               0x25, 0x02, 0x8f, 0x8a, 0x12, 0xb9, 0x0e, 0x0e, 0x50, 0x9a};
  float a[32], b[32];
  for (int i = 0; i < 32; ++i) {
    a[i] = f16_to_f32(fp8_to_f16(a8[i], Fp8::e4m3, false));
    b[i] = f16_to_f32(fp8_to_f16(b8[i], Fp8::e5m2, false));
  }
  EXPECT_EQ(bits(mma_dot_fp8(a, b, f32(0xc129b278))), 0x457c18deu);
  // C is added last, rounded to nearest: a huge C leaves the products' sum only its rounding.
  float one[32] = {}, two[32] = {};
  one[0] = 1.0f, two[0] = 0x1p-2f;
  EXPECT_EQ(mma_dot_fp8(one, two, 0x1p24f), 0x1p24f); // 2^24 + 1/4 rounds to 2^24
  EXPECT_EQ(bits(mma_dot_fp8(one, two, f32(0x7fc00000))), canonical_nan_f32);
}

TEST(NumericMma, IntegerProductsWrapOrSaturate) {
  std::int32_t a[2] = {127, 127}, b[2] = {127, 127};
  EXPECT_EQ(mma_dot_s32(a, b, 2, 0x7fffff00, false),
            static_cast<std::int32_t>(0x7fffff00u + 32258u));
  EXPECT_EQ(mma_dot_s32(a, b, 2, 0x7fffff00, true), 0x7fffffff);
  std::int32_t n[1] = {-128};
  EXPECT_EQ(mma_dot_s32(n, b, 1, -2147483600, true), -2147483647 - 1);
}

TEST(NumericMma, F64IsAChainOfFusedMultiplyAdds) {
  double a[2] = {1.0 + 0x1p-52, 1.0}, b[2] = {1.0 - 0x1p-52, -1.0};
  // fma keeps (1 + 2^-52)(1 − 2^-52) = 1 − 2^-104 exactly before adding −1 …
  EXPECT_EQ(mma_dot_f64(a, b, 1, -1.0), -0x1p-104);
  // … but each step rounds: 0 + that product is 1, then 1 − 1 = 0 (the exact sum is −2^-104).
  EXPECT_EQ(mma_dot_f64(a, b, 2, 0.0), 0.0);
}

// cvt to tf32, as measured: .rna adds 2^12 to the magnitude's bits even for a NaN (which may
// become ∞), .satfinite then takes 2^13 off from ∞'s bits up; .rn and .rz make every NaN
// 0x7fffe000.
TEST(NumericMma, Tf32ConversionAsTheH200DoesIt) {
  EXPECT_EQ(f32_to_tf32(f32(0x3f801000), Round::rna, false, false), 0x3f802000u);
  EXPECT_EQ(f32_to_tf32(f32(0x3f801000), Round::rn, false, false), 0x3f800000u);
  EXPECT_EQ(f32_to_tf32(f32(0x3f803000), Round::rn, false, false), 0x3f804000u);
  EXPECT_EQ(f32_to_tf32(f32(0x3f803fff), Round::rz, false, false), 0x3f802000u);
  EXPECT_EQ(f32_to_tf32(f32(0x7f800001), Round::rna, false, false), 0x7f800000u);
  EXPECT_EQ(f32_to_tf32(f32(0x7fffffff), Round::rna, false, false), 0x7fffe000u);
  EXPECT_EQ(f32_to_tf32(f32(0xffc00123), Round::rna, false, false), 0xffc00000u);
  EXPECT_EQ(f32_to_tf32(f32(0x7fc00000), Round::rna, false, true), 0x7fbfe000u);
  EXPECT_EQ(f32_to_tf32(f32(0x7f7fffff), Round::rna, false, true), 0x7f7fe000u);
  EXPECT_EQ(f32_to_tf32(f32(0xffc00123), Round::rn, false, false), 0x7fffe000u);
  EXPECT_EQ(f32_to_tf32(f32(0xbf800000), Round::rz, true, false), 0u);
  EXPECT_EQ(tf32_operand(f32(0x3f801fff)), f32(0x3f800000));
}

} // namespace
} // namespace gpurun::emu::numeric
