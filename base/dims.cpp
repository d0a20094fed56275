#include "base/dims.hpp"

#include <array>
#include <cstdint>

#include <fmt/format.h>

#include "base/arithmetic.hpp"

namespace gpurun {

Dim3 parse_dims(std::string_view text, std::string_view field) {
  const SourceText where{field, text, 0};
  constexpr std::array<std::string_view, 3> k_axes{"x", "y", "z"};
  std::array<std::uint32_t, 3> values{1, 1, 1};
  std::size_t start = 0;
  for (std::size_t axis = 0;; ++axis) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? text.size() : comma;
    if (axis == 3)
      throw_at(where, start - 1, "at most 3 dimensions (X[,Y[,Z]]) allowed; extra ','");
    const std::string_view piece = text.substr(start, end - start);
    const WideInt v = eval_wide_int(piece, where.at(start));
    if (v < 1 || v > WideInt{UINT32_MAX})
      throw_whole(where, fmt::format("{} = {} must be between 1 and 4294967295", k_axes[axis],
                                     wide_to_string(v)));
    values[axis] = static_cast<std::uint32_t>(v);
    if (comma == std::string_view::npos)
      break;
    start = comma + 1;
  }
  return Dim3{values[0], values[1], values[2]};
}

std::string to_string(const Dim3& d) {
  return fmt::format("({},{},{})", d.x, d.y, d.z);
}

} // namespace gpurun
