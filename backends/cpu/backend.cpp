#include "backends/cpu/backend.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "backends/cpu/device.hpp"
#include "base/error.hpp"

namespace gpurun {

namespace {

class CpuBackend final : public Backend {
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

void set_cpu_device_count(Backend& backend, std::size_t count) {
  auto* cpu = dynamic_cast<CpuBackend*>(&backend);
  if (cpu == nullptr)
    throw usage_error(
        fmt::format("--cpu-devices: the '{}' backend is not the cpu backend", backend.name()));
  if (count == 0 || count > k_max_cpu_devices)
    throw usage_error(fmt::format("--cpu-devices {}: must be a whole number from 1 to {}", count,
                                  k_max_cpu_devices));
  cpu->make_devices(count);
}

} // namespace gpurun
