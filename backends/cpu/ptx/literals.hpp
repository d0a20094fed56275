#pragma once
// Numeric literals of PTX: integers in every base PTX allows, and the two float spellings (the
// exact-bits 0f/0d form and decimal text).

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpurun::ptx {

/// Decimal, 0x hex, 0b binary or leading-zero octal, with an optional U suffix; nullopt when
/// malformed or wider than 64 bits.
[[nodiscard]] std::optional<std::uint64_t> parse_integer_literal(std::string_view text);

/// `0fXXXXXXXX` → the 32 bits; `0dXXXXXXXXXXXXXXXX` → the 64 bits (text already validated by the
/// lexer).
[[nodiscard]] std::uint64_t parse_float_bits(std::string_view text);

/// Decimal float text ("1.5", "2e-3") → double; nullopt when malformed.
[[nodiscard]] std::optional<double> parse_decimal_float(std::string_view text);

[[nodiscard]] std::uint32_t f32_bits(float value);
[[nodiscard]] std::uint64_t f64_bits(double value);
[[nodiscard]] float f32_from_bits(std::uint32_t bits);
[[nodiscard]] double f64_from_bits(std::uint64_t bits);

} // namespace gpurun::ptx
