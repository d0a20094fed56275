#pragma once
#include <string>

namespace gpurun::compilers {

/// Whether a compiler could be found and loaded, and where.
struct Availability {
  bool available = false;
  std::string reason;  ///< why not ("libnvrtc.so.13 … not found")
  std::string version; ///< "13.0"
  std::string
      location; ///< the library or executable in use ("/usr/local/cuda/lib64/libnvrtc.so.13")
};

} // namespace gpurun::compilers
