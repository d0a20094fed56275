#include "backends/cuda/context_state.hpp"

#include "backends/cuda/error.hpp"
#include "base/process_clock.hpp"

namespace gpurun::cuda {

ContextState::ContextState(const DriverApi& driver_api, CUdevice dev)
    : api(driver_api), device(dev) {
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
  (void)api.ctx_set_current(context);
  if (stream != nullptr)
    (void)api.stream_destroy(stream);
  (void)api.primary_ctx_release(device);
}

void ContextState::make_current() const {
  GPURUN_CU_CHECK("cuCtxSetCurrent", api.ctx_set_current(context));
}

} // namespace gpurun::cuda
