#pragma once
// A tuning search space (docs/tune.md): named parameters, each a list of values in the axes'
// grammar (`-p 'TILE=[8,16,32]'`), and restrictions, integer expressions over the parameters that
// a configuration must satisfy (`--restrict 'TILE*BLOCK_X <= 1024'`). The space holds every valid
// configuration, in cross-product order (the last parameter varies fastest), and, for the search
// strategies, each configuration's position along every parameter.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bench/axes.hpp"

namespace gpurun::tune {

/// The most configurations a space may enumerate before its restrictions apply.
inline constexpr std::size_t k_max_points = 10'000'000;

class Space {
public:
  /// Throws usage Error naming `restrict_field` for a restriction that does not parse or names
  /// something other than an integer parameter, `param_field` for duplicate or empty parameters,
  /// and when the cross product is beyond k_max_points.
  Space(std::vector<bench::Axis> params, std::vector<std::string> restrictions,
        std::string_view param_field = "-p", std::string_view restrict_field = "--restrict");
  /// A space of exactly `configs` (each a value index per parameter; a cache's configurations).
  [[nodiscard]] static Space of(std::vector<bench::Axis> params,
                                std::vector<std::vector<std::uint32_t>> configs);

  [[nodiscard]] const std::vector<bench::Axis>& params() const { return m_params; }
  [[nodiscard]] const std::vector<std::string>& restrictions() const { return m_restrictions; }
  [[nodiscard]] std::size_t size() const { return m_coords.size(); }
  /// The cross product's size, before restrictions.
  [[nodiscard]] std::size_t unrestricted_size() const { return m_unrestricted; }
  /// Configuration i's value index along each parameter.
  [[nodiscard]] const std::vector<std::uint32_t>& coords(std::size_t i) const {
    return m_coords[i];
  }
  /// The configuration at these value indices, if it is in the space.
  [[nodiscard]] std::optional<std::size_t> find(const std::vector<std::uint32_t>& coords) const;
  /// Configuration i as parameter name → value text.
  [[nodiscard]] bench::AxisPoint point(std::size_t i) const;
  /// "16,1,2": the values joined by commas (Kernel Tuner's cache key).
  [[nodiscard]] std::string key(std::size_t i) const;
  /// The configuration with this key, if it is in the space.
  [[nodiscard]] std::optional<std::size_t> find_key(std::string_view key) const;
  /// "BLOCK_X=128, TILE=16".
  [[nodiscard]] std::string describe(std::size_t i) const;

private:
  Space() = default;
  void index();

  std::vector<bench::Axis> m_params;
  std::vector<std::string> m_restrictions;
  std::vector<std::vector<std::uint32_t>> m_coords;
  std::size_t m_unrestricted = 0;
  std::unordered_map<std::string, std::size_t> m_by_key;
};

} // namespace gpurun::tune
