#include "backends/registry.hpp"

#ifdef GPURUN_HAVE_CUDA
#include "backends/cuda/backend.hpp"
#endif
#ifdef GPURUN_HAVE_HIP
#include "backends/hip/backend.hpp"
#endif
#ifdef GPURUN_HAVE_OPENCL
#include "backends/opencl/backend.hpp"
#endif
#include "backends/cpu/backend.hpp"

namespace gpurun {

std::vector<std::unique_ptr<Backend>> make_backends() {
  std::vector<std::unique_ptr<Backend>> list;
#ifdef GPURUN_HAVE_CUDA
  list.push_back(make_cuda_backend());
#endif
#ifdef GPURUN_HAVE_HIP
  list.push_back(make_hip_backend());
#endif
#ifdef GPURUN_HAVE_OPENCL
  list.push_back(make_opencl_backend());
#endif
  list.push_back(make_cpu_backend()); // always last: the fallback when no GPU is present
  return list;
}

std::vector<LeftOutBackend> left_out_backends() {
  std::vector<LeftOutBackend> list;
#ifdef GPURUN_HIP_LEFT_OUT
  list.push_back({"hip", GPURUN_HIP_LEFT_OUT});
#endif
#ifdef GPURUN_OPENCL_LEFT_OUT
  list.push_back({"opencl", GPURUN_OPENCL_LEFT_OUT});
#endif
  return list;
}

Backend* BackendRegistry::find(const std::string& name) const {
  for (const auto& b : m_backends)
    if (b->name() == name)
      return b.get();
  return nullptr;
}

} // namespace gpurun
