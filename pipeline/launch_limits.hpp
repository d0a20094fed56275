#pragma once
#include "backends/backend.hpp"

namespace gpurun {

/// Checks a launch against the device's limits before anything is launched; throws
/// Error(device) naming the field ("--block.z = 128 exceeds the device limit 64").
/// `static_shared` is the kernel's own static shared memory.
void validate_launch(const LaunchConfig& config, const DeviceProperties& device,
                     std::size_t static_shared = 0);

} // namespace gpurun
