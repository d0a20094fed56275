#include "backends/cpu/emu/launch.hpp"

#include <algorithm>

#include "backends/backend.hpp"
#include "backends/cpu/emu/interpreter.hpp"

namespace gpurun::emu {

LaunchJob::LaunchJob(std::unique_ptr<LaunchState> state, int workers)
    : m_state(std::move(state)), m_started(std::chrono::steady_clock::now()) {
  m_blocks = m_state->grid.volume();
  int n = static_cast<int>(std::clamp<std::uint64_t>(m_blocks, 1, std::max(workers, 1)));
  m_state->workers = n;
  m_running = n;
  m_next_block.store(static_cast<std::uint64_t>(n));
  m_threads.reserve(n);
  for (int i = 0; i < n; ++i)
    m_threads.emplace_back([this, i] { work(i); });
}

LaunchJob::~LaunchJob() {
  m_state->cancel.store(true);
  join();
}

void LaunchJob::work(int worker) {
  try {
    Interpreter interpreter(*m_state, worker);
    const Dim3 grid = m_state->grid;
    // Worker i starts with block i, so every worker gets a block even when the first worker
    // could finish a small grid before the others have started; the rest is handed out on demand.
    std::uint64_t b = static_cast<std::uint64_t>(worker);
    for (bool first = true;; first = false) {
      if (m_state->cancel.load(std::memory_order_relaxed))
        break;
      if (!first)
        b = m_next_block.fetch_add(1, std::memory_order_relaxed);
      if (b >= m_blocks)
        break;
      Dim3 index{static_cast<std::uint32_t>(b % grid.x),
                 static_cast<std::uint32_t>(b / grid.x % grid.y),
                 static_cast<std::uint32_t>(b / (std::uint64_t{grid.x} * grid.y))};
      interpreter.run_block(index);
      if (m_state->blocks_done != nullptr)
        m_state->blocks_done->fetch_add(1, std::memory_order_relaxed);
    }
  } catch (const Cancelled&) {
  } catch (...) {
    std::lock_guard lock(m_mutex);
    if (!m_error)
      m_error = std::current_exception();
    m_state->cancel.store(true); // the other workers stop at their next check
  }
  std::lock_guard lock(m_mutex);
  if (--m_running == 0) {
    m_finished = std::chrono::steady_clock::now();
    m_done_cv.notify_all();
  }
}

bool LaunchJob::wait(std::optional<double> seconds) {
  std::unique_lock lock(m_mutex);
  if (!seconds || !(*seconds <= k_max_watchdog_s)) {
    m_done_cv.wait(lock, [&] { return m_running == 0; });
    return true;
  }
  auto limit = std::chrono::duration<double>(*seconds);
  return m_done_cv.wait_for(lock, limit, [&] { return m_running == 0; });
}

void LaunchJob::cancel() {
  m_state->cancel.store(true);
  join();
}

void LaunchJob::join() {
  for (auto& t : m_threads)
    if (t.joinable())
      t.join();
}

std::exception_ptr LaunchJob::error() const {
  std::lock_guard lock(m_mutex);
  return m_error;
}

std::chrono::steady_clock::time_point LaunchJob::finished_at() const {
  std::lock_guard lock(m_mutex);
  return m_finished;
}

} // namespace gpurun::emu
