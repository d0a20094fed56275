#pragma once
// The CPU backend's own context settings, read from the names in ContextOptions.
#include "backends/backend.hpp"

namespace gpurun::cpu {

struct ContextSettings {
  bool memcheck = false; ///< "memcheck": check every access against its allocation
  bool stats = false;    ///< "stats": count executed instructions
  int threads = 0;       ///< "threads": worker threads (0 = all cores)
  /// Bytes of device printf records one launch may leave (ContextOptions::printf_buffer)
  std::size_t printf_buffer = k_default_printf_buffer;
  bool racecheck = false; ///< "racecheck": shared-memory hazards
  bool initcheck = false; ///< "initcheck": reads of memory never written
  bool synccheck = false; ///< "synccheck": barriers and collectives not every member reaches
  bool leakcheck = false; ///< "leakcheck": device-heap blocks never freed (memcheck findings)
  std::size_t heap_bytes = 8u << 20; ///< "heap_size": the device heap (cudaLimitMallocHeapSize)
  std::size_t max_findings = 10;     ///< "max_findings": findings shown in full

  /// Throws Error(usage) naming the setting when a value is malformed.
  [[nodiscard]] static ContextSettings from(const ContextOptions& options);
};

} // namespace gpurun::cpu
