#pragma once
// An OpenCL context with one in-order queue: buffers are cl_mem objects, a launch is
// clEnqueueNDRangeKernel with global = grid × block and local = block, and the kernel time comes
// from the queue's profiling events.
#include "backends/opencl/api.hpp"

#include <memory>

#include "backends/backend.hpp"
#include "backends/opencl/context_state.hpp"

namespace gpurun::opencl {

/// A cl_mem buffer, released in the destructor. Its address() is the handle's value: OpenCL C
/// kernels take buffers, not addresses, so it only tells buffers apart.
class OpenclBuffer final : public Buffer {
public:
  OpenclBuffer(std::shared_ptr<ContextState> state, std::size_t bytes);
  ~OpenclBuffer() override;
  OpenclBuffer(const OpenclBuffer&) = delete;
  OpenclBuffer& operator=(const OpenclBuffer&) = delete;

  [[nodiscard]] std::size_t size() const override { return m_size; }
  [[nodiscard]] DevicePtr address() const override {
    return static_cast<DevicePtr>(reinterpret_cast<std::uintptr_t>(m_mem));
  }
  [[nodiscard]] cl_mem mem() const { return m_mem; }

private:
  std::shared_ptr<ContextState> m_state;
  cl_mem m_mem = nullptr;
  std::size_t m_size = 0;
};

class OpenclContext final : public Context {
public:
  /// Throws Error(usage) for settings OpenCL has no counterpart of (the sanitizers, --stats,
  /// the printf buffer and heap sizes), naming the flag and the backend.
  OpenclContext(const Api& api, cl_platform_id platform, cl_device_id device,
                const DeviceProperties& properties, const ContextOptions& options);

  [[nodiscard]] std::unique_ptr<Buffer> allocate(std::size_t bytes) override;
  void copy_to_device(Buffer& dst, std::span<const std::byte> src) override;
  void copy_to_host(std::span<std::byte> dst, const Buffer& src) override;
  void copy_device(Buffer& dst, const Buffer& src) override;
  void memset(Buffer& dst, std::uint8_t value) override;
  void copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) override;
  void copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) override;

  [[nodiscard]] CompileResult compile(const KernelSource& source,
                                      const CompileOptions& options) override;
  [[nodiscard]] std::unique_ptr<Module> load(const CompileResult& compiled) override;
  void launch(Function& fn, const LaunchConfig& config, const ArgPack& args) override;
  void launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                       int count) override;
  void synchronize(std::optional<double> timeout_s) override;
  [[nodiscard]] std::unique_ptr<Timer> create_timer() override;
  [[nodiscard]] std::string compiler_id(const CompileOptions& options) const override;

private:
  void set_args(Function& fn, const LaunchConfig& config, const ArgPack& args);
  void enqueue(Function& fn, const LaunchConfig& config);

  std::shared_ptr<ContextState> m_state;
  const DeviceProperties& m_properties;
  bool m_runs_in_process = false; ///< a CPU device: kernels run on gpurun's own threads
};

} // namespace gpurun::opencl
