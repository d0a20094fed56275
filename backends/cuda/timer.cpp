#include "backends/cuda/timer.hpp"

#include "backends/cuda/error.hpp"

namespace gpurun::cuda {

CudaTimer::CudaTimer(std::shared_ptr<ContextState> state) : m_state(std::move(state)) {
  m_state->make_current();
  const auto& api = m_state->api;
  GPURUN_CU_CHECK("cuEventCreate", api.event_create(&m_start, CU_EVENT_DEFAULT));
  const CUresult second = api.event_create(&m_stop, CU_EVENT_DEFAULT);
  if (second != CUDA_SUCCESS) {
    (void)api.event_destroy(m_start);
    throw_error(second, "cuEventCreate", ExitCode::device, "cuEventCreate failed", __FILE__,
                __LINE__);
  }
}

CudaTimer::~CudaTimer() {
  if (m_state->abandoned)
    return;
  (void)m_state->api.ctx_set_current(m_state->context);
  (void)m_state->api.event_destroy(m_start);
  (void)m_state->api.event_destroy(m_stop);
}

void CudaTimer::start() {
  m_state->make_current();
  GPURUN_CU_CHECK("cuEventRecord", m_state->api.event_record(m_start, m_state->stream));
  m_started = true;
  m_stopped = false;
}

void CudaTimer::stop() {
  m_state->make_current();
  GPURUN_CU_CHECK("cuEventRecord", m_state->api.event_record(m_stop, m_state->stream));
  m_stopped = true;
}

double CudaTimer::elapsed_ms() {
  if (!m_started || !m_stopped)
    throw Error(ExitCode::device, "timer read before start() and stop() were both recorded");
  m_state->make_current();
  const auto& api = m_state->api;
  GPURUN_CU_CHECK_MSG("cuEventSynchronize", api.event_synchronize(m_stop), ExitCode::device,
                      "kernel '{}' failed", m_state->last_kernel);
  float ms = 0;
  GPURUN_CU_CHECK("cuEventElapsedTime", api.event_elapsed_time(&ms, m_start, m_stop));
  return static_cast<double>(ms);
}

} // namespace gpurun::cuda
