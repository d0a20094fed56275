#include "backends/registry.hpp"

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
    if (b->name() == name)
      return b.get();
  return nullptr;
}

} // namespace gpurun
