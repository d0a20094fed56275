#pragma once
// What the interposer captures, read once from GPURUN_CAPTURE, which `gpurun capture` sets (or
// whatever starts the program): "out=DIR,kernel=GLOB,nth=K|all,max-bytes=N,quiet"
// (docs/capture.md). The environment is the only channel: the library is loaded into a program
// that knows nothing of it.
#include <cstdint>
#include <limits>
#include <string>

namespace gpurun::capture::preload {

struct Settings {
  std::string out = "gpurun-capture";
  std::string kernel = "*";
  std::uint64_t nth = 1; ///< 0: every launch
  std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();
  bool quiet = false;
};

/// The settings of this process, read at the first call.
[[nodiscard]] const Settings& settings();

/// One line on the program's standard error, "gpurun capture: LINE", unless quiet.
void say(const std::string& line);

} // namespace gpurun::capture::preload
