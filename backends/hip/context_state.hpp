#pragma once
// What a HIP context's buffers, modules and timers share with it: the device and the stream they
// were made on. Each holds a shared_ptr, so the stream outlives the last of them.
#include "backends/hip/rocm_types.hpp"

#include <optional>
#include <string>

#include "backends/backend.hpp"
#include "backends/hip/api.hpp"
#include "backends/kit/fd_capture.hpp"

namespace gpurun::hip {

struct ContextState {
  ContextState(const RuntimeApi& runtime_api, int dev);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Makes the device current on the calling thread (HIP's per-thread device).
  void make_current() const;

  const RuntimeApi& api;
  int device = 0;
  hipStream_t stream = nullptr;
  /// Set when a watchdog timeout left a kernel running: teardown would block on it.
  bool abandoned = false;
  /// The kernel most recently launched, named in fault messages.
  std::string last_kernel;
  /// Where device printf text goes (ContextOptions::device_output); empty: standard output.
  DeviceOutputSink device_output;
};

/// What a failure to start capturing does: raise it, or (in teardown) let the text through.
enum class CaptureFailure { raise, let_through };

/// While alive, file descriptor 1 is captured when the state has a device_output sink: the HIP
/// runtime prints device printf to standard output itself when the kernel's work completes, so
/// synchronize() and teardown run inside such a scope (as on CUDA).
class DeviceOutputScope {
public:
  DeviceOutputScope(const ContextState& state, CaptureFailure on_failure);
  ~DeviceOutputScope();
  DeviceOutputScope(const DeviceOutputScope&) = delete;
  DeviceOutputScope& operator=(const DeviceOutputScope&) = delete;

private:
  const DeviceOutputSink& m_sink;
  std::optional<kit::FdCapture> m_capture;
};

} // namespace gpurun::hip
