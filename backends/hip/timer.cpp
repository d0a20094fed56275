#include "backends/hip/timer.hpp"

#include "backends/hip/error.hpp"

namespace gpurun::hip {

HipTimer::HipTimer(std::shared_ptr<ContextState> state) : m_state(std::move(state)) {
  m_state->make_current();
  const auto& api = m_state->api;
  GPURUN_HIP_CHECK("hipEventCreate", api.event_create(&m_start));
  const hipError_t second = api.event_create(&m_stop);
  if (second != hipSuccess) {
    (void)api.event_destroy(m_start);
    throw_error(second, "hipEventCreate", ExitCode::device, "hipEventCreate failed", __FILE__,
                __LINE__);
  }
}

HipTimer::~HipTimer() {
  if (m_state->abandoned)
    return;
  (void)m_state->api.set_device(m_state->device);
  (void)m_state->api.event_destroy(m_start);
  (void)m_state->api.event_destroy(m_stop);
}

void HipTimer::start() {
  m_state->make_current();
  GPURUN_HIP_CHECK("hipEventRecord", m_state->api.event_record(m_start, m_state->stream));
  m_started = true;
  m_stopped = false;
}

void HipTimer::stop() {
  m_state->make_current();
  GPURUN_HIP_CHECK("hipEventRecord", m_state->api.event_record(m_stop, m_state->stream));
  m_stopped = true;
}

double HipTimer::elapsed_ms() {
  if (!m_started || !m_stopped)
    throw Error(ExitCode::device, "timer read before start() and stop() were both recorded");
  m_state->make_current();
  const auto& api = m_state->api;
  GPURUN_HIP_CHECK_MSG("hipEventSynchronize", api.event_synchronize(m_stop), ExitCode::device,
                       "kernel '{}' failed", m_state->last_kernel);
  float ms = 0;
  GPURUN_HIP_CHECK("hipEventElapsedTime", api.event_elapsed_time(&ms, m_start, m_stop));
  return static_cast<double>(ms);
}

} // namespace gpurun::hip
