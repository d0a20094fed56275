// Randomised checks of backends/cpu/emu/numeric.hpp against straightforward references: the
// PTX ISA's bit-by-bit pseudo-code for bfe/bfi/brev, and exact double arithmetic (then one
// rounding) for f16/bf16 add/sub/mul whenever that exact result fits in a double.
#include "backends/cpu/emu/numeric.hpp"

#include <cmath>
#include <cstdint>
#include <random>

#include <gtest/gtest.h>

namespace {
using namespace gpurun::emu::numeric;

template <class T> T bfe_reference(T a, std::uint32_t b, std::uint32_t c) {
  using U = std::make_unsigned_t<T>;
  const std::uint32_t msb = sizeof(T) * 8 - 1;
  const std::uint32_t pos = b & 0xff;
  const std::uint32_t len = c & 0xff;
  const auto ua = static_cast<U>(a);
  bool sbit = false;
  if (std::is_signed_v<T> && len != 0) {
    sbit = ((ua >> std::min(pos + len - 1, msb)) & 1u) != 0;
  }
  U d = 0;
  for (std::uint32_t i = 0; i <= msb; ++i) {
    const bool bit = (i < len && pos + i <= msb) ? ((ua >> (pos + i)) & 1u) != 0 : sbit;
    d = static_cast<U>(d | (static_cast<U>(bit) << i));
  }
  return static_cast<T>(d);
}

template <class T> T bfi_reference(T a, T b, std::uint32_t c, std::uint32_t d) {
  using U = std::make_unsigned_t<T>;
  const std::uint32_t msb = sizeof(T) * 8 - 1;
  const std::uint32_t pos = c & 0xff;
  const std::uint32_t len = d & 0xff;
  auto f = static_cast<U>(b);
  for (std::uint32_t i = 0; i < len && pos + i <= msb; ++i) {
    const U bit = static_cast<U>(U{1} << (pos + i));
    f = ((static_cast<U>(a) >> i) & 1u) != 0 ? static_cast<U>(f | bit) : static_cast<U>(f & ~bit);
  }
  return static_cast<T>(f);
}

template <class T> T brev_reference(T a) {
  using U = std::make_unsigned_t<T>;
  U r = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i) {
    r = static_cast<U>(r | (((static_cast<U>(a) >> i) & 1u) << (sizeof(T) * 8 - 1 - i)));
  }
  return static_cast<T>(r);
}

// Positions and lengths concentrated on the interesting range, plus the high bits that must be
// ignored.
std::uint32_t field_arg(std::mt19937_64& rng) {
  const auto v = static_cast<std::uint32_t>(rng() % 80);
  return (rng() % 8 == 0) ? v | 0x100u * static_cast<std::uint32_t>(rng() % 16) : v;
}

template <class T> void check_bit_fields(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 50000; ++i) {
    const auto a = static_cast<T>(rng());
    const auto b = static_cast<T>(rng());
    const std::uint32_t pos = field_arg(rng);
    const std::uint32_t len = field_arg(rng);
    ASSERT_EQ(bfe<T>(a, pos, len), bfe_reference<T>(a, pos, len)) << pos << " " << len;
    ASSERT_EQ(bfi<T>(a, b, pos, len), bfi_reference<T>(a, b, pos, len)) << pos << " " << len;
    ASSERT_EQ(brev<T>(a), brev_reference<T>(a));
  }
}

TEST(NumericReference, BitFieldsMatchIsaPseudoCodeU32) {
  check_bit_fields<std::uint32_t>(1);
}
TEST(NumericReference, BitFieldsMatchIsaPseudoCodeS32) {
  check_bit_fields<std::int32_t>(2);
}
TEST(NumericReference, BitFieldsMatchIsaPseudoCodeU64) {
  check_bit_fields<std::uint64_t>(3);
}
TEST(NumericReference, BitFieldsMatchIsaPseudoCodeS64) {
  check_bit_fields<std::int64_t>(4);
}

TEST(NumericReference, BrevNarrowTypes) {
  EXPECT_EQ(brev<std::uint16_t>(0x0001), 0x8000);
  EXPECT_EQ(brev<std::uint8_t>(0x03), 0xc0);
}

template <class H> double value(H h) {
  if constexpr (std::is_same_v<H, Half>) {
    return f16_to_f64(h);
  } else {
    return bf16_to_f64(h);
  }
}

template <class H> H round_to(double d, Round r) {
  if constexpr (std::is_same_v<H, Half>) {
    return f64_to_f16(d, r);
  } else {
    return f64_to_bf16(d, r);
  }
}

// TwoSum: the rounding error of a + b is exactly representable; zero means the sum was exact.
bool sum_is_exact(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return std::isfinite(s) && (a - (s - bb)) + (b - bb) == 0;
}

// IEEE: an exact zero sum is -0 when rounding toward -inf unless both addends are +0.
double signed_zero(double sum, double x, double y, Round r) {
  if (sum != 0 || r != Round::rm) {
    return sum;
  }
  return (std::signbit(x) || std::signbit(y) || x != 0) ? -0.0 : 0.0;
}

template <class H> void check_small_float_arith(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (int i = 0; i < 100000; ++i) {
    const H a{static_cast<std::uint16_t>(rng())};
    const H b{static_cast<std::uint16_t>(rng())};
    const double x = value(a);
    const double y = value(b);
    if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y)) {
      continue;
    }
    // Products (at most 2 x 11 significant bits) are exact in double; sums are exact unless
    // the exponents are far apart (bf16 only), which TwoSum detects.
    const double sum = x + y;
    const double diff = x - y;
    const double prod = x * y;
    const bool sum_exact = sum_is_exact(x, y);
    const bool diff_exact = sum_is_exact(x, -y);
    for (const Round r : {Round::rn, Round::rz, Round::rm, Round::rp}) {
      const FpMode m{.round = r};
      if (sum_exact) {
        ASSERT_EQ(add(a, b, m), round_to<H>(signed_zero(sum, x, y, r), r)) << x << " + " << y;
      }
      if (diff_exact) {
        ASSERT_EQ(sub(a, b, m), round_to<H>(signed_zero(diff, x, -y, r), r)) << x << " - " << y;
      }
      ASSERT_EQ(mul(a, b, m), round_to<H>(prod, r)) << x << " * " << y;
    }
    ++checked;
  }
  EXPECT_GT(checked, 90000);
}

TEST(NumericReference, HalfAddSubMulAllModesAgainstExactDouble) {
  check_small_float_arith<Half>(11);
}

TEST(NumericReference, Bf16AddSubMulAllModesAgainstExactDouble) {
  check_small_float_arith<BFloat16>(12);
}

// The two exact implementations cross-check each other: double arithmetic rounded to odd (used
// for f32/f16/bf16 results) and integer significand arithmetic (used for f64 results).
template <class F> F random_value(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<F, float>) {
    return f32_from_bits(static_cast<std::uint32_t>(rng()));
  } else {
    return F{static_cast<std::uint16_t>(rng())};
  }
}

template <class F> void cross_check_exact_paths(std::uint64_t seed) {
  namespace d = gpurun::emu::numeric::detail;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 30000; ++i) {
    const double x = d::to_double(random_value<F>(rng));
    const double y = d::to_double(random_value<F>(rng));
    const double z = d::to_double(random_value<F>(rng));
    for (const Round r : {Round::rn, Round::rz, Round::rm, Round::rp}) {
      ASSERT_EQ(d::to_bits(d::narrow_fma<F>(x, y, z, r)), d::to_bits(d::soft_fma<F>(x, y, z, r)))
          << x << " " << y << " " << z;
      ASSERT_EQ(d::to_bits(d::narrow_add<F>(x, y, r)), d::to_bits(d::soft_fma<F>(x, 1.0, y, r)))
          << x << " " << y;
      ASSERT_EQ(d::to_bits(d::narrow_div<F>(x, y, r)), d::to_bits(d::soft_div<F>(x, y, r)))
          << x << " " << y;
      ASSERT_EQ(d::to_bits(d::narrow_sqrt<F>(x, r)), d::to_bits(d::soft_sqrt<F>(x, r))) << x;
    }
  }
}

TEST(NumericReference, ExactPathsAgreeF32) {
  cross_check_exact_paths<float>(21);
}
TEST(NumericReference, ExactPathsAgreeF16) {
  cross_check_exact_paths<Half>(22);
}
TEST(NumericReference, ExactPathsAgreeBf16) {
  cross_check_exact_paths<BFloat16>(23);
}

} // namespace
