#pragma once
// cvt: conversions between integer types, and between integers and floats, declared in
// numeric.hpp. Integer -> float rounding goes through round_pack so that 64-bit values round
// exactly in every mode (the host's int64 -> float conversion only knows the current mode).

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "backends/cpu/emu/detail/numeric_float.hpp"
#include "backends/cpu/emu/detail/numeric_round.hpp"

namespace gpurun::emu::numeric {

namespace detail {

template <class T>
inline constexpr bool is_int_type = std::is_integral_v<T> && !std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_fp_type =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <class F, class I> [[nodiscard]] inline F int_to_fp(I v, Round r) noexcept {
  static_assert(is_int_type<I>);
  using U = std::make_unsigned_t<I>;
  const bool negative = v < 0;
  // Negating in the unsigned type is exact for every value, INT64_MIN included.
  const U magnitude = negative ? static_cast<U>(U{0} - static_cast<U>(v)) : static_cast<U>(v);
  if (magnitude == 0) {
    return from_bits<F>(0);
  }
  return round_pack<F>(negative, static_cast<std::uint64_t>(magnitude), 0, false, r);
}

template <class I> [[nodiscard]] inline I double_to_int(double d, Round r) noexcept {
  static_assert(is_int_type<I>);
  if (std::isnan(d)) {
    return 0;
  }
  const double t = round_integral_f64(d, r);
  // Both bounds are powers of two (or zero), so they are exact doubles.
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi_excl = 2.0 * static_cast<double>(std::numeric_limits<I>::max() / 2 + 1);
  if (t <= lo) {
    return std::numeric_limits<I>::min();
  }
  if (t >= hi_excl) {
    return std::numeric_limits<I>::max();
  }
  return static_cast<I>(t);
}

} // namespace detail

template <class I> inline float int_to_f32(I v, Round r) noexcept {
  return detail::int_to_fp<float>(v, r);
}
template <class I> inline double int_to_f64(I v, Round r) noexcept {
  return detail::int_to_fp<double>(v, r);
}
template <class I> inline Half int_to_f16(I v, Round r) noexcept {
  return detail::int_to_fp<Half>(v, r);
}
template <class I> inline BFloat16 int_to_bf16(I v, Round r) noexcept {
  return detail::int_to_fp<BFloat16>(v, r);
}

template <class I> inline I f32_to_int(float f, Round r) noexcept {
  return detail::double_to_int<I>(static_cast<double>(f), r);
}
template <class I> inline I f64_to_int(double d, Round r) noexcept {
  return detail::double_to_int<I>(d, r);
}

template <class D, class S> inline D int_to_int(S v, bool sat) noexcept {
  static_assert(detail::is_int_type<D> && detail::is_int_type<S>);
  if (sat) {
    if (std::cmp_less(v, std::numeric_limits<D>::min())) {
      return std::numeric_limits<D>::min();
    }
    if (std::cmp_greater(v, std::numeric_limits<D>::max())) {
      return std::numeric_limits<D>::max();
    }
  }
  return static_cast<D>(v); // modular truncation; sign or zero extension follows S
}

template <class D, class S> inline D cvt(S v, CvtMode m) noexcept {
  using namespace detail;
  static_assert((is_int_type<D> || is_fp_type<D>)&&(is_int_type<S> || is_fp_type<S>),
                "cvt: unsupported type");
  if constexpr (is_int_type<D> && is_int_type<S>) {
    return int_to_int<D>(v, m.sat);
  } else if constexpr (is_fp_type<D> && is_int_type<S>) {
    const D r = int_to_fp<D>(v, m.round);
    return m.sat ? saturate(r) : r;
  } else if constexpr (is_int_type<D> && is_fp_type<S>) {
    const S x = std::is_same_v<S, float> ? ftz_in(v, m.ftz) : v;
    return double_to_int<D>(to_double(x), m.round);
  } else {
    const S x = std::is_same_v<S, float> ? ftz_in(v, m.ftz) : v;
    if constexpr ((std::is_same_v<S, float> && std::is_same_v<D, double>) ||
                  (std::is_same_v<S, double> && std::is_same_v<D, float>)) {
      if (!m.integral && is_nan(x)) {
        // Between f32 and f64 a NaN keeps its payload, quieted (the top payload bits from f64),
        // as the host's conversion does (measured on an H200).
        return static_cast<D>(x);
      }
    }
    D r{};
    if (m.integral) {
      const double d = to_double(x);
      r = narrow<D>(std::isnan(d) ? d : round_integral_f64(d, m.round), Round::rn);
    } else {
      r = narrow<D>(to_double(x), m.round);
    }
    if constexpr (std::is_same_v<D, float>) {
      r = ftz_in(r, m.ftz);
    }
    if constexpr (std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>) {
      if (m.satfinite)
        r = satfinite(r);
      if (m.relu)
        r = relu(r);
    }
    return m.sat ? saturate(r) : r;
  }
}

} // namespace gpurun::emu::numeric
