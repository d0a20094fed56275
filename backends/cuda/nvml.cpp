#include "backends/cuda/nvml.hpp"

#include <array>
#include <cstdlib>
#include <utility>

#include <fmt/format.h>

namespace gpurun::cuda {
namespace {

constexpr const char* k_soname = "libnvidia-ml.so.1";

// Returns the first required symbol that is missing, or nullptr.
const char* bind_all(void* h, NvmlApi& api) {
  // The static_assert ties each member to the entry point whose symbol it is bound to.
#define GPURUN_NVML_BIND(member, fn)                                                               \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  if (!dl::bind(h, api.member, #fn))                                                               \
  return #fn
  GPURUN_NVML_BIND(init, nvmlInit_v2);
  GPURUN_NVML_BIND(shutdown, nvmlShutdown);
  GPURUN_NVML_BIND(error_string, nvmlErrorString);
  GPURUN_NVML_BIND(device_get_handle_by_pci_bus_id, nvmlDeviceGetHandleByPciBusId_v2);
  GPURUN_NVML_BIND(device_get_clock_info, nvmlDeviceGetClockInfo);
#undef GPURUN_NVML_BIND
#define GPURUN_NVML_BIND_OPTIONAL(member, fn)                                                      \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  (void)dl::bind(h, api.member, #fn)
  GPURUN_NVML_BIND_OPTIONAL(device_get_default_applications_clock,
                            nvmlDeviceGetDefaultApplicationsClock);
  GPURUN_NVML_BIND_OPTIONAL(device_get_max_clock_info, nvmlDeviceGetMaxClockInfo);
  GPURUN_NVML_BIND_OPTIONAL(device_get_current_clocks_event_reasons,
                            nvmlDeviceGetCurrentClocksEventReasons);
  GPURUN_NVML_BIND_OPTIONAL(device_get_power_usage, nvmlDeviceGetPowerUsage);
  GPURUN_NVML_BIND_OPTIONAL(device_get_total_energy_consumption,
                            nvmlDeviceGetTotalEnergyConsumption);
  GPURUN_NVML_BIND_OPTIONAL(device_get_enforced_power_limit, nvmlDeviceGetEnforcedPowerLimit);
  GPURUN_NVML_BIND_OPTIONAL(device_get_ecc_mode, nvmlDeviceGetEccMode);
  GPURUN_NVML_BIND_OPTIONAL(device_get_mig_mode, nvmlDeviceGetMigMode);
  GPURUN_NVML_BIND_OPTIONAL(device_get_persistence_mode, nvmlDeviceGetPersistenceMode);
  GPURUN_NVML_BIND_OPTIONAL(device_get_applications_clock, nvmlDeviceGetApplicationsClock);
#undef GPURUN_NVML_BIND_OPTIONAL
  static_assert(std::is_same_v<nvmlDeviceGetCurrentClocksEventReasons_fn,
                               nvmlDeviceGetCurrentClocksThrottleReasons_fn>);
  if (api.device_get_current_clocks_event_reasons == nullptr)
    (void)dl::bind(h, api.device_get_current_clocks_event_reasons,
                   "nvmlDeviceGetCurrentClocksThrottleReasons");
  return nullptr;
}

std::string not_found(const std::string& label, const std::string& dl_error) {
  // For the soname, the loader's "cannot open shared object file" only repeats the name.
  if (label == k_soname && dl_error.find("No such file") != std::string::npos)
    return fmt::format("{} not found", k_soname);
  return fmt::format("{}: {}", label, dl_error);
}

} // namespace

Nvml::Nvml(const std::string& library, const std::string& label) {
  const std::array<std::string, 1> candidates{library};
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    m_error = not_found(label, opened.error);
    return;
  }
  if (const char* missing = bind_all(opened.handle.get(), m_api)) {
    m_error = fmt::format("{} lacks {}: the driver is too old", library, missing);
    m_api = NvmlApi{};
    return;
  }
  m_handle = std::move(opened.handle);
  if (const nvmlReturn_t rc = m_api.init(); rc != NVML_SUCCESS) {
    m_error = fmt::format("nvmlInit_v2: {}", describe(rc));
    return;
  }
  m_initialized = true;
}

Nvml::~Nvml() {
  if (m_initialized)
    (void)m_api.shutdown();
}

std::string Nvml::describe(nvmlReturn_t result) const {
  if (m_api.error_string != nullptr)
    if (const char* text = m_api.error_string(result))
      return text;
  return fmt::format("nvmlReturn_t {}", static_cast<int>(result));
}

const Nvml& nvml() {
  static const Nvml instance = [] {
    const char* exact = std::getenv("GPURUN_NVML_LIBRARY");
    if (exact != nullptr && *exact != '\0')
      return Nvml(exact, "GPURUN_NVML_LIBRARY");
    return Nvml(k_soname, k_soname);
  }();
  return instance;
}

std::string describe_clocks_event_reasons(std::uint64_t reasons) {
  static constexpr std::array<std::pair<std::uint64_t, const char*>, 9> names{{
      {nvmlClocksEventReasonGpuIdle, "gpu_idle"},
      {nvmlClocksEventReasonApplicationsClocksSetting, "applications_clocks"},
      {nvmlClocksEventReasonSwPowerCap, "sw_power_cap"},
      {nvmlClocksThrottleReasonHwSlowdown, "hw_slowdown"},
      {nvmlClocksEventReasonSyncBoost, "sync_boost"},
      {nvmlClocksEventReasonSwThermalSlowdown, "sw_thermal"},
      {nvmlClocksThrottleReasonHwThermalSlowdown, "hw_thermal"},
      {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw_power_brake"},
      {nvmlClocksEventReasonDisplayClockSetting, "display_clocks"},
  }};
  if (reasons == 0)
    return "none";
  std::string text;
  std::uint64_t unnamed = reasons;
  for (const auto& [bit, name] : names) {
    if ((reasons & bit) == 0)
      continue;
    if (!text.empty())
      text += ", ";
    text += name;
    unnamed &= ~bit;
  }
  if (unnamed != 0) {
    if (!text.empty())
      text += ", ";
    text += fmt::format("{:#x}", unnamed);
  }
  return text;
}

} // namespace gpurun::cuda
