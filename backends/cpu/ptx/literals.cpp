#include "backends/cpu/ptx/literals.hpp"

#include <bit>
#include <charconv>
#include <cmath>

namespace gpurun::ptx {

std::optional<std::uint64_t> parse_integer_literal(std::string_view text) {
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) {
    text.remove_suffix(1);
  }
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  if (text.empty()) {
    return std::nullopt;
  }
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::uint64_t parse_float_bits(std::string_view text) {
  std::uint64_t value = 0;
  std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
  return value;
}

std::optional<double> parse_decimal_float(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // Out-of-range decimal text saturates to infinity as C's strtod does.
  if (ec == std::errc::result_out_of_range) {
    return text.find("e-") != std::string_view::npos || text.find("E-") != std::string_view::npos
               ? 0.0
               : HUGE_VAL;
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::uint32_t f32_bits(float value) {
  return std::bit_cast<std::uint32_t>(value);
}
std::uint64_t f64_bits(double value) {
  return std::bit_cast<std::uint64_t>(value);
}
float f32_from_bits(std::uint32_t bits) {
  return std::bit_cast<float>(bits);
}
double f64_from_bits(std::uint64_t bits) {
  return std::bit_cast<double>(bits);
}

} // namespace gpurun::ptx
