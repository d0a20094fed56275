#include "backends/kit/device_output.hpp"

#include <unistd.h>

namespace gpurun::kit {

DeviceOutputScope::DeviceOutputScope(const DeviceOutputSink& sink, CaptureFailure on_failure)
    : m_sink(sink) {
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

} // namespace gpurun::kit
