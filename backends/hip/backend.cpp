#include "backends/hip/backend.hpp"

#include <fmt/format.h>

#include "backends/compilers/hiprtc.hpp"
#include "backends/hip/api.hpp"
#include "backends/hip/device.hpp"
#include "backends/hip/error.hpp"
#include "backends/kit/probed_backend.hpp"
#include "base/process_clock.hpp"

namespace gpurun {
namespace {

class HipBackend final : public kit::ProbedBackend<Backend> {
public:
  [[nodiscard]] std::string name() const override { return "hip"; }

  [[nodiscard]] std::vector<Language> languages() const override { return {Language::hip}; }

  [[nodiscard]] std::vector<CompilerInfo> compilers() const override { return {hiprtc_info()}; }
  [[nodiscard]] std::optional<CompilerInfo>
  chosen_compiler(Language language, const CompileOptions& /*options*/) const override {
    if (language != Language::hip)
      return std::nullopt;
    return hiprtc_info();
  }
  // An AMD GPU's code object, compiled by hipRTC for a named gfx target without any GPU.
  [[nodiscard]] bool compiles_offline_for(const std::string& target) const override {
    return target.starts_with("gfx");
  }
  [[nodiscard]] CompileResult compile_for(const KernelSource& source, const CompileOptions& options,
                                          const std::string& target) override {
    CompileOptions for_target = options;
    for_target.arch = target;
    return hiprtc::compile(source, for_target, target);
  }
  // A code object says its kernels' registers, LDS and scratch in its own metadata.
  [[nodiscard]] std::optional<ResourceReport>
  compiled_resources(const KernelSource& /*source*/, const CompileOptions& /*options*/,
                     const CompileResult& compiled) const override {
    if (compiled.binary_format != "hsaco")
      return std::nullopt;
    kit::AmdgpuCodeObject code = hiprtc::read_code_object(compiled);
    ResourceReport report;
    report.code_object = std::move(code.kernels);
    report.measured_by =
        fmt::format("code object metadata, {}, {}", code.target, compiled.compiler_version);
    return report;
  }

private:
  static CompilerInfo hiprtc_info() {
    const auto info = hiprtc::probe();
    return CompilerInfo{"hiprtc", info.available, info.version, info.location, info.reason, {}, {}};
  }

  [[nodiscard]] ProbeResult run_probe() override {
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

  [[nodiscard]] std::vector<std::unique_ptr<Device>> enumerate() override {
    const auto& api = hip::runtime().api;
    int count = 0;
    GPURUN_HIP_CHECK("hipGetDeviceCount", api.get_device_count(&count));
    std::vector<std::unique_ptr<Device>> devices;
    for (int i = 0; i < count; ++i)
      devices.push_back(std::make_unique<hip::HipDevice>(api, i));
    return devices;
  }
};

} // namespace

std::unique_ptr<Backend> make_hip_backend() {
  return std::make_unique<HipBackend>();
}

} // namespace gpurun
