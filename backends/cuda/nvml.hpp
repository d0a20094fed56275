#pragma once
// NVML, the driver's management library, opened with dlopen from libnvidia-ml.so.1 (which the
// driver installs beside libcuda) and initialized once per process. Benchmarks read clocks,
// clocks event reasons, power and energy through it; without it they say why and carry on.
#include <cstdint>
#include <string>

#include "backends/cuda/nvml_types.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::cuda {

struct NvmlApi {
  nvmlInit_v2_fn init = nullptr;
  nvmlShutdown_fn shutdown = nullptr;
  nvmlErrorString_fn error_string = nullptr;
  nvmlDeviceGetHandleByPciBusId_v2_fn device_get_handle_by_pci_bus_id = nullptr;
  nvmlDeviceGetClockInfo_fn device_get_clock_info = nullptr;
  // Optional: nullptr where the library lacks them (the readings are then unavailable).
  nvmlDeviceGetDefaultApplicationsClock_fn device_get_default_applications_clock = nullptr;
  nvmlDeviceGetMaxClockInfo_fn device_get_max_clock_info = nullptr;
  /// nvmlDeviceGetCurrentClocksEventReasons, or on older drivers the same call under its former
  /// name nvmlDeviceGetCurrentClocksThrottleReasons.
  nvmlDeviceGetCurrentClocksEventReasons_fn device_get_current_clocks_event_reasons = nullptr;
  nvmlDeviceGetPowerUsage_fn device_get_power_usage = nullptr;
  nvmlDeviceGetTotalEnergyConsumption_fn device_get_total_energy_consumption = nullptr;
  nvmlDeviceGetEnforcedPowerLimit_fn device_get_enforced_power_limit = nullptr;
  nvmlDeviceGetEccMode_fn device_get_ecc_mode = nullptr;
  nvmlDeviceGetMigMode_fn device_get_mig_mode = nullptr;
  nvmlDeviceGetPersistenceMode_fn device_get_persistence_mode = nullptr;
  nvmlDeviceGetApplicationsClock_fn device_get_applications_clock = nullptr;
};

/// NVML opened and initialized: `api` is usable when `error` is empty. Shuts NVML down when
/// destroyed (NVML counts initializations, so other users in the process are unaffected).
class Nvml {
public:
  /// Opens `library` (a soname or a path) and calls nvmlInit_v2. `label` names the library in
  /// the reason when it cannot be opened: "libnvidia-ml.so.1 not found",
  /// "GPURUN_NVML_LIBRARY: /x: cannot open shared object file: …".
  Nvml(const std::string& library, const std::string& label);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  [[nodiscard]] const NvmlApi& api() const { return m_api; }
  /// Why NVML cannot be used; empty when it can.
  [[nodiscard]] const std::string& error() const { return m_error; }
  /// NVML's text for a return code ("Not Supported"), or "nvmlReturn_t N".
  [[nodiscard]] std::string describe(nvmlReturn_t result) const;

private:
  dl::LibraryHandle m_handle;
  NvmlApi m_api;
  std::string m_error;
  bool m_initialized = false;
};

/// The process's NVML, opened on first use (thread-safe): the file named by
/// $GPURUN_NVML_LIBRARY when set (GPURUN_NVML_LIBRARY=/nonexistent means "no NVML"), else
/// libnvidia-ml.so.1 from the loader's path.
[[nodiscard]] const Nvml& nvml();

/// "sw_power_cap, hw_slowdown" for a clocks event reasons bit set; "none" for 0; bits without a
/// name as hex ("0x800").
[[nodiscard]] std::string describe_clocks_event_reasons(std::uint64_t reasons);

} // namespace gpurun::cuda
