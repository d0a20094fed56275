#include "backends/cuda/device_arch.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace gpurun::cuda {

std::string default_compile_target(int major, int minor,
                                   const std::vector<std::string>& nvrtc_archs) {
  const int own = major * 10 + minor;
  const std::string own_text = std::to_string(own);
  if (nvrtc_archs.empty() ||
      std::find(nvrtc_archs.begin(), nvrtc_archs.end(), own_text) != nvrtc_archs.end())
    return "sm_" + own_text;
  int newest = 0;
  for (const auto& a : nvrtc_archs)
    newest = std::max(newest, std::stoi(a));
  if (newest > own)
    return "sm_" + own_text;
  return fmt::format("compute_{}", newest);
}

} // namespace gpurun::cuda
