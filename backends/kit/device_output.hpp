#pragma once
// Device printf of a driver that writes it to file descriptor 1 itself (the CUDA driver, the HIP
// runtime), handed to the run's sink instead (ContextOptions::device_output): a report that owns
// standard output (--json) must not have it printed into its document.
#include <optional>

#include "backends/backend.hpp"
#include "backends/kit/fd_capture.hpp"

namespace gpurun::kit {

/// What a failure to start capturing does: raise it, or (in teardown, which must not throw) let
/// the text go to standard output.
enum class CaptureFailure { raise, let_through };

/// While alive, file descriptor 1 is captured when `sink` is set, and the text is handed to the
/// sink at the end of the scope, also when it ends by an exception. A backend opens one around
/// each of its driver's printf flush points (cuda/context_state.hpp, hip/context_state.hpp).
class DeviceOutputScope {
public:
  DeviceOutputScope(const DeviceOutputSink& sink, CaptureFailure on_failure);
  ~DeviceOutputScope();
  DeviceOutputScope(const DeviceOutputScope&) = delete;
  DeviceOutputScope& operator=(const DeviceOutputScope&) = delete;

private:
  const DeviceOutputSink& m_sink;
  std::optional<FdCapture> m_capture;
};

} // namespace gpurun::kit
