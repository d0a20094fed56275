#pragma once
#include <memory>

#include "backends/backend.hpp"
#include "backends/hip/context_state.hpp"

namespace gpurun::hip {

/// One HIP device and one non-blocking stream on it.
class HipContext final : public Context {
public:
  HipContext(std::shared_ptr<ContextState> state, const DeviceProperties& properties,
             std::string target);

  [[nodiscard]] std::unique_ptr<Buffer> allocate(std::size_t bytes) override;
  void copy_to_device(Buffer& dst, std::span<const std::byte> src) override;
  void copy_to_host(std::span<std::byte> dst, const Buffer& src) override;
  void copy_device(Buffer& dst, const Buffer& src) override;
  void memset(Buffer& dst, std::uint8_t value) override;
  void copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) override;
  void copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) override;

  /// hipRTC for the device's own target (gcnArchName, feature flags included) unless
  /// options.arch names another.
  [[nodiscard]] CompileResult compile(const KernelSource& source,
                                      const CompileOptions& options) override;
  [[nodiscard]] std::unique_ptr<Module> load(const CompileResult& compiled) override;

  void launch(Function& fn, const LaunchConfig& config, const ArgPack& args) override;
  void launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                       int count) override;
  void synchronize(std::optional<double> timeout_s = std::nullopt) override;
  [[nodiscard]] std::unique_ptr<Timer> create_timer() override;
  [[nodiscard]] std::string compiler_id(const CompileOptions& options) const override;

private:
  [[noreturn]] void stream_failed(hipError_t result, const char* call, const char* file,
                                  int line) const;
  void check_stream_call(hipError_t result, const char* call, int line) const;
  void copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind, const char* what);

  std::shared_ptr<ContextState> m_state;
  DeviceProperties m_properties;
  std::string m_target; ///< "gfx90a:sramecc+:xnack-"
};

} // namespace gpurun::hip
