#pragma once
// Shared by the CUDA GPU tests: a fixture that skips cleanly where there is no CUDA device, and
// small helpers to compile inline kernels and pack arguments.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/compilers/nvrtc.hpp"
#include "backends/cuda/backend.hpp"
#include "base/error.hpp"

namespace gpurun::test {

/// The process-wide CUDA backend (probing once).
inline Backend& cuda_backend() {
  static const std::unique_ptr<Backend> backend = make_cuda_backend();
  return *backend;
}

/// Skips the test (GTEST_SKIP) unless a CUDA device and NVRTC are present; otherwise creates a
/// context on device 0.
class CudaGpuTest : public ::testing::Test {
protected:
  void SetUp() override {
    const auto probe = cuda_backend().probe();
    if (!probe.available)
      GTEST_SKIP() << "no CUDA device: " << probe.reason;
    if (!nvrtc::probe().available)
      GTEST_SKIP() << "NVRTC unavailable: " << nvrtc::probe().reason;
    m_device = cuda_backend().devices().at(0);
    m_context = m_device->create_context(ContextOptions{});
  }

  [[nodiscard]] Context& context() { return *m_context; }
  [[nodiscard]] const DeviceProperties& properties() const { return m_device->properties(); }

  /// Compiles `text` (asserting success) and loads it.
  [[nodiscard]] std::unique_ptr<Module> build(const std::string& text,
                                              const CompileOptions& options = {}) {
    const auto compiled =
        context().compile(KernelSource{text, "gpu_test.cu", Language::cuda}, options);
    if (!compiled.ok)
      throw Error(ExitCode::compile, "test kernel did not compile: " + compiled.log);
    return context().load(compiled);
  }

  Device* m_device = nullptr;
  std::unique_ptr<Context> m_context;
};

/// One ArgPack entry per value: a Buffer, or the value's bytes.
inline void append_arg(ArgPack& pack, const Buffer& buffer) {
  pack.add_buffer(buffer);
}
template <class T> void append_arg(ArgPack& pack, const T& value) {
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  pack.add_bytes(std::move(bytes));
}
template <class... T> [[nodiscard]] ArgPack pack_args(const T&... values) {
  ArgPack pack;
  (append_arg(pack, values), ...);
  return pack;
}

template <class T> [[nodiscard]] std::span<const std::byte> bytes_of(const std::vector<T>& v) {
  return std::as_bytes(std::span(v));
}
template <class T> [[nodiscard]] std::span<std::byte> writable_bytes_of(std::vector<T>& v) {
  return std::as_writable_bytes(std::span(v));
}

} // namespace gpurun::test
