#include "base/dtype.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

namespace gpurun {
namespace {

TEST(DType, ParsesEveryNameAndRejectsOthers) {
  const char* names[] = {"f16", "bf16", "f32", "f64", "i8",  "i16",
                         "i32", "i64",  "u8",  "u16", "u32", "u64"};
  const std::size_t sizes[] = {2, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8};
  for (std::size_t i = 0; i < 12; ++i) {
    const auto t = parse_dtype(names[i]);
    ASSERT_TRUE(t.has_value()) << names[i];
    EXPECT_EQ(dtype_name(*t), names[i]);
    EXPECT_EQ(dtype_size(*t), sizes[i]) << names[i];
  }
  EXPECT_FALSE(parse_dtype("f33"));
  EXPECT_FALSE(parse_dtype("float"));
  EXPECT_FALSE(parse_dtype("F32"));
  EXPECT_FALSE(parse_dtype(""));
}

TEST(DType, Classification) {
  EXPECT_TRUE(is_float(DType::bf16));
  EXPECT_FALSE(is_float(DType::u16));
  EXPECT_TRUE(is_signed_int(DType::i8));
  EXPECT_FALSE(is_signed_int(DType::u64));
  EXPECT_FALSE(is_signed_int(DType::f32));
  EXPECT_EQ(numpy_descr(DType::f16), "<f2");
  EXPECT_EQ(numpy_descr(DType::u8), "|u1");
  EXPECT_EQ(numpy_descr(DType::i64), "<i8");
  EXPECT_EQ(numpy_descr(DType::bf16), "<u2");
}

TEST(Half, DecodesPinnedPatterns) {
  EXPECT_EQ(half_to_float(0x3c00), 1.0f);
  EXPECT_EQ(half_to_float(0xc000), -2.0f);
  EXPECT_EQ(half_to_float(0x7bff), 65504.0f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
  EXPECT_EQ(half_to_float(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(half_to_float(0x0400), std::ldexp(1.0f, -14)); // smallest normal
  EXPECT_EQ(std::bit_cast<std::uint32_t>(half_to_float(0x8000)), 0x80000000u);
  EXPECT_EQ(half_to_float(0x7c00), std::numeric_limits<float>::infinity());
  EXPECT_EQ(half_to_float(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(std::bit_cast<std::uint32_t>(half_to_float(0x7e00)), 0x7fc00000u);
}

TEST(Half, EncodesWithRoundToNearestEven) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(0.1f), 0x2e66);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
  // 65520 is halfway between 65504 and the next step (65536 = inf): ties to even → inf.
  EXPECT_EQ(float_to_half(65519.0f), 0x7bff);
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);
  EXPECT_EQ(float_to_half(1e10f), 0x7c00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even keeps 1.
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): rounds up.
  EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
}

TEST(Half, EncodesSubnormalsAndUnderflow) {
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);    // tie → even (0)
  EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);    // above the tie
  EXPECT_EQ(float_to_half(std::ldexp(3.0f, -25)), 0x0002);    // 1.5 ulp → tie → even (2)
  EXPECT_EQ(float_to_half(-std::ldexp(1.0f, -26)), 0x8000);   // underflow keeps the sign
  EXPECT_EQ(float_to_half(std::ldexp(1023.5f, -24)), 0x0400); // rounds up into the normals
}

TEST(Half, EncodesInfAndNaN) {
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xfc00);
  EXPECT_EQ(float_to_half(std::bit_cast<float>(0x7fc00000u)), 0x7e00);
  EXPECT_EQ(float_to_half(std::bit_cast<float>(0xffc00000u)), 0xfe00);
  // A signalling NaN stays a NaN (quiet bit set), never turns into inf.
  EXPECT_EQ(float_to_half(std::bit_cast<float>(0x7f800001u)), 0x7e00);
  EXPECT_EQ(float_to_half(std::bit_cast<float>(0x7fa00000u)), 0x7f00);
}

TEST(Half, EveryPatternRoundTrips) {
  for (std::uint32_t h = 0; h <= 0xffff; ++h) {
    const float f = half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(f))
      continue;
    ASSERT_EQ(float_to_half(f), h) << std::hex << h;
  }
}

TEST(BFloat16, PinnedPatterns) {
  EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
  EXPECT_EQ(float_to_bf16(-2.0f), 0xc000);
  EXPECT_EQ(float_to_bf16(3.14159265f), 0x4049);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even → 1; 1 + 3 * 2^-8 → up to 1 + 2^-6.
  EXPECT_EQ(float_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(float_to_bf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);
  EXPECT_EQ(float_to_bf16(std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x00010000u)), 0x0001); // subnormal
  EXPECT_EQ(float_to_bf16(std::bit_cast<float>(0x7f800001u)), 0x7fc0); // NaN stays NaN
  EXPECT_EQ(float_to_bf16(-std::numeric_limits<float>::infinity()), 0xff80);
  EXPECT_EQ(bf16_to_float(0x4049), std::bit_cast<float>(0x40490000u));
}

TEST(DType, StoreFromDoubleRoundsOnceForHalf) {
  // 1 + 2^-11 + 2^-40 is above the half tie, but rounds to the tie as a float first;
  // converting through float would give 1.0 (0x3c00), the correct answer is 0x3c01.
  std::uint16_t bits = 0;
  store_from_double(DType::f16, &bits, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40));
  EXPECT_EQ(bits, 0x3c01);
  store_from_double(DType::bf16, &bits, 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40));
  EXPECT_EQ(bits, 0x3f81);
}

TEST(DType, LoadsAndStoresIntegersExactly) {
  std::uint64_t u = 0;
  store_from_int64(DType::u64, &u, -1);
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_EQ(load_as_uint64(DType::u64, &u), UINT64_MAX);
  EXPECT_EQ(format_element(DType::u64, &u), "18446744073709551615");
  std::int8_t i8 = 0;
  store_from_int64(DType::i8, &i8, 200); // wraps to the width
  EXPECT_EQ(i8, -56);
  EXPECT_EQ(load_as_int64(DType::i8, &i8), -56);
  std::uint16_t u16 = 0;
  store_from_int64(DType::u16, &u16, 65537);
  EXPECT_EQ(u16, 1);
  std::int64_t i64 = 0;
  store_from_int64(DType::i64, &i64, std::numeric_limits<long long>::min());
  EXPECT_EQ(format_element(DType::i64, &i64), "-9223372036854775808");
  std::uint16_t h = 0x3e00; // 1.5 as f16
  EXPECT_EQ(load_as_double(DType::f16, &h), 1.5);
}

TEST(DType, FormatsFloatsShortestForTheirType) {
  const float f = 0.1f;
  EXPECT_EQ(format_element(DType::f32, &f), "0.1");
  const double d = 0.1;
  EXPECT_EQ(format_element(DType::f64, &d), "0.1");
  const double third = 1.0 / 3;
  EXPECT_EQ(format_element(DType::f64, &third), "0.3333333333333333");
  const std::uint16_t h = 0x2e66; // f16 nearest to 0.1 (0.0999755859375)
  EXPECT_EQ(format_element(DType::f16, &h), "0.1");
  const std::uint16_t b = 0x3dcd; // bf16 nearest to 0.1
  EXPECT_EQ(format_element(DType::bf16, &b), "0.1");
  const std::uint16_t big = 0x7bff;
  EXPECT_EQ(format_element(DType::f16, &big), "65500");
  const float inf = -std::numeric_limits<float>::infinity();
  EXPECT_EQ(format_element(DType::f32, &inf), "-inf");
  const double nan = std::nan("");
  EXPECT_EQ(format_element(DType::f64, &nan), "nan");
}

} // namespace
} // namespace gpurun
