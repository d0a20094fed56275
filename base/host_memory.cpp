#include "base/host_memory.hpp"

#include <fstream>
#include <string>

namespace gpurun {

std::optional<std::uint64_t> available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:")
      return kib * 1024;
  return std::nullopt;
}

} // namespace gpurun
