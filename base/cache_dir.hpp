#pragma once
// Where gpurun keeps what it can make again (compiled kernels): $GPURUN_CACHE_DIR, else
// $XDG_CACHE_HOME/gpurun, else ~/.cache/gpurun, else a folder under the system temp directory.
#include <filesystem>

namespace gpurun {

[[nodiscard]] std::filesystem::path default_cache_dir();

} // namespace gpurun
