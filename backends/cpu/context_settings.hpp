#pragma once
// The CPU backend's context settings: ContextOptions' DeviceSettings with every default resolved.
#include "backends/backend.hpp"
#include "backends/cpu/native/kernel_state.hpp"

namespace gpurun::cpu {

struct ContextSettings {
  bool memcheck = false; ///< check every access against its allocation
  bool stats = false;    ///< count executed instructions
  int threads = 0;       ///< worker threads (0 = all cores)
  /// Bytes of device printf records one launch may leave
  std::size_t printf_buffer = k_default_printf_buffer;
  bool racecheck = false;            ///< shared-memory hazards
  bool initcheck = false;            ///< reads of memory never written
  bool synccheck = false;            ///< barriers and collectives not every member reaches
  bool leakcheck = false;            ///< device-heap blocks never freed (memcheck findings)
  std::size_t heap_bytes = 8u << 20; ///< the device heap (cudaLimitMallocHeapSize)
  std::size_t max_findings = 10;     ///< findings shown in full
  native::Engine engine = native::Engine::automatic;

  [[nodiscard]] static ContextSettings from(const ContextOptions& options);
};

} // namespace gpurun::cpu
