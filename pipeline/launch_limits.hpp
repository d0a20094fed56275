#pragma once
#include "backends/backend.hpp"

namespace gpurun {

/// Checks a launch against the device's limits before anything is launched; throws
/// Error(usage) naming the field ("--block.z = 128 exceeds the device limit 64"): a limit known
/// from the device's properties is the user's to fix, like any other bad option (exit 2).
/// `static_shared` is the kernel's own static shared memory.
void validate_launch(const LaunchConfig& config, const DeviceProperties& device,
                     std::size_t static_shared = 0);

} // namespace gpurun
