#include "backends/registry.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#ifdef GPURUN_HAVE_CUDA
#include "backends/cuda/backend.hpp"
#endif
#include "backends/cpu/backend.hpp"

namespace gpurun {

std::vector<std::unique_ptr<Backend>> make_backends() {
  std::vector<std::unique_ptr<Backend>> list;
#ifdef GPURUN_HAVE_CUDA
  list.push_back(make_cuda_backend());
#endif
  list.push_back(make_cpu_backend()); // always last: the fallback when no GPU is present
  return list;
}

Backend* BackendRegistry::find(const std::string& name) const {
  for (const auto& b : m_backends)
    if (b->name() == name) return b.get();
  return nullptr;
}

Backend& BackendRegistry::select(const std::string& name) const {
  if (name.empty() || name == "auto") {
    for (const auto& b : m_backends)
      if (b->name() != "cpu" && b->probe().available) return *b;
    return *find("cpu");
  }
  Backend* b = find(name);
  if (b == nullptr) {
    static const char* known[] = {"cuda", "hip", "opencl", "metal", "cpu"};
    for (const char* k : known)
      if (name == k)
        throw unavailable_error(fmt::format("--backend {}: not built into this gpurun", name));
    throw usage_error(fmt::format(
        "--backend '{}': unknown backend (auto, cuda, hip, opencl, metal, cpu)", name));
  }
  auto probe = b->probe();
  if (!probe.available)
    throw unavailable_error(fmt::format("--backend {}: unavailable: {}", name, probe.reason));
  return *b;
}

Device& BackendRegistry::device(Backend& backend, int index) const {
  auto devices = backend.devices();
  if (index < 0 || static_cast<std::size_t>(index) >= devices.size())
    throw unavailable_error(fmt::format("--device {}: {} has {} device(s)", index, backend.name(),
                                        devices.size()));
  return *devices[static_cast<std::size_t>(index)];
}

} // namespace gpurun
