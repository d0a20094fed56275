#include "pipeline/launch_limits.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun {

namespace {
void check_axis(const char* field, char axis, std::uint32_t value, std::uint32_t limit) {
  if (value > limit)
    throw usage_error(
        fmt::format("{}.{} = {} exceeds the device limit {}", field, axis, value, limit));
}
} // namespace

void validate_launch(const LaunchConfig& config, const DeviceProperties& device,
                     std::size_t static_shared) {
  check_axis("--grid", 'x', config.grid.x, device.max_grid.x);
  check_axis("--grid", 'y', config.grid.y, device.max_grid.y);
  check_axis("--grid", 'z', config.grid.z, device.max_grid.z);
  check_axis("--block", 'x', config.block.x, device.max_block.x);
  check_axis("--block", 'y', config.block.y, device.max_block.y);
  check_axis("--block", 'z', config.block.z, device.max_block.z);
  if (config.block.volume() > device.max_threads_per_block)
    throw usage_error(fmt::format("--block: {} threads per block exceeds the device limit {}",
                                  config.block.volume(), device.max_threads_per_block));
  const std::size_t total_shared = config.shared_bytes + static_shared;
  if (total_shared > device.max_shared_per_block_optin)
    throw usage_error(fmt::format(
        "--shared: {} bytes of dynamic shared memory (+ {} static) exceeds the device limit {}",
        config.shared_bytes, static_shared, device.max_shared_per_block_optin));
}

} // namespace gpurun
