#include "backends/cpu/timer.hpp"

#include <algorithm>

#include "backends/cpu/context.hpp"

namespace gpurun::cpu {

void CpuTimer::start() {
  m_context.wait_idle();
  m_start = std::chrono::steady_clock::now();
  m_stop_job.reset();
}

void CpuTimer::stop() {
  m_stop_job = m_context.current_job();
  m_stop = std::chrono::steady_clock::now();
}

double CpuTimer::elapsed_ms() {
  auto stop = m_stop;
  // A launch enqueued before start() finished inside start(); only a later one extends the
  // interval to its end.
  if (m_stop_job && m_stop_job->started_at() >= m_start) {
    (void)m_stop_job->wait(std::nullopt);
    stop = std::max(stop, m_stop_job->finished_at());
  }
  return std::chrono::duration<double, std::milli>(stop - m_start).count();
}

} // namespace gpurun::cpu
