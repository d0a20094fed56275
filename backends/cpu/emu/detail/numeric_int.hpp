#pragma once
// Integer and bit operations and setp comparisons declared in numeric.hpp. Arithmetic is done in
// the unsigned type so that PTX's wrapping semantics never become C++ undefined behaviour.

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "backends/cpu/emu/detail/numeric_round.hpp"

namespace gpurun::emu::numeric {

namespace detail {
template <class T> using U = std::make_unsigned_t<T>;
template <class T> inline constexpr int width = std::numeric_limits<U<T>>::digits;

template <class T> [[nodiscard]] constexpr T wrap(std::uint64_t v) noexcept {
  return static_cast<T>(static_cast<U<T>>(v));
}

/// The full 2·width-bit product of two T as a signed or unsigned 128-bit integer.
template <class T> [[nodiscard]] constexpr auto full_product(T a, T b) noexcept {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<__int128>(a) * static_cast<__int128>(b);
  } else {
    return static_cast<u128>(a) * static_cast<u128>(b);
  }
}

/// Sign-extends (signed T) or zero-extends the low 24 bits.
template <class T> [[nodiscard]] constexpr std::int64_t low24(T v) noexcept {
  if constexpr (std::is_signed_v<T>) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << 8) >> 8;
  } else {
    return static_cast<std::int64_t>(static_cast<std::uint32_t>(v) & 0xffffffu);
  }
}
} // namespace detail

template <class T> inline T iadd(T a, T b) noexcept {
  return static_cast<T>(
      static_cast<detail::U<T>>(static_cast<detail::U<T>>(a) + static_cast<detail::U<T>>(b)));
}
template <class T> inline T isub(T a, T b) noexcept {
  return static_cast<T>(
      static_cast<detail::U<T>>(static_cast<detail::U<T>>(a) - static_cast<detail::U<T>>(b)));
}

inline std::int32_t add_sat(std::int32_t a, std::int32_t b) noexcept {
  const std::int64_t s = std::int64_t{a} + b;
  return static_cast<std::int32_t>(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}
inline std::int32_t sub_sat(std::int32_t a, std::int32_t b) noexcept {
  const std::int64_t s = std::int64_t{a} - b;
  return static_cast<std::int32_t>(s > INT32_MAX ? INT32_MAX : (s < INT32_MIN ? INT32_MIN : s));
}

template <class T> inline T mul_lo(T a, T b) noexcept {
  return static_cast<T>(static_cast<detail::U<T>>(detail::full_product(a, b)));
}
template <class T> inline T mul_hi(T a, T b) noexcept {
  return static_cast<T>(static_cast<detail::U<T>>(detail::full_product(a, b) >> detail::width<T>));
}
template <class T> inline Wide<T> mul_wide(T a, T b) noexcept {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "mul.wide takes 16- or 32-bit operands");
  return static_cast<Wide<T>>(static_cast<Wide<T>>(a) * static_cast<Wide<T>>(b));
}
template <class T> inline T mad_lo(T a, T b, T c) noexcept {
  return iadd(mul_lo(a, b), c);
}
template <class T> inline T mad_hi(T a, T b, T c) noexcept {
  return iadd(mul_hi(a, b), c);
}
template <class T> inline Wide<T> mad_wide(T a, T b, Wide<T> c) noexcept {
  return iadd<Wide<T>>(mul_wide(a, b), c);
}
inline std::int32_t mad_hi_sat(std::int32_t a, std::int32_t b, std::int32_t c) noexcept {
  return add_sat(mul_hi(a, b), c);
}

template <class T> inline T mul24_lo(T a, T b) noexcept {
  static_assert(sizeof(T) == 4);
  return static_cast<T>(static_cast<std::uint32_t>(detail::low24(a) * detail::low24(b)));
}
template <class T> inline T mul24_hi(T a, T b) noexcept {
  static_assert(sizeof(T) == 4);
  // The high 32 bits of the 48-bit product, i.e. bits 16..47.
  return static_cast<T>(static_cast<std::uint32_t>((detail::low24(a) * detail::low24(b)) >> 16));
}
template <class T> inline T mad24_lo(T a, T b, T c) noexcept {
  return iadd(mul24_lo(a, b), c);
}
template <class T> inline T mad24_hi(T a, T b, T c) noexcept {
  return iadd(mul24_hi(a, b), c);
}

template <class T> inline T idiv(T a, T b) noexcept {
  using UT = detail::U<T>;
  if constexpr (std::is_signed_v<T>) {
    // The GPU's division sequence ends by replacing the quotient with ~divisor when the divisor
    // is zero, so a / 0 is -1 whatever a's sign (measured on an H200: -1 / 0 = -1, not 1).
    if (b == 0)
      return static_cast<T>(-1);
    const UT ua = a < 0 ? static_cast<UT>(UT{0} - static_cast<UT>(a)) : static_cast<UT>(a);
    const UT ub = b < 0 ? static_cast<UT>(UT{0} - static_cast<UT>(b)) : static_cast<UT>(b);
    const UT q = static_cast<UT>(ua / ub);
    const bool negative = (a < 0) != (b < 0);
    return static_cast<T>(negative ? static_cast<UT>(UT{0} - q) : q);
  } else {
    return b == 0 ? static_cast<T>(~T{0}) : static_cast<T>(a / b);
  }
}

template <class T> inline T irem(T a, T b) noexcept {
  using UT = detail::U<T>;
  if constexpr (std::is_signed_v<T>) {
    // Remainder takes the dividend's sign; |a| % 0 = |a|, so a % 0 = a.
    const UT ua = a < 0 ? static_cast<UT>(UT{0} - static_cast<UT>(a)) : static_cast<UT>(a);
    const UT ub = b < 0 ? static_cast<UT>(UT{0} - static_cast<UT>(b)) : static_cast<UT>(b);
    const UT r = ub == 0 ? ua : static_cast<UT>(ua % ub);
    return static_cast<T>(a < 0 ? static_cast<UT>(UT{0} - r) : r);
  } else {
    return b == 0 ? a : static_cast<T>(a % b);
  }
}

template <class T> inline T iabs(T a) noexcept {
  if constexpr (std::is_signed_v<T>) {
    return a < 0 ? isub(T{0}, a) : a;
  } else {
    return a;
  }
}
template <class T> inline T ineg(T a) noexcept {
  return isub(T{0}, a);
}
template <class T> inline T imin(T a, T b) noexcept {
  return b < a ? b : a;
}
template <class T> inline T imax(T a, T b) noexcept {
  return a < b ? b : a;
}
template <class T> inline T sad(T a, T b, T c) noexcept {
  return iadd(c, a < b ? isub(b, a) : isub(a, b));
}

template <class T> inline T shl(T a, std::uint32_t n) noexcept {
  using UT = detail::U<T>;
  if (n >= static_cast<std::uint32_t>(detail::width<T>)) {
    return T{0};
  }
  return static_cast<T>(static_cast<UT>(static_cast<UT>(a) << n));
}

template <class T> inline T shr(T a, std::uint32_t n) noexcept {
  const auto w = static_cast<std::uint32_t>(detail::width<T>);
  if constexpr (std::is_signed_v<T>) {
    return static_cast<T>(a >> (n >= w ? w - 1 : n)); // arithmetic shift; clamps to sign fill
  } else {
    return n >= w ? T{0} : static_cast<T>(a >> n);
  }
}

inline std::uint32_t shf_l(std::uint32_t a, std::uint32_t b, std::uint32_t n, ShfMode m) noexcept {
  const std::uint32_t s = m == ShfMode::wrap ? (n & 31u) : (n > 32u ? 32u : n);
  const std::uint64_t both = (std::uint64_t{b} << 32) | a;
  return static_cast<std::uint32_t>((both << s) >> 32);
}

inline std::uint32_t shf_r(std::uint32_t a, std::uint32_t b, std::uint32_t n, ShfMode m) noexcept {
  const std::uint32_t s = m == ShfMode::wrap ? (n & 31u) : (n > 32u ? 32u : n);
  const std::uint64_t both = (std::uint64_t{b} << 32) | a;
  return static_cast<std::uint32_t>(both >> s);
}

template <class T> inline T bit_and(T a, T b) noexcept {
  return static_cast<T>(a & b);
}
template <class T> inline T bit_or(T a, T b) noexcept {
  return static_cast<T>(a | b);
}
template <class T> inline T bit_xor(T a, T b) noexcept {
  return static_cast<T>(a ^ b);
}
template <class T> inline T bit_not(T a) noexcept {
  return static_cast<T>(~a);
}
template <class T> inline T cnot(T a) noexcept {
  return a == 0 ? T{1} : T{0};
}

inline std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                          std::uint8_t lut) noexcept {
  // immLut is F(0xF0, 0xCC, 0xAA): bit (a<<2 | b<<1 | c) of lut is the output for that minterm.
  std::uint32_t r = 0;
  for (unsigned i = 0; i < 8; ++i) {
    if (((lut >> i) & 1u) != 0) {
      r |= ((i & 4u) != 0 ? a : ~a) & ((i & 2u) != 0 ? b : ~b) & ((i & 1u) != 0 ? c : ~c);
    }
  }
  return r;
}

template <class T> inline std::uint32_t popc(T a) noexcept {
  return static_cast<std::uint32_t>(std::popcount(static_cast<detail::U<T>>(a)));
}
template <class T> inline std::uint32_t clz(T a) noexcept {
  return static_cast<std::uint32_t>(std::countl_zero(static_cast<detail::U<T>>(a)));
}
template <class T> inline T brev(T a) noexcept {
  using UT = detail::U<T>;
  // Swap ever larger groups (bits, pairs, nibbles) and finish with a byte swap.
  auto v = static_cast<std::uint64_t>(static_cast<UT>(a));
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  v = __builtin_bswap64(v);
  return static_cast<T>(static_cast<UT>(v >> (64 - detail::width<T>)));
}

template <class T> inline std::uint32_t bfind(T a, bool shiftamt) noexcept {
  using UT = detail::U<T>;
  UT v = static_cast<UT>(a);
  if constexpr (std::is_signed_v<T>) {
    if (a < 0) {
      v = static_cast<UT>(~v); // the most significant bit that differs from the sign
    }
  }
  if (v == 0) {
    return 0xffffffffu;
  }
  const auto index = static_cast<std::uint32_t>(detail::width<T> - 1 - std::countl_zero(v));
  return shiftamt ? static_cast<std::uint32_t>(detail::width<T> - 1) - index : index;
}

namespace detail {
/// The low n bits set (n may equal the width).
template <class T> [[nodiscard]] constexpr U<T> low_mask(std::uint32_t n) noexcept {
  return n >= static_cast<std::uint32_t>(width<T>) ? static_cast<U<T>>(~U<T>{0})
                                                   : static_cast<U<T>>((U<T>{1} << n) - 1u);
}
/// How many of the `len` bits starting at `pos` lie inside a T.
template <class T>
[[nodiscard]] constexpr std::uint32_t bits_inside(std::uint32_t pos, std::uint32_t len) noexcept {
  const auto w = static_cast<std::uint32_t>(width<T>);
  return pos >= w ? 0u : (len < w - pos ? len : w - pos);
}
} // namespace detail

template <class T> inline T bfe(T a, std::uint32_t pos, std::uint32_t len) noexcept {
  using UT = detail::U<T>;
  constexpr std::uint32_t msb = detail::width<T> - 1;
  pos &= 0xffu;
  len &= 0xffu;
  const auto ua = static_cast<UT>(a);
  const std::uint32_t n = detail::bits_inside<T>(pos, len);
  const UT mask = detail::low_mask<T>(n);
  UT d = n == 0 ? UT{0} : static_cast<UT>((ua >> pos) & mask);
  if constexpr (std::is_signed_v<T>) {
    // Every bit above the extracted ones is the field's sign: its last bit, clamped to the msb.
    if (len != 0) {
      const std::uint32_t top = pos + len - 1 < msb ? pos + len - 1 : msb;
      if (((ua >> top) & 1u) != 0) {
        d = static_cast<UT>(d | static_cast<UT>(~mask));
      }
    }
  }
  return static_cast<T>(d);
}

template <class T> inline T bfi(T a, T b, std::uint32_t pos, std::uint32_t len) noexcept {
  using UT = detail::U<T>;
  pos &= 0xffu;
  len &= 0xffu;
  const std::uint32_t n = detail::bits_inside<T>(pos, len);
  if (n == 0) {
    return b;
  }
  const auto mask = static_cast<UT>(detail::low_mask<T>(n) << pos);
  return static_cast<T>((static_cast<UT>(b) & static_cast<UT>(~mask)) |
                        (static_cast<UT>(static_cast<UT>(a) << pos) & mask));
}

inline std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t c, PrmtMode m) noexcept {
  const std::uint64_t bytes = (std::uint64_t{b} << 32) | a;
  // Selectors for result bytes 0..3 of each special mode, indexed by c[1:0].
  static constexpr std::uint8_t table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // rc16
  };
  std::uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    std::uint32_t byte = 0;
    if (m == PrmtMode::generic) {
      const std::uint32_t sel = (c >> (4 * i)) & 0xfu;
      byte = static_cast<std::uint32_t>((bytes >> (8 * (sel & 7u))) & 0xffu);
      if ((sel & 8u) != 0) {
        byte = (byte & 0x80u) != 0 ? 0xffu : 0u; // replicate the byte's sign
      }
    } else {
      const std::uint8_t sel = table[static_cast<int>(m) - 1][c & 3u][i];
      byte = static_cast<std::uint32_t>((bytes >> (8 * sel)) & 0xffu);
    }
    d |= byte << (8 * i);
  }
  return d;
}

namespace detail {
[[nodiscard]] constexpr std::int32_t lane8(std::uint32_t v, unsigned i, bool is_signed) noexcept {
  const std::uint32_t byte = (v >> (8 * i)) & 0xffu;
  return is_signed ? static_cast<std::int8_t>(byte) : static_cast<std::int32_t>(byte);
}
[[nodiscard]] constexpr std::int32_t lane16(std::uint32_t v, unsigned i, bool is_signed) noexcept {
  const std::uint32_t half = (v >> (16 * i)) & 0xffffu;
  return is_signed ? static_cast<std::int16_t>(half) : static_cast<std::int32_t>(half);
}
} // namespace detail

inline std::uint32_t dp4a(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool a_signed,
                          bool b_signed) noexcept {
  std::uint32_t sum = c;
  for (unsigned i = 0; i < 4; ++i) {
    const std::int64_t p =
        std::int64_t{detail::lane8(a, i, a_signed)} * detail::lane8(b, i, b_signed);
    sum += static_cast<std::uint32_t>(p);
  }
  return sum;
}

inline std::uint32_t dp2a(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool a_signed,
                          bool b_signed, bool hi) noexcept {
  const unsigned first = hi ? 2u : 0u;
  std::uint32_t sum = c;
  for (unsigned i = 0; i < 2; ++i) {
    const std::int64_t p =
        std::int64_t{detail::lane16(a, i, a_signed)} * detail::lane8(b, first + i, b_signed);
    sum += static_cast<std::uint32_t>(p);
  }
  return sum;
}

template <class T> inline CarryResult<T> add_cc(T a, T b, bool carry_in) noexcept {
  using UT = detail::U<T>;
  const auto ua = static_cast<UT>(a);
  const UT s1 = static_cast<UT>(ua + static_cast<UT>(b));
  const UT s2 = static_cast<UT>(s1 + (carry_in ? 1u : 0u));
  return {static_cast<T>(s2), s1 < ua || s2 < s1};
}

template <class T> inline CarryResult<T> sub_cc(T a, T b, bool borrow_in) noexcept {
  using UT = detail::U<T>;
  const auto ua = static_cast<UT>(a);
  const auto ub = static_cast<UT>(b);
  const UT d1 = static_cast<UT>(ua - ub);
  const UT d2 = static_cast<UT>(d1 - (borrow_in ? 1u : 0u));
  return {static_cast<T>(d2), ua < ub || d1 < (borrow_in ? 1u : 0u)};
}

template <class T> inline T slct(T a, T b, std::int32_t c) noexcept {
  return c >= 0 ? a : b;
}
template <class T> inline T slct(T a, T b, float c, bool ftz) noexcept {
  if (ftz) {
    c = detail::flush(c);
  }
  return c >= 0.0f ? a : b; // -0 >= 0 holds; NaN selects b
}

template <class T> inline bool compare(Cmp op, T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using UT = detail::U<T>;
    const auto ua = static_cast<UT>(a);
    const auto ub = static_cast<UT>(b);
    switch (op) {
    case Cmp::eq:
      return a == b;
    case Cmp::ne:
      return a != b;
    case Cmp::lt:
      return a < b;
    case Cmp::le:
      return a <= b;
    case Cmp::gt:
      return a > b;
    case Cmp::ge:
      return a >= b;
    case Cmp::lo:
      return ua < ub;
    case Cmp::ls:
      return ua <= ub;
    case Cmp::hi:
      return ua > ub;
    case Cmp::hs:
      return ua >= ub;
    default:
      return false; // unordered float forms do not apply to integers
    }
  } else {
    const double x = detail::to_double(a);
    const double y = detail::to_double(b);
    const bool unordered = std::isnan(x) || std::isnan(y);
    switch (op) {
    case Cmp::eq:
      return !unordered && x == y;
    case Cmp::ne:
      return !unordered && x != y;
    case Cmp::lt:
      return !unordered && x < y;
    case Cmp::le:
      return !unordered && x <= y;
    case Cmp::gt:
      return !unordered && x > y;
    case Cmp::ge:
      return !unordered && x >= y;
    case Cmp::equ:
      return unordered || x == y;
    case Cmp::neu:
      return unordered || x != y;
    case Cmp::ltu:
      return unordered || x < y;
    case Cmp::leu:
      return unordered || x <= y;
    case Cmp::gtu:
      return unordered || x > y;
    case Cmp::geu:
      return unordered || x >= y;
    case Cmp::num:
      return !unordered;
    case Cmp::nan:
      return unordered;
    default:
      return false; // lo/ls/hi/hs are integer-only
    }
  }
}

inline bool combine(BoolOp op, bool result, bool source) noexcept {
  switch (op) {
  case BoolOp::none:
    return result;
  case BoolOp::and_:
    return result && source;
  case BoolOp::or_:
    return result || source;
  case BoolOp::xor_:
    return result != source;
  }
  return result;
}

} // namespace gpurun::emu::numeric
