#pragma once
// What the host can give: MemAvailable of /proc/meminfo (memory allocatable without swapping).
#include <cstdint>
#include <optional>

namespace gpurun {

/// MemAvailable in bytes; nullopt where /proc/meminfo does not say.
[[nodiscard]] std::optional<std::uint64_t> available_host_bytes();

} // namespace gpurun
