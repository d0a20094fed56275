#include "base/cache_dir.hpp"

#include <cstdlib>

namespace gpurun {

std::filesystem::path default_cache_dir() {
  if (const char* d = std::getenv("GPURUN_CACHE_DIR"); d != nullptr && *d != '\0')
    return d;
  // The XDG spec says relative values are invalid and must be ignored.
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/')
    return std::filesystem::path(x) / "gpurun";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return std::filesystem::path(home) / ".cache" / "gpurun";
  return std::filesystem::temp_directory_path() / "gpurun-cache";
}

} // namespace gpurun
