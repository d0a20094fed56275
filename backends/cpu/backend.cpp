#include "backends/cpu/backend.hpp"

#include "backends/cpu/device.hpp"

namespace gpurun {

namespace {

class CpuBackend final : public Backend {
public:
  [[nodiscard]] std::string name() const override { return "cpu"; }
  // The emulator itself is always there; NVRTC is only needed for .cu/.hip and is reported by
  // compile() when missing.
  [[nodiscard]] ProbeResult probe() override { return ProbeResult{true, {}}; }
  [[nodiscard]] std::vector<Device*> devices() override { return {&m_device}; }
  [[nodiscard]] std::vector<Language> languages() const override {
    return {Language::cuda, Language::hip, Language::ptx};
  }

private:
  cpu::CpuDevice m_device;
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

} // namespace gpurun
