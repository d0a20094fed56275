#include "backends/hip/backend.hpp"

#include <mutex>

#include <fmt/format.h>

#include "backends/hip/api.hpp"
#include "backends/hip/device.hpp"
#include "backends/hip/error.hpp"
#include "backends/hip/hiprtc.hpp"
#include "base/process_clock.hpp"

namespace gpurun {
namespace {

class HipBackend final : public Backend {
public:
  [[nodiscard]] std::string name() const override { return "hip"; }

  [[nodiscard]] ProbeResult probe() override {
    std::call_once(m_probed, [this] { m_probe = run_probe(); });
    return m_probe;
  }

  [[nodiscard]] std::vector<Device*> devices() override {
    if (!probe().available)
      return {};
    std::call_once(m_enumerated, [this] {
      const auto& api = hip::runtime().api;
      int count = 0;
      GPURUN_HIP_CHECK("hipGetDeviceCount", api.get_device_count(&count));
      for (int i = 0; i < count; ++i)
        m_devices.push_back(std::make_unique<hip::HipDevice>(api, i));
    });
    std::vector<Device*> out;
    for (const auto& d : m_devices)
      out.push_back(d.get());
    return out;
  }

  [[nodiscard]] std::vector<Language> languages() const override { return {Language::hip}; }

  [[nodiscard]] std::vector<CompilerInfo> compilers() const override { return {hiprtc()}; }
  [[nodiscard]] std::optional<CompilerInfo>
  chosen_compiler(Language language, const CompileOptions& /*options*/) const override {
    if (language != Language::hip)
      return std::nullopt;
    return hiprtc();
  }
  // An AMD GPU's code object, compiled by hipRTC for a named gfx target without any GPU.
  [[nodiscard]] bool compiles_offline_for(const std::string& target) const override {
    return target.starts_with("gfx");
  }
  [[nodiscard]] CompileResult compile_for(const KernelSource& source, const CompileOptions& options,
                                          const std::string& target) override {
    CompileOptions for_target = options;
    for_target.arch = target;
    return hip::compile(source, for_target, target);
  }
  // A code object says its kernels' registers, LDS and scratch in its own metadata.
  [[nodiscard]] std::optional<ResourceReport>
  compiled_resources(const KernelSource& /*source*/, const CompileOptions& /*options*/,
                     const CompileResult& compiled) const override {
    if (compiled.binary_format != "hsaco")
      return std::nullopt;
    kit::AmdgpuCodeObject code = hip::read_code_object(compiled);
    ResourceReport report;
    report.code_object = std::move(code.kernels);
    report.measured_by =
        fmt::format("code object metadata, {}, {}", code.target, compiled.compiler_version);
    return report;
  }

private:
  static CompilerInfo hiprtc() {
    const auto info = hip::hiprtc_info();
    return CompilerInfo{"hiprtc", info.available, info.version, info.location, info.reason, {}, {}};
  }

  static ProbeResult run_probe() {
    const auto& runtime = hip::runtime();
    trace("hip: runtime library opened");
    if (!runtime.error.empty())
      return {false, runtime.error};
    const auto& api = runtime.api;
    int version = 0;
    const std::string library =
        api.runtime_get_version(&version) == hipSuccess
            ? fmt::format("{}, HIP {}", runtime.path, hip::runtime_version_text(version))
            : runtime.path;
    // Without a GPU (or without /dev/kfd access) ROCm 5 fails hipInit with
    // hipErrorInvalidDevice and hipGetDeviceCount with hipErrorNoDevice; the count is the
    // clearer answer, so it is asked even when hipInit fails.
    const hipError_t init = api.init(0);
    int count = 0;
    const hipError_t counted = api.get_device_count(&count);
    if (counted == hipErrorNoDevice || (counted == hipSuccess && count == 0))
      return {false, fmt::format("no AMD GPU: hipGetDeviceCount: {} ({})", hip::describe(counted),
                                 library)};
    if (init != hipSuccess)
      return {false, fmt::format("hipInit failed: {} ({})", hip::describe(init), library)};
    if (counted != hipSuccess)
      return {false,
              fmt::format("hipGetDeviceCount failed: {} ({})", hip::describe(counted), library)};
    return {true, {}};
  }

  std::once_flag m_probed;
  ProbeResult m_probe;
  std::once_flag m_enumerated;
  std::vector<std::unique_ptr<hip::HipDevice>> m_devices;
};

} // namespace

std::unique_ptr<Backend> make_hip_backend() {
  return std::make_unique<HipBackend>();
}

} // namespace gpurun
