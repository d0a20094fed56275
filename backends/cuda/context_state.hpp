#pragma once
// What a context's buffers, modules and timers share with it: the primary context and stream
// they were made in. Each holds a shared_ptr, so the context is released after the last of them,
// whatever order the caller destroys them in.
#include "backends/cuda/driver_types.hpp"

#include <optional>
#include <string>

#include "backends/backend.hpp"
#include "backends/cuda/api.hpp"
#include "backends/kit/fd_capture.hpp"

namespace gpurun::cuda {

struct ContextState {
  ContextState(const DriverApi& driver_api, CUdevice dev);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Makes the primary context current on the calling thread.
  void make_current() const;

  const DriverApi& api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  /// Set when a watchdog timeout left a kernel running: freeing memory, unloading modules or
  /// releasing the context would block on it, so teardown leaves them to process exit.
  bool abandoned = false;
  /// The kernel most recently launched, named in fault messages.
  std::string last_kernel;
  /// Where device printf text goes (ContextOptions::device_output); empty: standard output.
  DeviceOutputSink device_output;
  /// CUDA_LAUNCH_BLOCKING=1: the driver also flushes device printf at the end of every launch.
  bool launch_blocking = false;
  /// Loaded modules whose code calls __assertfail (a device assert): while there are any,
  /// standard error is captured while the stream is waited for (AssertOutputScope).
  int assert_modules = 0;
};

/// What a failure to start capturing does: raise it, or (in teardown, which must not throw) let
/// the text go to standard output.
enum class CaptureFailure { raise, let_through };

/// While alive, file descriptor 1 is captured when the state has a device_output sink, and the
/// text is handed to the sink at the end of the scope, also when it ends by an exception. The
/// driver writes device printf to descriptor 1 itself at its flush points, so synchronize(),
/// module unload and context destruction run inside such a scope (and launches, when
/// CUDA_LAUNCH_BLOCKING=1 makes them flush too). The other flush points, blocking copies and
/// module loads, only ever follow a synchronize() here and find nothing left to write.
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

/// While alive, file descriptor 2 is captured when a loaded module calls __assertfail. A failed
/// device assert's lines (one per thread that failed one) are printed there by a thread of the
/// driver, before the stream reports CUDA_ERROR_ASSERT, as seen on an H200 with driver 580
/// (device printf goes to descriptor 1), so a scope spans the whole wait for the stream. The
/// text goes back to standard error, unchanged, when the scope ends (what gpurun wrote there
/// meanwhile, the progress line, comes out then too); finish() also returns it, for the error.
class AssertOutputScope {
public:
  explicit AssertOutputScope(const ContextState& state);
  ~AssertOutputScope();
  AssertOutputScope(const AssertOutputScope&) = delete;
  AssertOutputScope& operator=(const AssertOutputScope&) = delete;

  /// Ends the capture: writes the text to standard error and returns it ("" when nothing was
  /// captured, and from a second call).
  std::string finish();

private:
  std::optional<kit::FdCapture> m_capture;
};

} // namespace gpurun::cuda
