#pragma once
// The one CPU "device": the PTX emulator presenting itself as an sm_90 GPU.
#include "backends/backend.hpp"

namespace gpurun::cpu {

class CpuDevice final : public Device {
public:
  CpuDevice();
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions& options) override;
  [[nodiscard]] std::unique_ptr<ClockMonitor> clock_monitor(std::string& why_not) override;

private:
  DeviceProperties m_properties;
};

} // namespace gpurun::cpu
