#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace gpurun {

/// A 1–3D extent (grid or block); missing dimensions are 1.
struct Dim3 {
  std::uint32_t x = 1;
  std::uint32_t y = 1;
  std::uint32_t z = 1;
  [[nodiscard]] std::uint64_t volume() const noexcept { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

/// Parses "X[,Y[,Z]]" (each an integer expression such as 1<<10, ≥ 1).
/// `field` names the option in errors ("--grid"): throws usage Error.
[[nodiscard]] Dim3 parse_dims(std::string_view text, std::string_view field);

/// "(x,y,z)"
[[nodiscard]] std::string to_string(const Dim3& d);

} // namespace gpurun
