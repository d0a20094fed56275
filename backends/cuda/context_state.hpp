#pragma once
// What a context's buffers, modules and timers share with it: the primary context and stream
// they were made in (kit/stream_state.hpp). The driver writes device printf to file descriptor 1
// itself at its flush points, so synchronize(), module unload and context destruction run inside
// a kit::DeviceOutputScope (and launches, when CUDA_LAUNCH_BLOCKING=1 makes them flush too). The
// other flush points, blocking copies and module loads, only ever follow a synchronize() here and
// find nothing left to write.
#include "backends/cuda/driver_types.hpp"

#include <optional>
#include <string>

#include "backends/cuda/api_traits.hpp"
#include "backends/kit/fd_capture.hpp"
#include "backends/kit/stream_state.hpp"

namespace gpurun::cuda {

struct ContextState : kit::StreamState<ApiTraits> {
  ContextState(const DriverApi& driver_api, CUdevice dev);
  ~ContextState();

  /// Makes the primary context current on the calling thread.
  void make_current() const;
  /// The same for teardown, which must not throw: a failure is ignored.
  void make_current_quietly() const noexcept;

  CUdevice device = 0;
  CUcontext context = nullptr;
  /// CUDA_LAUNCH_BLOCKING=1: the driver also flushes device printf at the end of every launch.
  bool launch_blocking = false;
  /// Loaded modules whose code calls __assertfail (a device assert): while there are any,
  /// standard error is captured while the stream is waited for (AssertOutputScope).
  int assert_modules = 0;
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
