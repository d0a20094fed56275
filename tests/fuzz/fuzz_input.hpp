#pragma once
// What every fuzz target shares: the input as text, and a way to split off a selector byte.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpurun::fuzz {

[[nodiscard]] inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// The first byte chooses among `choices` (0 when the input is empty); the rest is the text.
struct Selected {
  std::size_t choice = 0;
  std::string_view text;
};
[[nodiscard]] inline Selected select(const std::uint8_t* data, std::size_t size,
                                     std::size_t choices) {
  if (size == 0)
    return {};
  return {data[0] % choices, as_text(data + 1, size - 1)};
}

} // namespace gpurun::fuzz
