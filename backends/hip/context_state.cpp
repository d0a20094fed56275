#include "backends/hip/context_state.hpp"

#include <unistd.h>

#include "backends/hip/error.hpp"
#include "base/process_clock.hpp"

namespace gpurun::hip {

ContextState::ContextState(const RuntimeApi& runtime_api, int dev) : api(runtime_api), device(dev) {
  make_current();
  // Non-blocking: the stream must not serialize with the null stream of libraries in the same
  // process.
  GPURUN_HIP_CHECK("hipStreamCreateWithFlags",
                   api.stream_create_with_flags(&stream, hipStreamNonBlocking));
  trace("hip: stream created");
}

ContextState::~ContextState() {
  if (abandoned || stream == nullptr)
    return;
  DeviceOutputScope output(*this, CaptureFailure::let_through);
  (void)api.set_device(device);
  (void)api.stream_destroy(stream);
}

void ContextState::make_current() const {
  GPURUN_HIP_CHECK_MSG("hipSetDevice", api.set_device(device), ExitCode::device,
                       "selecting HIP device {}", device);
}

DeviceOutputScope::DeviceOutputScope(const ContextState& state, CaptureFailure on_failure)
    : m_sink(state.device_output) {
  if (!m_sink)
    return;
  try {
    m_capture.emplace(STDOUT_FILENO);
  } catch (...) {
    if (on_failure == CaptureFailure::raise)
      throw;
  }
}

DeviceOutputScope::~DeviceOutputScope() {
  if (!m_capture)
    return;
  try {
    const std::string text = m_capture->finish();
    if (!text.empty())
      m_sink(text);
  } catch (...) {
    // Destructors never throw; the text is lost rather than printed into a JSON document.
  }
}

} // namespace gpurun::hip
