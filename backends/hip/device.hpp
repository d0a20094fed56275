#pragma once
#include "backends/hip/rocm_types.hpp"

#include "backends/backend.hpp"
#include "backends/hip/api.hpp"

namespace gpurun::hip {

/// Properties of device `device` from hipGetDeviceProperties and hipDeviceGetAttribute. The
/// arch is the processor ("gfx90a"); warp_size is the wavefront size (64 on CDNA and GCN, 32 on
/// RDNA).
[[nodiscard]] DeviceProperties query_properties(const RuntimeApi& api, int device,
                                                std::string& target);

/// "6.2" from hipRuntimeGetVersion's 60242134 (major * 10'000'000 + minor * 100'000 + patch).
[[nodiscard]] std::string runtime_version_text(int version);

class HipDevice final : public Device {
public:
  HipDevice(const RuntimeApi& api, int device);
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions& options) override;
  /// The full target name with feature flags, "gfx90a:sramecc+:xnack-" (what hipRTC compiles
  /// for by default).
  [[nodiscard]] const std::string& target() const { return m_target; }

private:
  const RuntimeApi& m_api;
  int m_device;
  std::string m_target;
  DeviceProperties m_properties;
};

} // namespace gpurun::hip
