#include "backends/hip/context_state.hpp"

#include "backends/hip/error.hpp"
#include "backends/kit/device_output.hpp"
#include "base/process_clock.hpp"

namespace gpurun::hip {

ContextState::ContextState(const RuntimeApi& runtime_api, int dev)
    : StreamState(runtime_api), device(dev) {
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
  kit::DeviceOutputScope output(device_output, kit::CaptureFailure::let_through);
  make_current_quietly();
  (void)api.stream_destroy(stream);
}

void ContextState::make_current() const {
  GPURUN_HIP_CHECK_MSG("hipSetDevice", api.set_device(device), ExitCode::device,
                       "selecting HIP device {}", device);
}

void ContextState::make_current_quietly() const noexcept {
  (void)api.set_device(device);
}

} // namespace gpurun::hip
