#pragma once
// A backend over a vendor library whose probe and device list are each made once, on first use,
// by whichever thread asks first (CUDA, HIP).
#include <concepts>
#include <memory>
#include <mutex>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun::kit {

/// `Base` is Backend or one of its refinements (compilers::CudaCompilingBackend).
template <std::derived_from<Backend> Base> class ProbedBackend : public Base {
public:
  [[nodiscard]] ProbeResult probe() final {
    std::call_once(m_probed, [this] { m_probe = run_probe(); });
    return m_probe;
  }

  /// Empty while the probe says the backend is unavailable.
  [[nodiscard]] std::vector<Device*> devices() final {
    if (!probe().available)
      return {};
    std::call_once(m_enumerated, [this] { m_devices = enumerate(); });
    std::vector<Device*> out;
    for (const auto& d : m_devices)
      out.push_back(d.get());
    return out;
  }

protected:
  /// Opens the vendor library and asks whether there is a device to use, saying why not.
  [[nodiscard]] virtual ProbeResult run_probe() = 0;
  /// Makes every device, once the probe said the backend is available.
  [[nodiscard]] virtual std::vector<std::unique_ptr<Device>> enumerate() = 0;

private:
  std::once_flag m_probed;
  ProbeResult m_probe;
  std::once_flag m_enumerated;
  std::vector<std::unique_ptr<Device>> m_devices;
};

} // namespace gpurun::kit
