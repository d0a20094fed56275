#pragma once
#include <memory>
#include <vector>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"
#include "backends/cuda/l2_clean.hpp"
#include "backends/cuda/stream_hold.hpp"

namespace gpurun::cuda {

/// The device's primary context and one non-blocking stream.
class CudaContext final : public Context {
public:
  CudaContext(std::shared_ptr<ContextState> state, const DeviceProperties& properties);

  [[nodiscard]] std::unique_ptr<Buffer> allocate(std::size_t bytes) override;
  void copy_to_device(Buffer& dst, std::span<const std::byte> src) override;
  void copy_to_host(std::span<std::byte> dst, const Buffer& src) override;
  void copy_device(Buffer& dst, const Buffer& src) override;
  void memset(Buffer& dst, std::uint8_t value) override;
  void copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) override;
  void copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) override;

  /// NVRTC for the device's own sm_XX unless options.arch names another target; PTX sources
  /// pass through unchanged.
  [[nodiscard]] CompileResult compile(const KernelSource& source,
                                      const CompileOptions& options) override;
  [[nodiscard]] std::unique_ptr<Module> load(const CompileResult& compiled) override;

  void launch(Function& fn, const LaunchConfig& config, const ArgPack& args) override;
  void launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                       int count) override;
  void synchronize(std::optional<double> timeout_s = std::nullopt) override;
  [[nodiscard]] std::unique_ptr<Timer> create_timer() override;
  [[nodiscard]] std::unique_ptr<StreamHold> hold_stream(double limit_s) override;
  [[nodiscard]] std::string compiler_id(const CompileOptions& options) const override;
  /// cuCtxEnablePeerAccess where cuDeviceCanAccessPeer says the devices can (NVLink or PCIe).
  [[nodiscard]] bool enable_peer_access(Context& peer) override;
  /// cuMemcpyPeerAsync where peer access is enabled; otherwise device → pinned host memory (one
  /// buffer kept by this context) → device, each half on its own context's stream.
  PeerPath copy_to_peer(Context& peer, Buffer& dst, const Buffer& src) override;
  /// CUPTI's range profiler (backends/cuda/counters.hpp), one launch per pass, each after
  /// request.before_pass and an L2 left clean (backends/cuda/l2_clean.hpp).
  [[nodiscard]] CounterReport measure_counters(Function& fn, const LaunchConfig& config,
                                               const ArgPack& args,
                                               const CounterRequest& request) override;
  void check_metrics(const std::vector<std::string>& metrics) override;
  [[nodiscard]] MetricCatalog metric_catalog() override;

  /// The target compile() uses when options.arch is empty: the device's sm_XX, or the newest
  /// compute_XX this NVRTC knows when it predates the device (the driver then JITs the PTX).
  [[nodiscard]] std::string default_target() const;

private:
  // Fails with the last kernel's name: errors that surface on the stream come from it. A failed
  // device assert is named by its line in `assert_text`, what the driver printed on standard
  // error meanwhile, when it printed one.
  [[noreturn]] void stream_failed(CUresult result, const char* call, const char* file, int line,
                                  std::string_view assert_text = {}) const;
  void check_stream_call(CUresult result, const char* call, int line) const;

  /// Pinned host memory for copies staged through the host; freed before the context goes.
  struct PinnedStaging {
    const DriverApi& api;
    void* host = nullptr;
    std::size_t size = 0;
    PinnedStaging(const DriverApi& driver_api, void* pinned, std::size_t bytes)
        : api(driver_api), host(pinned), size(bytes) {}
    ~PinnedStaging();
    PinnedStaging(const PinnedStaging&) = delete;
    PinnedStaging& operator=(const PinnedStaging&) = delete;
  };

  std::shared_ptr<ContextState> m_state;
  DeviceProperties m_properties;
  std::unique_ptr<StreamGate> m_gate;       ///< made by the first hold_stream()
  std::vector<CUcontext> m_peers;           ///< contexts this one has peer access to
  std::unique_ptr<PinnedStaging> m_staging; ///< made by the first staged copy_to_peer()
  std::unique_ptr<L2Cleaner> m_l2_cleaner;  ///< made by the first measure_counters()
};

} // namespace gpurun::cuda
