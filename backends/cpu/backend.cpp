#include "backends/cpu/backend.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/cpu/device.hpp"
#include "base/error.hpp"

namespace gpurun {

namespace {

class CpuBackend final : public compilers::CudaCompilingBackend {
public:
  [[nodiscard]] std::string name() const override { return "cpu"; }
  // The emulator itself is always there; NVRTC is only needed for .cu/.hip and is reported by
  // compile() when missing.
  [[nodiscard]] ProbeResult probe() override { return ProbeResult{true, {}}; }
  [[nodiscard]] std::vector<Device*> devices() override {
    if (m_devices.empty())
      make_devices(1);
    std::vector<Device*> list;
    for (const auto& device : m_devices)
      list.push_back(device.get());
    return list;
  }
  [[nodiscard]] std::vector<Language> languages() const override {
    return {Language::cuda, Language::hip, Language::ptx};
  }

  void set_device_count(std::size_t count) override {
    if (count == 0 || count > k_max_cpu_devices)
      throw usage_error(fmt::format("{}: the cpu backend makes 1 to {} virtual devices", count,
                                    k_max_cpu_devices));
    make_devices(count);
  }

  void make_devices(std::size_t count) {
    const auto failure = cpu::parse_failure_plan(std::getenv("GPURUN_TEST_FAIL_DEVICE"));
    m_devices.clear();
    for (std::size_t i = 0; i < count; ++i)
      m_devices.push_back(
          std::make_unique<cpu::CpuDevice>(static_cast<int>(i), static_cast<int>(count), failure));
  }

private:
  std::vector<std::unique_ptr<cpu::CpuDevice>> m_devices; ///< made at the first devices()
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

} // namespace gpurun
