#include "backends/cuda/clock_monitor.hpp"

#include <fmt/format.h>

#include "base/error.hpp"

namespace gpurun::cuda {
namespace {

[[noreturn]] void throw_nvml(const Nvml& nvml, nvmlReturn_t rc, const char* call) {
  const std::string text = nvml.describe(rc);
  throw BackendError(ExitCode::device, "cuda", call, rc, text, fmt::format("{}: {}", call, text),
                     __FILE__, __LINE__);
}

} // namespace

NvmlClockMonitor::NvmlClockMonitor(const Nvml& nvml, nvmlDevice_t device)
    : m_nvml(nvml), m_device(device) {}

double NvmlClockMonitor::default_sm_clock_mhz() {
  if (m_default_sm_clock_mhz)
    return *m_default_sm_clock_mhz;
  const NvmlApi& api = m_nvml.api();
  unsigned int mhz = 0;
  // The default application clock is what the board runs at unless something holds it back;
  // boards that do not report it fall back to the maximum.
  if (api.device_get_default_applications_clock == nullptr ||
      api.device_get_default_applications_clock(m_device, NVML_CLOCK_SM, &mhz) != NVML_SUCCESS ||
      mhz == 0) {
    mhz = 0;
    if (api.device_get_max_clock_info != nullptr)
      if (const nvmlReturn_t rc = api.device_get_max_clock_info(m_device, NVML_CLOCK_SM, &mhz);
          rc != NVML_SUCCESS)
        throw_nvml(m_nvml, rc, "nvmlDeviceGetMaxClockInfo");
  }
  m_default_sm_clock_mhz = mhz;
  return mhz;
}

ClockReading NvmlClockMonitor::read() {
  const NvmlApi& api = m_nvml.api();
  ClockReading reading;
  unsigned int mhz = 0;
  if (const nvmlReturn_t rc = api.device_get_clock_info(m_device, NVML_CLOCK_SM, &mhz);
      rc != NVML_SUCCESS)
    throw_nvml(m_nvml, rc, "nvmlDeviceGetClockInfo");
  reading.sm_clock_mhz = mhz;
  // A board that cannot say why its clock is low reads as "nothing holds it"; the clock itself
  // still shows the slowdown.
  unsigned long long reasons = 0;
  if (api.device_get_current_clocks_event_reasons != nullptr &&
      api.device_get_current_clocks_event_reasons(m_device, &reasons) == NVML_SUCCESS)
    reading.throttle_reasons = reasons;
  return reading;
}

std::string NvmlClockMonitor::describe(std::uint64_t throttle_reasons) const {
  return describe_clocks_event_reasons(throttle_reasons);
}

std::optional<double> NvmlClockMonitor::power_w() {
  const NvmlApi& api = m_nvml.api();
  unsigned int milliwatts = 0;
  if (api.device_get_power_usage == nullptr ||
      api.device_get_power_usage(m_device, &milliwatts) != NVML_SUCCESS)
    return std::nullopt;
  return milliwatts / 1000.0;
}

std::optional<double> NvmlClockMonitor::energy_j() {
  const NvmlApi& api = m_nvml.api();
  unsigned long long millijoules = 0;
  if (api.device_get_total_energy_consumption == nullptr ||
      api.device_get_total_energy_consumption(m_device, &millijoules) != NVML_SUCCESS)
    return std::nullopt;
  return static_cast<double>(millijoules) / 1000.0;
}

std::vector<std::pair<std::string, std::string>> NvmlClockMonitor::settings() {
  const NvmlApi& api = m_nvml.api();
  std::vector<std::pair<std::string, std::string>> out;
  const std::string unknown = "unknown";
  auto state = [](nvmlEnableState_t s) { return s == NVML_FEATURE_ENABLED ? "enabled" : "disabled"; };
  unsigned int value = 0;
  out.emplace_back("power_limit_w",
                   api.device_get_enforced_power_limit != nullptr &&
                           api.device_get_enforced_power_limit(m_device, &value) == NVML_SUCCESS
                       ? fmt::format("{:g}", value / 1000.0)
                       : unknown);
  nvmlEnableState_t current = NVML_FEATURE_DISABLED, pending = NVML_FEATURE_DISABLED;
  out.emplace_back("ecc", api.device_get_ecc_mode != nullptr &&
                                  api.device_get_ecc_mode(m_device, &current, &pending) ==
                                      NVML_SUCCESS
                              ? state(current)
                              : unknown);
  unsigned int mig = 0, mig_pending = 0;
  out.emplace_back("mig", api.device_get_mig_mode != nullptr &&
                                  api.device_get_mig_mode(m_device, &mig, &mig_pending) ==
                                      NVML_SUCCESS
                              ? (mig != 0 ? "enabled" : "disabled")
                              : unknown);
  out.emplace_back("persistence_mode",
                   api.device_get_persistence_mode != nullptr &&
                           api.device_get_persistence_mode(m_device, &current) == NVML_SUCCESS
                       ? state(current)
                       : unknown);
  // The application clocks are what a user locks (nvidia-smi -ac); the maximum is the board's.
  for (const auto& [name, type] : {std::pair{"sm_clock_application_mhz", NVML_CLOCK_SM},
                                   std::pair{"mem_clock_application_mhz", NVML_CLOCK_MEM}})
    out.emplace_back(name, api.device_get_applications_clock != nullptr &&
                                   api.device_get_applications_clock(m_device, type, &value) ==
                                       NVML_SUCCESS
                               ? std::to_string(value)
                               : unknown);
  out.emplace_back("sm_clock_max_mhz",
                   api.device_get_max_clock_info != nullptr &&
                           api.device_get_max_clock_info(m_device, NVML_CLOCK_SM, &value) ==
                               NVML_SUCCESS
                       ? std::to_string(value)
                       : unknown);
  return out;
}

std::unique_ptr<ClockMonitor> open_clock_monitor(const Nvml& nvml, const std::string& pci_bus_id,
                                                 std::string& why_not) {
  if (!nvml.error().empty()) {
    why_not = nvml.error();
    return nullptr;
  }
  if (pci_bus_id.empty()) {
    why_not = "the driver did not report the device's PCI bus id";
    return nullptr;
  }
  nvmlDevice_t device = nullptr;
  if (const nvmlReturn_t rc =
          nvml.api().device_get_handle_by_pci_bus_id(pci_bus_id.c_str(), &device);
      rc != NVML_SUCCESS) {
    why_not = fmt::format("NVML has no device at PCI bus id {}: {}", pci_bus_id, nvml.describe(rc));
    return nullptr;
  }
  return std::make_unique<NvmlClockMonitor>(nvml, device);
}

} // namespace gpurun::cuda
