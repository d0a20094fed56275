#pragma once
// PTX numeric semantics for the emulator: every function computes what one lane of one PTX
// instruction computes, bit for bit where the ISA defines the result. They are called per lane
// from the interpreter's hot loop, so they are header-inline, allocation-free and never throw;
// the rounding mode and flags are plain arguments so that a call with constant arguments folds.
// Call them qualified (numeric::fma, numeric::fmin …): unqualified, a call with double arguments
// can resolve to the C library's ::fma / ::fmin / ::fabs / ::copysign from <cmath> instead.
//
// Where the ISA leaves the result open, these are the choices (not yet confirmed on a GPU; a
// gpu-labelled test comparing them with the hardware would settle them):
// - Any float result that is NaN (arithmetic and float -> float cvt) is the canonical NaN:
//   0x7fffffff (f32), 0x7fffffffffffffff (f64), 0x7fff (f16, bf16). abs/neg/copysign are bit
//   operations and keep the payload. min/max of two NaNs (or .NaN with one) is canonical.
// - Integer division by zero does not trap: div.u and div.s give all ones (-1 for every
//   dividend, as measured on an H200) and rem.u/rem.s give the dividend. INT_MIN / -1 is INT_MIN
//   and INT_MIN % -1 is 0.
// - float -> int conversions saturate to the destination range and map NaN to 0 (ISA-defined).
// - `.approx` and div.full are computed in double precision and rounded once, so they are at
//   least as accurate as the GPU's documented bounds but may differ from it in the last bits.
// Everything else (every rounding mode, .ftz, .sat, subnormals, overflow) is exact IEEE / PTX.

#include <bit>
#include <cstdint>
#include <type_traits>

namespace gpurun::emu::numeric {

// ---------------------------------------------------------------------------------------------
// Types and modes

/// An IEEE binary16 value as its bit pattern (PTX .f16).
struct Half {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(Half, Half) = default;
};

/// A bfloat16 value as its bit pattern (PTX .bf16).
struct BFloat16 {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(BFloat16, BFloat16) = default;
};

/// Floating-point rounding: .rn .rz .rm .rp and .rna (nearest, ties away; cvt to f16/tf32 only).
/// For float -> integer and integral rounding, .rni .rzi .rmi .rpi map to rn rz rm rp.
enum class Round : std::uint8_t { rn, rz, rm, rp, rna };

/// The modifiers of a floating-point instruction. `ftz` flushes subnormal f32 inputs and outputs
/// to sign-preserving zero (ignored for f64); `sat` clamps the result to [0, 1] with NaN -> +0.
struct FpMode {
  Round round = Round::rn;
  bool ftz = false;
  bool sat = false;
};

/// The modifiers of a cvt. `integral` marks .rni/.rzi/.rmi/.rpi on a float -> float conversion:
/// round to an integral value (in `round`'s direction) instead of to the destination precision.
struct CvtMode {
  Round round = Round::rn;
  bool ftz = false;
  bool sat = false;
  bool integral = false;
  bool relu = false;      ///< f16/bf16 destination: see relu()
  bool satfinite = false; ///< f16/bf16 destination: see satfinite()
};

/// min/max: `.NaN` makes any NaN input produce the canonical NaN instead of the other operand.
enum class NanMode : std::uint8_t { ignore, propagate };

/// setp / set comparison operators (ordered, unsigned aliases and unordered float forms).
enum class Cmp : std::uint8_t {
  eq,
  ne,
  lt,
  le,
  gt,
  ge, // signed/float ordered, bit eq/ne
  lo,
  ls,
  hi,
  hs, // unsigned
  equ,
  neu,
  ltu,
  leu,
  gtu,
  geu,
  num,
  nan, // float unordered
};

/// setp's .and/.or/.xor combination with a source predicate.
enum class BoolOp : std::uint8_t { none, and_, or_, xor_ };

/// testp properties.
enum class FpClass : std::uint8_t { finite, infinite, number, notanumber, normal, subnormal };

/// prmt modes (`generic` is the default mode without a suffix).
enum class PrmtMode : std::uint8_t { generic, f4e, b4e, rc8, ecl, ecr, rc16 };

/// shf modes.
enum class ShfMode : std::uint8_t { clamp, wrap };

/// The integer type that holds the wide product of two T (mul.wide / mad.wide).
template <class T>
using Wide = std::conditional_t<std::is_signed_v<T>,
                                std::conditional_t<sizeof(T) == 2, std::int32_t, std::int64_t>,
                                std::conditional_t<sizeof(T) == 2, std::uint32_t, std::uint64_t>>;

/// The result of a carry-chain add/sub: the value and the carry (borrow for sub) out, CC.CF.
template <class T> struct CarryResult {
  T value;
  bool carry;
};

// ---------------------------------------------------------------------------------------------
// Bit views and canonical values

[[nodiscard]] constexpr std::uint32_t bits_of(float f) noexcept {
  return std::bit_cast<std::uint32_t>(f);
}
[[nodiscard]] constexpr std::uint64_t bits_of(double d) noexcept {
  return std::bit_cast<std::uint64_t>(d);
}
[[nodiscard]] constexpr float f32_from_bits(std::uint32_t b) noexcept {
  return std::bit_cast<float>(b);
}
[[nodiscard]] constexpr double f64_from_bits(std::uint64_t b) noexcept {
  return std::bit_cast<double>(b);
}

inline constexpr std::uint32_t canonical_nan_f32 = 0x7fffffffu;
inline constexpr std::uint64_t canonical_nan_f64 = 0x7fffffffffffffffull;
inline constexpr std::uint16_t canonical_nan_f16 = 0x7fffu;
inline constexpr std::uint16_t canonical_nan_bf16 = 0x7fffu;

// ---------------------------------------------------------------------------------------------
// Floating-point conversions (cvt between float types); all exact per rounding mode.

[[nodiscard]] inline float f16_to_f32(Half h) noexcept;
[[nodiscard]] inline double f16_to_f64(Half h) noexcept;
[[nodiscard]] inline float bf16_to_f32(BFloat16 h) noexcept;
[[nodiscard]] inline double bf16_to_f64(BFloat16 h) noexcept;
[[nodiscard]] inline Half f32_to_f16(float f, Round r) noexcept;
[[nodiscard]] inline Half f64_to_f16(double d, Round r) noexcept;
[[nodiscard]] inline BFloat16 f32_to_bf16(float f, Round r) noexcept;
[[nodiscard]] inline BFloat16 f64_to_bf16(double d, Round r) noexcept;
[[nodiscard]] inline float f64_to_f32(double d, Round r) noexcept;

/// Round to an integral value in the same format (cvt.rni.f32.f32, cvt.rzi.f64.f64 …).
[[nodiscard]] inline float round_integral(float f, Round r) noexcept;
[[nodiscard]] inline double round_integral(double d, Round r) noexcept;

/// .ftz: subnormal -> zero of the same sign (f32 only; PTX f64 never flushes).
[[nodiscard]] inline float flush_subnormal(float f) noexcept;
/// .sat: clamp to [0, 1]; NaN -> +0.
[[nodiscard]] inline float saturate(float f) noexcept;
[[nodiscard]] inline double saturate(double d) noexcept;
[[nodiscard]] inline Half saturate(Half h) noexcept;
[[nodiscard]] inline BFloat16 saturate(BFloat16 h) noexcept;

/// cvt's .relu on an f16/bf16 result: negative (-0 included) -> +0, NaN -> canonical NaN.
template <class H> [[nodiscard]] inline H relu(H h) noexcept;
/// cvt's .satfinite on an f16/bf16 result: an infinity -> the largest finite value of its sign,
/// NaN -> canonical NaN.
template <class H> [[nodiscard]] inline H satfinite(H h) noexcept;

/// The FP8 element formats of cvt's .e4m3x2 and .e5m2x2.
enum class Fp8 : std::uint8_t { e4m3, e5m2 };
/// cvt.rn.satfinite{.relu} to FP8 from an exact value (f32 or f16 widened): round to nearest
/// even, magnitudes beyond the largest finite value (infinities too) -> the largest, NaN -> 0x7f;
/// with `relu` negative values -> +0.
[[nodiscard]] inline std::uint8_t to_fp8(double v, Fp8 f, bool relu) noexcept;
/// cvt.rn{.relu}.f16x2.e4m3x2/.e5m2x2 for one element: exact; NaN -> canonical f16 NaN.
[[nodiscard]] inline Half fp8_to_f16(std::uint8_t v, Fp8 f, bool relu) noexcept;

/// Integer -> float with exact rounding in every mode (I is any 8..64-bit integer type).
template <class I> [[nodiscard]] inline float int_to_f32(I v, Round r) noexcept;
template <class I> [[nodiscard]] inline double int_to_f64(I v, Round r) noexcept;
template <class I> [[nodiscard]] inline Half int_to_f16(I v, Round r) noexcept;
template <class I> [[nodiscard]] inline BFloat16 int_to_bf16(I v, Round r) noexcept;

/// Float -> integer: round in `r` (rni/rzi/rmi/rpi), saturate to I's range, NaN -> 0.
template <class I> [[nodiscard]] inline I f32_to_int(float f, Round r) noexcept;
template <class I> [[nodiscard]] inline I f64_to_int(double d, Round r) noexcept;

/// Integer -> integer: truncate or sign/zero extend; with `sat` clamp to D's range.
template <class D, class S> [[nodiscard]] inline D int_to_int(S v, bool sat) noexcept;

/// The whole cvt instruction: D and S are any of u8..u64, s8..s64, Half, BFloat16, float,
/// double. Applies .ftz (f32 source and destination), .sat and integral rounding as PTX does.
template <class D, class S> [[nodiscard]] inline D cvt(S v, CvtMode m) noexcept;

// ---------------------------------------------------------------------------------------------
// Floating-point arithmetic. F is float, double, Half or BFloat16. NaN results are canonical.

template <class F> [[nodiscard]] inline F add(F a, F b, FpMode m = {}) noexcept;
template <class F> [[nodiscard]] inline F sub(F a, F b, FpMode m = {}) noexcept;
template <class F> [[nodiscard]] inline F mul(F a, F b, FpMode m = {}) noexcept;
/// fma / mad.f32 with a rounding modifier: a * b + c with a single rounding.
template <class F> [[nodiscard]] inline F fma(F a, F b, F c, FpMode m = {}) noexcept;
/// div.rn/.rz/.rm/.rp (IEEE); float and double only.
template <class F> [[nodiscard]] inline F div(F a, F b, FpMode m = {}) noexcept;
/// sqrt.rn/… (IEEE); float and double only.
template <class F> [[nodiscard]] inline F sqrt(F a, FpMode m = {}) noexcept;
/// rcp.rn/… (IEEE 1/a); float and double only.
template <class F> [[nodiscard]] inline F rcp(F a, FpMode m = {}) noexcept;

/// min/max: one NaN operand -> the other; two NaNs (or any with NanMode::propagate) -> canonical
/// NaN; -0 is smaller than +0. `ftz` flushes subnormal f32 inputs.
template <class F>
[[nodiscard]] inline F fmin(F a, F b, bool ftz = false, NanMode n = NanMode::ignore) noexcept;
template <class F>
[[nodiscard]] inline F fmax(F a, F b, bool ftz = false, NanMode n = NanMode::ignore) noexcept;

/// min/max.xorsign.abs: the min/max of |a| and |b| (by fmin/fmax's rules) with the sign
/// bit a XOR b; a NaN result is the canonical NaN, the modifiers do not apply to it.
template <class F>
[[nodiscard]] inline F minmax_xorsign_abs(F a, F b, bool max, bool ftz, NanMode n) noexcept;
/// abs/neg are bit operations (NaN payload kept); with `ftz` a subnormal input becomes ±0 first.
template <class F> [[nodiscard]] inline F fabs(F a, bool ftz = false) noexcept;
template <class F> [[nodiscard]] inline F fneg(F a, bool ftz = false) noexcept;
/// copysign.f32/.f64 a, b: |b| with the sign of a (note PTX's operand order).
template <class F> [[nodiscard]] inline F copysign(F sign_source, F magnitude) noexcept;
template <class F> [[nodiscard]] inline bool testp(FpClass c, F a) noexcept;

// .approx and .full forms; not bit-exact with the GPU (see the top of this file).
[[nodiscard]] inline float rcp_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline double rcp_approx_ftz_f64(double a) noexcept;
[[nodiscard]] inline float sqrt_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline float rsqrt_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline double rsqrt_approx(double a) noexcept;
[[nodiscard]] inline float ex2_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline float lg2_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline float sin_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline float cos_approx(float a, bool ftz) noexcept;
[[nodiscard]] inline float tanh_approx(float a) noexcept;
[[nodiscard]] inline float div_approx(float a, float b, bool ftz) noexcept;
[[nodiscard]] inline float div_full(float a, float b, bool ftz) noexcept;

// ---------------------------------------------------------------------------------------------
// Integer arithmetic. T is the instruction type (std::int32_t for .s32, std::uint16_t for .u16,
// …); b-types use the unsigned type. Wrapping unless stated.

template <class T> [[nodiscard]] inline T iadd(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T isub(T a, T b) noexcept;
/// add.sat.s32 / sub.sat.s32: clamp to [INT32_MIN, INT32_MAX].
[[nodiscard]] inline std::int32_t add_sat(std::int32_t a, std::int32_t b) noexcept;
[[nodiscard]] inline std::int32_t sub_sat(std::int32_t a, std::int32_t b) noexcept;

template <class T> [[nodiscard]] inline T mul_lo(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T mul_hi(T a, T b) noexcept;
/// mul.wide: 16 -> 32 and 32 -> 64 bits (T is 16- or 32-bit).
template <class T> [[nodiscard]] inline Wide<T> mul_wide(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T mad_lo(T a, T b, T c) noexcept;
template <class T> [[nodiscard]] inline T mad_hi(T a, T b, T c) noexcept;
template <class T> [[nodiscard]] inline Wide<T> mad_wide(T a, T b, Wide<T> c) noexcept;
/// mad.hi.sat.s32: the high word of a * b plus c, saturated.
[[nodiscard]] inline std::int32_t mad_hi_sat(std::int32_t a, std::int32_t b,
                                             std::int32_t c) noexcept;
/// mul24.lo/.hi and mad24 (T is std::int32_t or std::uint32_t): 24-bit operands, 48-bit product.
template <class T> [[nodiscard]] inline T mul24_lo(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T mul24_hi(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T mad24_lo(T a, T b, T c) noexcept;
template <class T> [[nodiscard]] inline T mad24_hi(T a, T b, T c) noexcept;

/// div/rem with the divide-by-zero and overflow results described at the top of this file.
template <class T> [[nodiscard]] inline T idiv(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T irem(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T iabs(T a) noexcept; ///< abs(INT_MIN) = INT_MIN
template <class T> [[nodiscard]] inline T ineg(T a) noexcept;
template <class T> [[nodiscard]] inline T imin(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T imax(T a, T b) noexcept;
/// sad: c + |a - b|.
template <class T> [[nodiscard]] inline T sad(T a, T b, T c) noexcept;

/// shl / shr: amounts >= the width give 0 (shl, shr.u) or the sign fill (shr.s).
template <class T> [[nodiscard]] inline T shl(T a, std::uint32_t n) noexcept;
template <class T> [[nodiscard]] inline T shr(T a, std::uint32_t n) noexcept;
/// shf.l / shf.r (32-bit funnel shift of b:a).
[[nodiscard]] inline std::uint32_t shf_l(std::uint32_t a, std::uint32_t b, std::uint32_t n,
                                         ShfMode m) noexcept;
[[nodiscard]] inline std::uint32_t shf_r(std::uint32_t a, std::uint32_t b, std::uint32_t n,
                                         ShfMode m) noexcept;

template <class T> [[nodiscard]] inline T bit_and(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T bit_or(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T bit_xor(T a, T b) noexcept;
template <class T> [[nodiscard]] inline T bit_not(T a) noexcept;
/// cnot: 1 if a == 0 else 0.
template <class T> [[nodiscard]] inline T cnot(T a) noexcept;
/// lop3.b32 with the 8-bit truth table immLut.
[[nodiscard]] inline std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                        std::uint8_t lut) noexcept;

/// popc / clz (T is 32- or 64-bit; result is a u32 count).
template <class T> [[nodiscard]] inline std::uint32_t popc(T a) noexcept;
template <class T> [[nodiscard]] inline std::uint32_t clz(T a) noexcept;
template <class T> [[nodiscard]] inline T brev(T a) noexcept;
/// bfind: index of the most significant non-sign bit; 0xffffffff when none. With `shiftamt` the
/// left-shift amount that normalises instead (width - 1 - index).
template <class T> [[nodiscard]] inline std::uint32_t bfind(T a, bool shiftamt) noexcept;
/// bfe: extract `len` bits at `pos` (only the low 8 bits of each are used); signed T
/// sign-extends from the last extracted bit (clamped to the msb).
template <class T> [[nodiscard]] inline T bfe(T a, std::uint32_t pos, std::uint32_t len) noexcept;
/// bfi: insert the low `len` bits of a into b at `pos`.
template <class T>
[[nodiscard]] inline T bfi(T a, T b, std::uint32_t pos, std::uint32_t len) noexcept;
/// prmt.b32 with the selector c.
[[nodiscard]] inline std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                        PrmtMode m) noexcept;

/// dp4a.Atype.Btype: c + dot of four 8-bit lanes; A_signed/B_signed pick s8 or u8 for each.
[[nodiscard]] inline std::uint32_t dp4a(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                        bool a_signed, bool b_signed) noexcept;
/// dp2a.lo/.hi: c + two 16-bit lanes of a times the low (hi = false) or high two bytes of b.
[[nodiscard]] inline std::uint32_t dp2a(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                        bool a_signed, bool b_signed, bool hi) noexcept;

/// add.cc / addc(.cc) / sub.cc / subc(.cc) for 32- and 64-bit T: value and carry-out.
template <class T> [[nodiscard]] inline CarryResult<T> add_cc(T a, T b, bool carry_in) noexcept;
template <class T> [[nodiscard]] inline CarryResult<T> sub_cc(T a, T b, bool borrow_in) noexcept;

/// slct: a if c >= 0 else b (c is s32 or f32; for f32 -0 counts as >= 0, NaN as < 0).
template <class T> [[nodiscard]] inline T slct(T a, T b, std::int32_t c) noexcept;
template <class T> [[nodiscard]] inline T slct(T a, T b, float c, bool ftz) noexcept;
template <class T> [[nodiscard]] inline T selp(T a, T b, bool p) noexcept {
  return p ? a : b;
}

// ---------------------------------------------------------------------------------------------
// Comparisons (setp / set)

/// T is an integer type (signed ops for signed T; lo/ls/hi/hs need unsigned T or compare the
/// unsigned views) or a float type (unordered ops are true when either side is NaN).
template <class T> [[nodiscard]] inline bool compare(Cmp op, T a, T b) noexcept;
[[nodiscard]] inline bool combine(BoolOp op, bool result, bool source) noexcept;

} // namespace gpurun::emu::numeric

#include "backends/cpu/emu/detail/numeric_cvt.hpp"
#include "backends/cpu/emu/detail/numeric_float.hpp"
#include "backends/cpu/emu/detail/numeric_int.hpp"
#include "backends/cpu/emu/detail/numeric_fp8.hpp"
