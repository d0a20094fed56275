#pragma once
#include "backends/cuda/driver_types.hpp"

#include "backends/backend.hpp"
#include "backends/cuda/api.hpp"

namespace gpurun::cuda {

/// Properties of device `device` from cuDeviceGetAttribute and friends.
[[nodiscard]] DeviceProperties query_properties(const DriverApi& api, CUdevice device);

/// Theoretical memory bandwidth in GB/s: two transfers per memory clock (DDR) over the bus.
[[nodiscard]] double theoretical_bandwidth_gbs(int memory_clock_khz, int bus_bits);

/// "13.0" from cuDriverGetVersion's 13000.
[[nodiscard]] std::string driver_version_text(int version);

class CudaDevice final : public Device {
public:
  CudaDevice(const DriverApi& api, CUdevice device);
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions& options) override;
  /// Through NVML, found by the device's PCI bus id.
  [[nodiscard]] std::unique_ptr<ClockMonitor> clock_monitor(std::string& why_not) override;

private:
  const DriverApi& m_api;
  CUdevice m_device;
  DeviceProperties m_properties;
};

} // namespace gpurun::cuda
