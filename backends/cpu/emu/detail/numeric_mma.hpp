#pragma once
// The arithmetic of the tensor-core instructions (wmma.mma, mma.sync), as measured on an H200
// (scripts/tensor/, docs/tensor-cores.md):
// - f16, bf16 and tf32 inputs with an f32 accumulator: every product a·b is exact; the products
//   of a block of k (the whole k, except wmma's m16n16k8 tf32, which takes two blocks of 4) and
//   the accumulator are aligned to the largest exponent among them and each is truncated toward
//   zero to 25 fraction bits below it; their sum, exact, is truncated toward zero to f32. tf32
//   inputs use the top 19 bits of their f32 register (the low 13 are ignored). Exponents are the
//   formats' own: a subnormal input counts as the smallest normal exponent.
// - an f16 result: the same aligned sum rounded to nearest into f16, once; a result that rounds
//   to zero is +0 whatever its sign.
// - f64: a chain of fused multiply-adds in k order, each rounded to nearest.
// - s8/u8 into s32: exact, wrapping modulo 2^32, or clamped with .satfinite.
// A NaN operand, ∞·0 or ∞ − ∞ gives the canonical NaN; infinities otherwise propagate; a sum
// beyond the f32 range gives ∞ of its sign.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu::numeric {

/// Fraction bits kept below the largest exponent when the tensor core aligns its terms.
inline constexpr int kMmaAlignBits = 25;

/// The input formats of a floating-point tensor-core product, as the alignment sees them.
struct MmaFormat {
  int frac_bits; ///< significand bits after the point
  int emin;      ///< the exponent a subnormal (or the smallest normal) counts as
};
inline constexpr MmaFormat kMmaF16{10, -14};
inline constexpr MmaFormat kMmaBf16{7, -126};
inline constexpr MmaFormat kMmaTf32{10, -126};
inline constexpr MmaFormat kMmaF32{23, -126};

/// tf32 as the tensor core reads it: the low 13 bits of the f32 register ignored.
[[nodiscard]] inline float tf32_operand(float x) noexcept {
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & 0xffffe000u);
}

/// cvt.{rna,rn,rz}.tf32.f32 (and .relu, .satfinite): x rounded to 10 fraction bits, as f32 bits
/// with the low 13 zero. As the H200 does it: .rna (the sm_80 form) is integer arithmetic on
/// the magnitude's bits whatever they hold — 2^12 added (at most up to 0x7fffffff), the low 13
/// bits cleared — so a NaN can become ∞ or another NaN; its .satfinite then takes 2^13 off any
/// magnitude from ∞'s up. .rn and .rz give 0x7fffe000 for every NaN.
[[nodiscard]] inline std::uint32_t f32_to_tf32(float x, Round r, bool relu,
                                               bool satfinite) noexcept {
  const std::uint32_t b = std::bit_cast<std::uint32_t>(x);
  const std::uint32_t sign = b & 0x80000000u;
  std::uint32_t mag = b & 0x7fffffffu;
  if (r == Round::rna) {
    mag = (mag > 0x7fffffffu - 0x1000u ? 0x7fffffffu : mag + 0x1000u) & 0xffffe000u;
    if (satfinite && mag >= 0x7f800000u)
      mag -= 0x2000u;
    return relu && sign && mag <= 0x7f800000u ? 0 : sign | mag;
  }
  if (std::isnan(x))
    return 0x7fffe000u;
  if (relu && sign)
    return 0;
  if (mag < 0x7f800000u) {
    if (r == Round::rn)
      mag += 0x0fffu + ((mag >> 13) & 1u);
    mag &= 0xffffe000u;
  }
  if (satfinite && mag >= 0x7f800000u)
    mag = 0x7f7fe000u;
  return sign | mag;
}

namespace detail {

/// A finite non-zero operand as sig · 2^(exp − frac) with the format's exponent.
struct MmaTerm {
  std::uint64_t sig = 0;
  int exp = 0;
  int frac = 0;
  bool negative = false;
};

[[nodiscard]] inline MmaTerm mma_term(double x, MmaFormat f) noexcept {
  int e = 0;
  (void)std::frexp(x, &e); // x = m · 2^e, m in [0.5, 1)
  MmaTerm t;
  t.exp = e - 1 < f.emin ? f.emin : e - 1;
  t.frac = f.frac_bits;
  t.negative = x < 0;
  t.sig = static_cast<std::uint64_t>(std::ldexp(std::fabs(x), f.frac_bits - t.exp));
  return t;
}

/// |value| truncated to a multiple of 2^(top − kMmaAlignBits), in those units, with its sign.
[[nodiscard]] inline std::int64_t mma_aligned(const MmaTerm& t, int top) noexcept {
  const int shift = t.exp - t.frac - top + kMmaAlignBits;
  std::uint64_t v = 0;
  if (shift >= 0)
    v = t.sig << shift;
  else if (shift > -64)
    v = t.sig >> -shift;
  const auto s = static_cast<std::int64_t>(v);
  return t.negative ? -s : s;
}

/// sum · 2^scale truncated toward zero to f32 (±∞ beyond its range).
[[nodiscard]] inline float mma_truncate_f32(std::int64_t sum, int scale) noexcept {
  if (sum == 0)
    return 0.0f;
  const bool negative = sum < 0;
  std::uint64_t m =
      negative ? 0 - static_cast<std::uint64_t>(sum) : static_cast<std::uint64_t>(sum);
  const int bits = std::bit_width(m);
  const int value_exp = bits - 1 + scale;
  if (value_exp > 127)
    return negative ? -std::numeric_limits<float>::infinity()
                    : std::numeric_limits<float>::infinity();
  int keep = 24;
  if (value_exp < -126)
    keep -= -126 - value_exp;
  if (keep <= 0)
    return 0.0f; // as an f16 result that rounds to zero: +0
  if (bits > keep) {
    m >>= bits - keep;
    scale += bits - keep;
  }
  const float r = std::ldexp(static_cast<float>(m), scale);
  return negative ? -r : r;
}

} // namespace detail

/// One block of the tensor core's dot product, before it becomes a float: the aligned sum
/// (value = sum · 2^scale), or the result outright when an operand is not finite or every term
/// is zero.
struct MmaSum {
  std::int64_t sum = 0;
  int scale = 0;
  bool decided = false;
  float value = 0; ///< when decided
};

/// c + Σ a[i]·b[i] for i < n (n ≤ 16): `a` holds values of format `fa`, `b` of `fb`, `c` an f32.
[[nodiscard]] inline MmaSum mma_block(const float* a, MmaFormat fa, const float* b, MmaFormat fb,
                                      int n, float c) noexcept {
  MmaSum out;
  // Infinities and NaNs first: the sum of what is not finite decides.
  bool nan = std::isnan(c), pos_inf = c == std::numeric_limits<float>::infinity(),
       neg_inf = c == -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i]))
      nan = true;
    else if (std::isinf(a[i]) || std::isinf(b[i])) {
      if (a[i] == 0 || b[i] == 0)
        nan = true;
      else if ((a[i] < 0) != (b[i] < 0))
        neg_inf = true;
      else
        pos_inf = true;
    }
  }
  out.decided = nan || pos_inf || neg_inf;
  if (nan || (pos_inf && neg_inf)) {
    out.value = f32_from_bits(canonical_nan_f32);
    return out;
  }
  if (out.decided) {
    out.value =
        pos_inf ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
    return out;
  }

  detail::MmaTerm terms[17];
  int count = 0;
  int top = std::numeric_limits<int>::min();
  for (int i = 0; i < n && count < 16; ++i) {
    if (a[i] == 0 || b[i] == 0)
      continue;
    const auto ta = detail::mma_term(a[i], fa);
    const auto tb = detail::mma_term(b[i], fb);
    detail::MmaTerm p{ta.sig * tb.sig, ta.exp + tb.exp, ta.frac + tb.frac,
                      ta.negative != tb.negative};
    top = p.exp > top ? p.exp : top;
    terms[count++] = p;
  }
  if (c != 0) {
    terms[count] = detail::mma_term(c, kMmaF32);
    top = terms[count].exp > top ? terms[count].exp : top;
    ++count;
  }
  if (count == 0) {
    // Only zeros: IEEE's sign of a zero sum (−0 only when every term is −0).
    bool negative = std::signbit(c);
    for (int i = 0; i < n; ++i)
      negative = negative && (std::signbit(a[i]) != std::signbit(b[i]));
    out.decided = true;
    out.value = negative ? -0.0f : 0.0f;
    return out;
  }
  // At most 17 terms of at most 2^27 each: the sum is exact in an int64 (and in a double).
  for (int i = 0; i < count; ++i)
    out.sum += detail::mma_aligned(terms[i], top);
  out.scale = top - kMmaAlignBits;
  return out;
}

/// c + Σ a[i]·b[i] for i < k with an f32 accumulator, in blocks of `block` k values; each
/// block's sum truncated to f32.
[[nodiscard]] inline float mma_dot_f32(const float* a, const float* b, int k, float c, MmaFormat in,
                                       int block) noexcept {
  for (int i = 0; i < k; i += block) {
    const MmaSum s = mma_block(a + i, in, b + i, in, k - i < block ? k - i : block, c);
    c = s.decided ? s.value : detail::mma_truncate_f32(s.sum, s.scale);
  }
  return c;
}

/// FP8 (m16n8k32): the products in two blocks of 16 — k with k % 4 < 2 first, then the rest, the
/// first block's f32 result as the second's accumulator — and C added to that with an f32 add,
/// rounded to nearest. `a` and `b` hold the FP8 values (exact in f16, and aligned as such).
[[nodiscard]] inline float mma_dot_fp8(const float* a, const float* b, float c) noexcept {
  float block_a[2][16], block_b[2][16];
  for (int i = 0; i < 32; ++i) {
    const int half = (i & 3) >> 1, at = (i >> 2) * 2 + (i & 1);
    block_a[half][at] = a[i];
    block_b[half][at] = b[i];
  }
  float sum = 0.0f;
  for (int half = 0; half < 2; ++half) {
    const MmaSum s = mma_block(block_a[half], kMmaF16, block_b[half], kMmaF16, 16, sum);
    sum = s.decided ? s.value : detail::mma_truncate_f32(s.sum, s.scale);
  }
  const float d = sum + c;
  return std::isnan(d) ? f32_from_bits(canonical_nan_f32) : d;
}

/// The same with an f16 result (f16 inputs, k ≤ 16): the aligned sum rounded to nearest into
/// f16 once; a result that rounds to zero is +0.
[[nodiscard]] inline Half mma_dot_f16(const float* a, const float* b, int k, float c,
                                      MmaFormat in) noexcept {
  const MmaSum s = mma_block(a, in, b, in, k, c);
  if (s.decided)
    return f32_to_f16(s.value, Round::rn);
  const Half h = f64_to_f16(std::ldexp(static_cast<double>(s.sum), s.scale), Round::rn);
  return (h.bits & 0x7fffu) == 0 ? Half{0} : h;
}

/// f64: fused multiply-adds in k order.
[[nodiscard]] inline double mma_dot_f64(const double* a, const double* b, int k,
                                        double c) noexcept {
  for (int i = 0; i < k; ++i)
    c = std::fma(a[i], b[i], c);
  return std::isnan(c) ? f64_from_bits(canonical_nan_f64) : c;
}

/// 8-bit integers into s32: exact, wrapping, or clamped to the s32 range with .satfinite.
[[nodiscard]] inline std::int32_t mma_dot_s32(const std::int32_t* a, const std::int32_t* b, int k,
                                              std::int32_t c, bool satfinite) noexcept {
  std::int64_t sum = c;
  for (int i = 0; i < k; ++i)
    sum += std::int64_t{a[i]} * b[i];
  if (satfinite) {
    if (sum > std::numeric_limits<std::int32_t>::max())
      return std::numeric_limits<std::int32_t>::max();
    if (sum < std::numeric_limits<std::int32_t>::min())
      return std::numeric_limits<std::int32_t>::min();
  }
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(sum));
}

} // namespace gpurun::emu::numeric
