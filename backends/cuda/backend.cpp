#include "backends/cuda/backend.hpp"

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/cuda/api.hpp"
#include "backends/cuda/device.hpp"
#include "backends/cuda/error.hpp"
#include "backends/kit/probed_backend.hpp"
#include "base/process_clock.hpp"

namespace gpurun {
namespace {

class CudaBackend final : public kit::ProbedBackend<compilers::CudaCompilingBackend> {
public:
  [[nodiscard]] std::string name() const override { return "cuda"; }

  [[nodiscard]] std::vector<Language> languages() const override {
    // .hip through NVRTC and gpurun's HIP layer (backends/compilers/hip_headers).
    return {Language::cuda, Language::ptx, Language::hip};
  }

private:
  [[nodiscard]] ProbeResult run_probe() override {
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

  [[nodiscard]] std::vector<std::unique_ptr<Device>> enumerate() override {
    const auto& api = cuda::driver().api;
    int count = 0;
    GPURUN_CU_CHECK("cuDeviceGetCount", api.device_get_count(&count));
    std::vector<std::unique_ptr<Device>> devices;
    for (int i = 0; i < count; ++i) {
      cuda::CUdevice device = 0;
      GPURUN_CU_CHECK("cuDeviceGet", api.device_get(&device, i));
      devices.push_back(std::make_unique<cuda::CudaDevice>(api, device));
    }
    return devices;
  }
};

} // namespace

std::unique_ptr<Backend> make_cuda_backend() {
  return std::make_unique<CudaBackend>();
}

} // namespace gpurun
