#pragma once
// Where a command runs: one selection for run, threads, compile and bench. A backend is taken by
// flag, by the source's language (a backend that cannot compile it is never chosen) and by
// availability (`auto`: the first available GPU backend whose own language — the first of its
// languages() — the source is, then the first available GPU backend that compiles it, in the
// registry's order, else cpu).
#include <optional>
#include <string>

#include "backends/backend.hpp"
#include "backends/registry.hpp"

namespace gpurun {

struct TargetRequest {
  std::string backend = "auto";     ///< --backend: auto, cuda, hip, cpu
  int device = 0;                   ///< --device
  std::optional<Language> language; ///< the source's language, when there is a source
};

/// A backend and one of its devices.
struct Target {
  Backend* backend = nullptr;
  Device* device = nullptr;
  int device_index = 0;
  [[nodiscard]] std::string backend_name() const { return backend->name(); }
  /// "cuda:0 (NVIDIA H200)"
  [[nodiscard]] std::string label() const;
};

/// Throws Error(usage) for an unknown backend name or a backend that cannot compile the
/// language, Error(unavailable) naming the backend and the probe's reason when the requested
/// backend or device is unavailable.
[[nodiscard]] Target select_target(const BackendRegistry& registry, const TargetRequest& request);

} // namespace gpurun
