#pragma once
// The CUDA device's ClockMonitor: SM clock, clocks event reasons, power and energy from NVML.
#include <memory>
#include <string>

#include "backends/backend.hpp"
#include "backends/cuda/nvml.hpp"

namespace gpurun::cuda {

class NvmlClockMonitor final : public ClockMonitor {
public:
  NvmlClockMonitor(const Nvml& nvml, nvmlDevice_t device);
  [[nodiscard]] double default_sm_clock_mhz() override;
  [[nodiscard]] ClockReading read() override;
  [[nodiscard]] std::string describe(std::uint64_t throttle_reasons) const override;
  [[nodiscard]] std::optional<double> power_w() override;
  [[nodiscard]] std::optional<double> energy_j() override;
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> settings() override;

private:
  const Nvml& m_nvml;
  nvmlDevice_t m_device;
  std::optional<double> m_default_sm_clock_mhz; ///< read once: it does not change
};

/// The monitor of the device at `pci_bus_id` ("0000:3B:00.0", as cuDeviceGetPCIBusId writes
/// it), or nullptr with the reason in `why_not`: NVML's own (`nvml.error()`), or that NVML has no
/// such device.
[[nodiscard]] std::unique_ptr<ClockMonitor>
open_clock_monitor(const Nvml& nvml, const std::string& pci_bus_id, std::string& why_not);

} // namespace gpurun::cuda
