// Floating-point arithmetic of backends/cpu/emu/numeric.hpp: rounding modes against the host
// FPU switched into each mode (an independent IEEE reference), fma single rounding, .ftz, .sat,
// canonical NaNs, min/max, sign operations, testp, comparisons and the .approx forms.
#include "backends/cpu/emu/numeric.hpp"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include <gtest/gtest.h>

namespace {
using namespace gpurun::emu::numeric;
// fma, fmin, fmax, fabs, copysign and sqrt are qualified: unqualified calls with double
// arguments would pick the C library's functions from <cmath>.
namespace nm = gpurun::emu::numeric;

constexpr Round directed[] = {Round::rn, Round::rz, Round::rm, Round::rp};

int host_mode(Round r) {
  switch (r) {
  case Round::rz:
    return FE_TOWARDZERO;
  case Round::rm:
    return FE_DOWNWARD;
  case Round::rp:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

// Keeps the compiler from moving the operation across the mode switches.
template <class F> F opaque(F x) {
  asm volatile("" : "+x"(x));
  return x;
}

template <class F, class Fn> __attribute__((noinline)) F host_rounded(Round r, Fn fn) {
  std::fesetround(host_mode(r));
  F result = opaque(fn());
  std::fesetround(FE_TONEAREST);
  return result;
}

template <class F> std::uint64_t raw(F f) {
  return static_cast<std::uint64_t>(bits_of(f));
}

// Random operands that hit ties, cancellations, subnormals and overflow reasonably often.
template <class F> F random_operand(std::mt19937_64& rng) {
  using Bits = std::conditional_t<std::is_same_v<F, float>, std::uint32_t, std::uint64_t>;
  const int kind = static_cast<int>(rng() % 6);
  const bool negative = (rng() & 1u) != 0;
  F v{};
  if (kind == 0) {
    do {
      v = std::bit_cast<F>(static_cast<Bits>(rng()));
    } while (!std::isfinite(v));
    return v;
  }
  if (kind == 1) { // short significand: products and sums land on exact ties
    v = std::ldexp(static_cast<F>(rng() % 4096 + 1), static_cast<int>(rng() % 40) - 20);
  } else if (kind == 2) { // subnormal
    v = std::bit_cast<F>(static_cast<Bits>(rng() % (Bits{1} << (sizeof(F) == 4 ? 23 : 52))));
  } else if (kind == 3) { // near overflow
    v = std::ldexp(static_cast<F>(1.0 + (rng() % 1000) / 1000.0),
                   std::numeric_limits<F>::max_exponent - 1 - static_cast<int>(rng() % 3));
  } else {
    v = std::ldexp(static_cast<F>(1.0) + static_cast<F>(rng() % 1000000) / 1000000,
                   static_cast<int>(rng() % 60) - 30);
  }
  return negative ? -v : v;
}

template <class F> void expect_same(F got, F want, const char* what, F a, F b) {
  if (std::isnan(want)) {
    ASSERT_TRUE(std::isnan(got)) << what;
    ASSERT_EQ(raw(got), sizeof(F) == 4 ? canonical_nan_f32 : canonical_nan_f64) << what;
    return;
  }
  ASSERT_EQ(raw(got), raw(want)) << what << " a=" << a << " b=" << b;
}

template <class F> void cross_check_against_host(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 20000; ++i) {
    const F a = random_operand<F>(rng);
    const F b = random_operand<F>(rng);
    const F c = random_operand<F>(rng);
    for (const Round r : directed) {
      const FpMode m{.round = r};
      expect_same(add(a, b, m), host_rounded<F>(r, [&] { return opaque(a) + opaque(b); }), "add", a,
                  b);
      expect_same(sub(a, b, m), host_rounded<F>(r, [&] { return opaque(a) - opaque(b); }), "sub", a,
                  b);
      expect_same(mul(a, b, m), host_rounded<F>(r, [&] { return opaque(a) * opaque(b); }), "mul", a,
                  b);
      expect_same(div(a, b, m), host_rounded<F>(r, [&] { return opaque(a) / opaque(b); }), "div", a,
                  b);
      expect_same(nm::sqrt(std::fabs(a), m),
                  host_rounded<F>(r, [&] { return std::sqrt(opaque(std::fabs(a))); }), "sqrt", a,
                  b);
      expect_same(nm::fma(a, b, c, m),
                  host_rounded<F>(r, [&] { return std::fma(opaque(a), opaque(b), opaque(c)); }),
                  "fma", a, b);
    }
  }
}

TEST(NumericFloat, HostReferenceHonoursModes) {
  // Guards the reference itself: if the mode switch were optimised away these would agree.
  const float one = 1.0f;
  const float tiny = std::ldexp(1.0f, -30);
  EXPECT_EQ(bits_of(host_rounded<float>(Round::rp, [&] { return opaque(one) + opaque(tiny); })),
            0x3f800001u);
  EXPECT_EQ(bits_of(host_rounded<float>(Round::rn, [&] { return opaque(one) + opaque(tiny); })),
            0x3f800000u);
}

TEST(NumericFloat, F32AllModesMatchIeeeReference) {
  cross_check_against_host<float>(1);
}
TEST(NumericFloat, F64AllModesMatchIeeeReference) {
  cross_check_against_host<double>(2);
}

TEST(NumericFloat, FmaRoundsOnce) {
  const float a = 1.0f + std::ldexp(1.0f, -12);
  const float c = -(1.0f + std::ldexp(1.0f, -11));
  const volatile float product = a * a; // rounded separately: the 2^-24 term is lost
  EXPECT_EQ(product + c, 0.0f);
  EXPECT_EQ(nm::fma(a, a, c), std::ldexp(1.0f, -24));
  EXPECT_EQ(nm::fma(a, a, c, {.round = Round::rz}), std::ldexp(1.0f, -24));
  const double x = 1.0 + std::ldexp(1.0, -27);
  EXPECT_EQ(nm::fma(x, x, -(1.0 + std::ldexp(1.0, -26))), std::ldexp(1.0, -54));
}

TEST(NumericFloat, DirectedAddPinned) {
  const float tiny = std::ldexp(1.0f, -30);
  EXPECT_EQ(bits_of(add(1.0f, tiny, {.round = Round::rn})), 0x3f800000u);
  EXPECT_EQ(bits_of(add(1.0f, tiny, {.round = Round::rp})), 0x3f800001u);
  EXPECT_EQ(bits_of(add(-1.0f, -tiny, {.round = Round::rm})), 0xbf800001u);
  EXPECT_EQ(bits_of(add(-1.0f, -tiny, {.round = Round::rz})), 0xbf800000u);
  // An exact zero sum is +0, except when rounding toward -inf.
  EXPECT_EQ(bits_of(add(1.5f, -1.5f, {.round = Round::rn})), 0x00000000u);
  EXPECT_EQ(bits_of(add(1.5f, -1.5f, {.round = Round::rm})), 0x80000000u);
  EXPECT_EQ(bits_of(sub(2.0, 2.0, {.round = Round::rm})), 0x8000000000000000ull);
}

TEST(NumericFloat, DirectedDivisionAndSqrtPinned) {
  EXPECT_EQ(bits_of(div(1.0f, 3.0f, {.round = Round::rn})), 0x3eaaaaabu);
  EXPECT_EQ(bits_of(div(1.0f, 3.0f, {.round = Round::rz})), 0x3eaaaaaau);
  EXPECT_EQ(bits_of(div(1.0f, 3.0f, {.round = Round::rp})), 0x3eaaaaabu);
  EXPECT_EQ(bits_of(div(-1.0f, 3.0f, {.round = Round::rm})), 0xbeaaaaabu);
  EXPECT_EQ(bits_of(nm::sqrt(2.0f, {.round = Round::rz})), 0x3fb504f3u);
  EXPECT_EQ(bits_of(nm::sqrt(2.0f, {.round = Round::rp})), 0x3fb504f4u);
  EXPECT_EQ(nm::sqrt(4.0f, {.round = Round::rp}), 2.0f);
  EXPECT_EQ(bits_of(nm::sqrt(-0.0f, {.round = Round::rz})), 0x80000000u);
  EXPECT_EQ(bits_of(nm::sqrt(-1.0f, {.round = Round::rz})), canonical_nan_f32);
  EXPECT_EQ(rcp(4.0, {.round = Round::rz}), 0.25);
  EXPECT_EQ(std::nextafter(rcp(3.0, {.round = Round::rz}), 1.0), rcp(3.0, {.round = Round::rp}));
}

TEST(NumericFloat, DirectedOverflowF64) {
  const double max = std::numeric_limits<double>::max();
  EXPECT_EQ(add(max, max, {.round = Round::rz}), max);
  EXPECT_EQ(add(max, max, {.round = Round::rm}), max);
  EXPECT_TRUE(std::isinf(add(max, max, {.round = Round::rp})));
  EXPECT_EQ(mul(-max, 2.0, {.round = Round::rp}), -max);
  EXPECT_TRUE(std::isinf(mul(-max, 2.0, {.round = Round::rm})));
  EXPECT_EQ(div(max, 0.5, {.round = Round::rz}), max);
}

TEST(NumericFloat, FtzFlushesInputsAndOutputs) {
  const float sub = f32_from_bits(0x00000005u);
  EXPECT_EQ(bits_of(add(sub, 0.0f, {.ftz = true})), 0u);
  EXPECT_EQ(bits_of(add(sub, 0.0f, {})), 0x00000005u);
  const float a = std::ldexp(1.0f, -100);
  const float b = std::ldexp(1.0f, -30);
  EXPECT_EQ(mul(a, b, {}), std::ldexp(1.0f, -130));
  EXPECT_EQ(bits_of(mul(a, b, {.ftz = true})), 0u);
  EXPECT_EQ(bits_of(mul(-a, b, {.ftz = true})), 0x80000000u);
  EXPECT_EQ(bits_of(mul(-a, b, {.round = Round::rz, .ftz = true})), 0x80000000u);
  // f64 keeps subnormals even when asked to flush.
  EXPECT_EQ(mul(std::ldexp(1.0, -1000), std::ldexp(1.0, -50), {.ftz = true}),
            std::ldexp(1.0, -1050));
}

TEST(NumericFloat, SatClampsResults) {
  EXPECT_EQ(add(0.75f, 0.5f, {.sat = true}), 1.0f);
  EXPECT_EQ(bits_of(add(-2.0f, 0.5f, {.sat = true})), 0u);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(bits_of(sub(inf, inf, {.sat = true})), 0u);
  EXPECT_EQ(mul(0.5f, 0.5f, {.sat = true}), 0.25f);
  EXPECT_EQ(nm::fma(2.0f, 2.0f, 1.0f, {.sat = true}), 1.0f);
  // [+0.0, 1.0]: a -0 result becomes +0 (as the GPU does), in every width.
  EXPECT_EQ(bits_of(add(-0.0f, -0.0f, {.sat = true})), 0u);
  EXPECT_EQ(bits_of(add(-0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(std::signbit(add(-0.0, -0.0, {.sat = true})), false);
  EXPECT_EQ(add(Half{0x8000}, Half{0x8000}, {.sat = true}).bits, 0u);
  EXPECT_EQ(nm::saturate(BFloat16{0x8000}).bits, 0u);
}

TEST(NumericFloat, NanResultsAreCanonical) {
  const float payload = f32_from_bits(0xffc01234u);
  EXPECT_EQ(bits_of(add(payload, 1.0f)), canonical_nan_f32);
  EXPECT_EQ(bits_of(mul(payload, 1.0f, {.round = Round::rz})), canonical_nan_f32);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(bits_of(sub(inf, inf)), canonical_nan_f32);
  EXPECT_EQ(bits_of(div(0.0f, 0.0f)), canonical_nan_f32);
  EXPECT_EQ(bits_of(nm::fma(0.0, std::numeric_limits<double>::infinity(), 1.0)), canonical_nan_f64);
  EXPECT_EQ(add(Half{0x7c01}, Half{0x3c00}).bits, canonical_nan_f16);
}

TEST(NumericFloat, MinMaxNanAndSignedZero) {
  const float nan = std::nanf("");
  EXPECT_EQ(nm::fmin(nan, 1.0f), 1.0f);
  EXPECT_EQ(nm::fmin(1.0f, nan), 1.0f);
  EXPECT_EQ(nm::fmax(nan, -3.0f), -3.0f);
  EXPECT_EQ(bits_of(nm::fmin(nan, nan)), canonical_nan_f32);
  EXPECT_EQ(bits_of(nm::fmin(nan, 1.0f, false, NanMode::propagate)), canonical_nan_f32);
  EXPECT_EQ(bits_of(nm::fmax(1.0f, nan, false, NanMode::propagate)), canonical_nan_f32);
  EXPECT_EQ(bits_of(nm::fmin(-0.0f, 0.0f)), 0x80000000u);
  EXPECT_EQ(bits_of(nm::fmin(0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(bits_of(nm::fmax(-0.0f, 0.0f)), 0u);
  EXPECT_EQ(bits_of(nm::fmax(0.0f, -0.0f)), 0u);
  EXPECT_EQ(nm::fmin(2.0, -7.0), -7.0);
  EXPECT_EQ(nm::fmax(2.0, -7.0), 2.0);
  EXPECT_EQ(bits_of(nm::fmin(f32_from_bits(0x80000003u), 0.0f, true)), 0x80000000u);
  EXPECT_EQ(nm::fmin(Half{0x4000}, Half{0x3c00}).bits, 0x3c00u);
}

TEST(NumericFloat, AbsNegCopysignAreBitOperations) {
  EXPECT_EQ(bits_of(nm::fabs(-0.0f)), 0u);
  // abs.f32 and neg.f32 of a NaN make the canonical NaN on the GPU (tools/approx/nan_payloads.cu).
  EXPECT_EQ(bits_of(fneg(f32_from_bits(0x7fc01234u))), 0x7fffffffu);
  EXPECT_EQ(bits_of(nm::fabs(f32_from_bits(0xffc01234u))), 0x7fffffffu);
  EXPECT_EQ(bits_of(nm::fabs(f32_from_bits(0x80000007u), true)), 0u);
  EXPECT_EQ(bits_of(fneg(f32_from_bits(0x00000007u), true)), 0x80000000u);
  EXPECT_EQ(fneg(2.5), -2.5);
  EXPECT_EQ(nm::copysign(-1.0f, 2.0f), -2.0f);
  EXPECT_EQ(nm::copysign(1.0, -3.0), 3.0);
  EXPECT_EQ(fneg(Half{0x3c00}).bits, 0xbc00u);
}

// f64 arithmetic passes a NaN operand through, quieted: the second source first for add, sub, mul,
// fma and min/max, the first for div (measured on an H200: tools/approx/nan_payloads.cu).
TEST(NumericFloat, F64NanPayloadsPassThrough) {
  const double qa = f64_from_bits(0x7ff8123456789abcull), sb = f64_from_bits(0xfff0123456789abcull);
  const double one = 1.0;
  EXPECT_EQ(bits_of(nm::add(qa, one, {})), 0x7ff8123456789abcull);
  EXPECT_EQ(bits_of(nm::add(one, sb, {})), 0xfff8123456789abcull); // signalling: quieted
  EXPECT_EQ(bits_of(nm::add(qa, sb, {})), 0xfff8123456789abcull);  // both: the second
  EXPECT_EQ(bits_of(nm::mul(sb, qa, {})), 0x7ff8123456789abcull);
  EXPECT_EQ(bits_of(nm::fma(qa, sb, qa, {})), 0xfff8123456789abcull);
  EXPECT_EQ(bits_of(nm::div(qa, sb, {})), 0x7ff8123456789abcull); // div: the first
  EXPECT_EQ(bits_of(nm::sqrt(sb, {})), 0xfff8123456789abcull);
  EXPECT_EQ(bits_of(nm::fmin(qa, sb, false, nm::NanMode::ignore)), 0xfff8123456789abcull);
  EXPECT_EQ(bits_of(nm::fmin(qa, one, false, nm::NanMode::ignore)), bits_of(one));
  // A NaN made from numbers is the canonical one; f32 NaN results are always canonical.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(bits_of(nm::add(inf, -inf, {})), canonical_nan_f64);
  EXPECT_EQ(bits_of(nm::add(f32_from_bits(0x7fc12345u), 1.0f, {})), canonical_nan_f32);
}

TEST(NumericFloat, TestpClasses) {
  const float sub = f32_from_bits(1u);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::nanf("");
  EXPECT_TRUE(testp(FpClass::normal, 0.0f)); // zero counts as normal in PTX
  EXPECT_TRUE(testp(FpClass::normal, -1.0f));
  EXPECT_FALSE(testp(FpClass::normal, sub));
  EXPECT_TRUE(testp(FpClass::subnormal, sub));
  EXPECT_FALSE(testp(FpClass::subnormal, 0.0f));
  EXPECT_TRUE(testp(FpClass::infinite, -inf));
  EXPECT_FALSE(testp(FpClass::finite, inf));
  EXPECT_FALSE(testp(FpClass::finite, nan));
  EXPECT_TRUE(testp(FpClass::number, inf));
  EXPECT_TRUE(testp(FpClass::notanumber, nan));
  EXPECT_FALSE(testp(FpClass::normal, nan));
  EXPECT_TRUE(testp(FpClass::subnormal, std::numeric_limits<double>::denorm_min()));
  EXPECT_TRUE(testp(FpClass::finite, std::numeric_limits<double>::max()));
}

TEST(NumericFloat, SetpOrderedAndUnordered) {
  const float nan = std::nanf("");
  EXPECT_FALSE(compare(Cmp::lt, nan, 1.0f));
  EXPECT_TRUE(compare(Cmp::ltu, nan, 1.0f));
  EXPECT_FALSE(compare(Cmp::ne, nan, 1.0f));
  EXPECT_TRUE(compare(Cmp::neu, nan, 1.0f));
  EXPECT_FALSE(compare(Cmp::equ, 2.0f, 1.0f));
  EXPECT_TRUE(compare(Cmp::equ, nan, nan));
  EXPECT_TRUE(compare(Cmp::eq, -0.0f, 0.0f));
  EXPECT_TRUE(compare(Cmp::num, 1.0, 2.0));
  EXPECT_FALSE(compare(Cmp::num, 1.0, std::nan("")));
  EXPECT_TRUE(compare(Cmp::nan, 1.0, std::nan("")));
  EXPECT_TRUE(compare(Cmp::geu, 3.0, 2.0));
  EXPECT_FALSE(compare(Cmp::gtu, 2.0, 2.0));
  EXPECT_TRUE(compare(Cmp::le, Half{0x3c00}, Half{0x4000}));
}

TEST(NumericFloat, HalfAndBf16Arithmetic) {
  const Half one{0x3c00};
  const Half ulp{0x1400}; // 2^-10
  EXPECT_EQ(add(one, ulp).bits, 0x3c01u);
  EXPECT_EQ(add(one, Half{0x1000}).bits, 0x3c00u);                       // +2^-11: tie to even
  EXPECT_EQ(add(one, Half{0x1000}, {.round = Round::rp}).bits, 0x3c01u); // directed
  EXPECT_EQ(mul(Half{0x5cb0}, Half{0x5cb0}).bits, 0x7c00u);              // 300*300 overflows
  EXPECT_EQ(mul(Half{0x5cb0}, Half{0x5cb0}, {.round = Round::rz}).bits, 0x7bffu);
  // fma: (1+2^-6)^2 - (1+2^-5) = 2^-12 exactly; a separate multiply would lose it.
  const Half a{0x3c10};
  EXPECT_EQ(mul(a, a).bits, 0x3c20u);
  EXPECT_EQ(nm::fma(a, a, Half{0xbc20}).bits, 0x0c00u);
  EXPECT_EQ(add(Half{0x3c00}, Half{0x3c00}, {.sat = true}).bits, 0x3c00u);
  EXPECT_EQ(add(BFloat16{0x3f80}, BFloat16{0x3f80}).bits, 0x4000u);
  EXPECT_EQ(add(BFloat16{0x3f80}, BFloat16{0x3b80}).bits, 0x3f80u); // 1 + 2^-8: tie to even
  EXPECT_EQ(mul(BFloat16{0x4040}, BFloat16{0x4040}).bits, 0x4110u); // 3 * 3 = 9
}

TEST(NumericFloat, ApproxSpecialValues) {
  EXPECT_EQ(ex2_approx(10.0f, false), 1024.0f);
  EXPECT_EQ(lg2_approx(8.0f, false), 3.0f);
  EXPECT_EQ(rsqrt_approx(4.0f, false), 0.5f);
  EXPECT_EQ(sin_approx(0.0f, false), 0.0f);
  EXPECT_EQ(cos_approx(0.0f, false), 1.0f);
  EXPECT_EQ(tanh_approx(20.0f), 1.0f);
  EXPECT_TRUE(std::isinf(rcp_approx(0.0f, false)));
  EXPECT_EQ(lg2_approx(0.0f, false), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(bits_of(lg2_approx(-1.0f, false)), canonical_nan_f32);
  EXPECT_EQ(bits_of(rsqrt_approx(-1.0f, false)), canonical_nan_f32);
  EXPECT_EQ(bits_of(ex2_approx(-200.0f, true)), 0u); // 2^-200 underflows; 2^-140 would flush
  EXPECT_EQ(bits_of(ex2_approx(-140.0f, true)), 0u);
  EXPECT_NE(bits_of(ex2_approx(-140.0f, false)), 0u);
  EXPECT_EQ(div_full(1.0f, 4.0f, false), 0.25f);
  EXPECT_EQ(rcp_approx_ftz_f64(8.0), 0.125);
  EXPECT_EQ(rsqrt_approx(16.0), 0.25);
}

// Results the H200 gives (tools/approx; every input of both instructions checked there).
TEST(NumericFloat, Lg2AndTanhAsTheGpu) {
  EXPECT_EQ(lg2_approx(0x1p100f, true), 100.0f);
  // Below 1/2 the fraction is complemented: log2(1/4) is the largest f32 below -2.
  EXPECT_EQ(lg2_approx(0.25f, true), -0x1.fffffep+0f);
  EXPECT_EQ(lg2_approx(0.5f, true), -0x1.fffffcp-1f);
  EXPECT_EQ(lg2_approx(1.0f - 0x1p-24f, true), -0x1.968p-27f); // [1/2, 1) keeps T's low bits
  EXPECT_EQ(lg2_approx(0x1p-130f, false), -130.0f);            // subnormal: scaled by 2^24
  EXPECT_EQ(lg2_approx(0x1p-130f, true), -std::numeric_limits<float>::infinity());
  EXPECT_EQ(tanh_approx(0x1p-9f), 0x1p-9f); // below 2^-8: x itself
  EXPECT_EQ(bits_of(tanh_approx(f32_from_bits(0x00000123))), 0x00000123u);
  EXPECT_EQ(tanh_approx(1.0f), 0x1.85f09p-1f);
  EXPECT_EQ(tanh_approx(-1.0f), -0x1.85f09p-1f);
  EXPECT_EQ(tanh_approx(0x1.ff5c28p+2f), 0x1.fffff6p-1f);
  EXPECT_EQ(tanh_approx(8.0f), 1.0f);
  // On [1, 2) the unit keeps 20 mantissa bits: the 8 inputs that share them share the result.
  for (std::uint32_t i = 1; i < 8; ++i)
    EXPECT_EQ(tanh_approx(f32_from_bits(0x3fa34560u + i)), tanh_approx(f32_from_bits(0x3fa34560u)));
  EXPECT_NE(tanh_approx(f32_from_bits(0x3fa34568u)), tanh_approx(f32_from_bits(0x3fa34560u)));
}

TEST(NumericFloat, ApproxWithinDocumentedError) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> dist(-20.0f, 20.0f);
  const long double bound = std::ldexp(1.0L, -22);
  for (int i = 0; i < 5000; ++i) {
    const float x = dist(rng);
    const auto rel = [](long double got, long double want) {
      return want == 0 ? std::fabs(got) : std::fabs((got - want) / want);
    };
    ASSERT_LE(rel(ex2_approx(x, false), std::exp2(static_cast<long double>(x))), bound);
    // sin and cos: an absolute error, at most 2^-20.5 on [-pi, pi] (the PTX ISA's bound).
    const float a = x * 0.15f;
    ASSERT_LE(std::fabs(sin_approx(a, false) - std::sin(static_cast<long double>(a))),
              std::exp2(-20.5L));
    ASSERT_LE(std::fabs(cos_approx(a, false) - std::cos(static_cast<long double>(a))),
              std::exp2(-20.5L));
    // tanh: relative 2^-10.987; lg2: absolute 2^-22 on (0.5, 2), relative 2^-22 elsewhere.
    ASSERT_LE(rel(tanh_approx(x), std::tanh(static_cast<long double>(x))), std::exp2(-10.987L));
    ASSERT_LE(rel(tanh_approx(a), std::tanh(static_cast<long double>(a))), std::exp2(-10.987L));
    const float y = std::fabs(x) + 0.5f;
    const long double lg2 = std::log2(static_cast<long double>(y));
    if (y < 2.0f)
      ASSERT_LE(std::fabs(lg2_approx(y, false) - lg2), bound);
    else
      ASSERT_LE(rel(lg2_approx(y, false), lg2), bound);
    ASSERT_LE(rel(rsqrt_approx(y, false), 1.0L / std::sqrt(static_cast<long double>(y))), bound);
    ASSERT_LE(rel(div_approx(x, y, false), static_cast<long double>(x) / y), bound);
  }
}

} // namespace
