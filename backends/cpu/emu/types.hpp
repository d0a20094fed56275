#pragma once
// PTX fundamental types as the decoder sees them, and how a lane's 64-bit register slot holds one.
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

#include "backends/cpu/emu/numeric.hpp"

namespace gpurun::emu {

enum class Type : std::uint8_t {
  none,
  b8,
  b16,
  b32,
  b64,
  b128,
  u8,
  u16,
  u32,
  u64,
  s8,
  s16,
  s32,
  s64,
  f16,
  f16x2,
  bf16,
  bf16x2,
  f32,
  f64,
  pred,
};

[[nodiscard]] std::optional<Type> parse_type(std::string_view text) noexcept;
[[nodiscard]] unsigned type_bytes(Type t) noexcept;
[[nodiscard]] bool is_signed(Type t) noexcept;
[[nodiscard]] bool is_float(Type t) noexcept;

using numeric::BFloat16;
using numeric::Half;

/// Reads a T from the low bits of a register slot (wider registers are truncated, as PTX does).
template <class T> [[nodiscard]] inline T get(std::uint64_t v) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(v));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(v);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T{static_cast<std::uint16_t>(v)};
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else {
    return static_cast<T>(v);
  }
}

/// The register slot value of a T: its bits, zero-extended.
template <class T> [[nodiscard]] inline std::uint64_t put(T v) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(v);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(v);
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return v.bits;
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1 : 0;
  } else {
    return static_cast<std::make_unsigned_t<T>>(v);
  }
}

} // namespace gpurun::emu
