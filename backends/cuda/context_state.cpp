#include "backends/cuda/context_state.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

#include "backends/cuda/error.hpp"
#include "backends/kit/device_output.hpp"
#include "base/process_clock.hpp"

namespace gpurun::cuda {

ContextState::ContextState(const DriverApi& driver_api, CUdevice dev)
    : StreamState(driver_api), device(dev) {
  const char* blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  launch_blocking = blocking != nullptr && std::strcmp(blocking, "1") == 0;
  GPURUN_CU_CHECK("cuDevicePrimaryCtxRetain", api.primary_ctx_retain(&context, device));
  trace("cuda: primary context retained");
  try {
    make_current();
    // Non-blocking: our stream must not serialize with the legacy default stream that libraries
    // loaded into the same process might use.
    GPURUN_CU_CHECK("cuStreamCreate", api.stream_create(&stream, CU_STREAM_NON_BLOCKING));
  } catch (...) {
    (void)api.primary_ctx_release(device);
    throw;
  }
}

ContextState::~ContextState() {
  if (abandoned)
    return;
  // Releasing the last reference destroys the primary context, which flushes device printf.
  kit::DeviceOutputScope output(device_output, kit::CaptureFailure::let_through);
  make_current_quietly();
  if (stream != nullptr)
    (void)api.stream_destroy(stream);
  (void)api.primary_ctx_release(device);
}

void ContextState::make_current() const {
  GPURUN_CU_CHECK("cuCtxSetCurrent", api.ctx_set_current(context));
}

void ContextState::make_current_quietly() const noexcept {
  (void)api.ctx_set_current(context);
}

AssertOutputScope::AssertOutputScope(const ContextState& state) {
  if (state.assert_modules == 0)
    return;
  try {
    m_capture.emplace(STDERR_FILENO);
  } catch (...) {
    // Without a capture the driver's lines still reach standard error; only the error message
    // goes without them.
  }
}

AssertOutputScope::~AssertOutputScope() {
  try {
    (void)finish();
  } catch (...) {
    // Destructors never throw.
  }
}

std::string AssertOutputScope::finish() {
  if (!m_capture)
    return {};
  std::string text = m_capture->finish();
  m_capture.reset();
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  }
  return text;
}

} // namespace gpurun::cuda
