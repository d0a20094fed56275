#include "backends/cuda/backend.hpp"
#include "base/process_clock.hpp"

#include <mutex>

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/cuda/api.hpp"
#include "backends/cuda/device.hpp"
#include "backends/cuda/error.hpp"

namespace gpurun {
namespace {

class CudaBackend final : public compilers::CudaCompilingBackend {
public:
  [[nodiscard]] std::string name() const override { return "cuda"; }

  [[nodiscard]] ProbeResult probe() override {
    std::call_once(m_probed, [this] { m_probe = run_probe(); });
    return m_probe;
  }

  [[nodiscard]] std::vector<Device*> devices() override {
    if (!probe().available)
      return {};
    std::call_once(m_enumerated, [this] {
      const auto& api = cuda::driver().api;
      int count = 0;
      GPURUN_CU_CHECK("cuDeviceGetCount", api.device_get_count(&count));
      for (int i = 0; i < count; ++i) {
        cuda::CUdevice device = 0;
        GPURUN_CU_CHECK("cuDeviceGet", api.device_get(&device, i));
        m_devices.push_back(std::make_unique<cuda::CudaDevice>(api, device));
      }
    });
    std::vector<Device*> out;
    for (const auto& d : m_devices)
      out.push_back(d.get());
    return out;
  }

  [[nodiscard]] std::vector<Language> languages() const override {
    // .hip through NVRTC and gpurun's HIP layer (backends/compilers/hip_headers).
    return {Language::cuda, Language::ptx, Language::hip};
  }

private:
  static ProbeResult run_probe() {
    const auto& driver = cuda::driver();
    trace("cuda: driver library opened");
    if (!driver.error.empty())
      return {false, driver.error};
    const auto& api = driver.api;
    if (const cuda::CUresult r = api.init(0); r != cuda::CUDA_SUCCESS)
      return {false, "cuInit failed: " + cuda::describe(r)};
    trace("cuda: cuInit done");
    int count = 0;
    if (const cuda::CUresult r = api.device_get_count(&count); r != cuda::CUDA_SUCCESS)
      return {false, "cuDeviceGetCount failed: " + cuda::describe(r)};
    if (count == 0)
      return {false, "no device"};
    return {true, {}};
  }

  std::once_flag m_probed;
  ProbeResult m_probe;
  std::once_flag m_enumerated;
  std::vector<std::unique_ptr<cuda::CudaDevice>> m_devices;
};

} // namespace

std::unique_ptr<Backend> make_cuda_backend() {
  return std::make_unique<CudaBackend>();
}

} // namespace gpurun
