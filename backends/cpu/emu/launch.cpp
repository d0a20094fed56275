#include "backends/cpu/emu/launch.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "backends/backend.hpp"
#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/worker_pool.hpp"
#include "backends/cpu/native/runner.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

LaunchJob::LaunchJob(std::unique_ptr<LaunchState> state, int workers)
    : m_state(std::move(state)), m_started(std::chrono::steady_clock::now()) {
  m_blocks = m_state->grid.volume();
  int n = static_cast<int>(std::clamp<std::uint64_t>(m_blocks, 1, std::max(workers, 1)));
  m_state->workers = n;
  m_running = n;
  m_next_block.store(static_cast<std::uint64_t>(n));
  for (int i = 0; i < n; ++i)
    WorkerPool::instance().run([this, i] { work(i); });
}

LaunchJob::~LaunchJob() {
  m_state->cancel.store(true);
  join();
}

void LaunchJob::work(int worker) {
  try {
    // The compiled engine runs the blocks when the launch has native code; a block in which a
    // thread faulted runs again on the interpreter, which names the thread, line and buffer.
    std::optional<native::BlockRunner> compiled;
    std::optional<Interpreter> interpreter;
    if (m_state->native)
      compiled.emplace(*m_state, m_state->native);
    else
      interpreter.emplace(*m_state, worker);
    const Dim3 grid = m_state->grid;
    const auto workers = static_cast<std::uint64_t>(m_state->workers);
    // A block's index from its number (divisions: once per chunk, then step_index).
    auto index_of = [&](std::uint64_t b) {
      return Dim3{static_cast<std::uint32_t>(b % grid.x),
                  static_cast<std::uint32_t>(b / grid.x % grid.y),
                  static_cast<std::uint32_t>(b / (std::uint64_t{grid.x} * grid.y))};
    };
    auto step_index = [&](Dim3& index) {
      if (++index.x < grid.x)
        return;
      index.x = 0;
      if (++index.y < grid.y)
        return;
      index.y = 0;
      ++index.z;
    };
    auto run = [&](Dim3 index) {
      if (m_state->cancel.load(std::memory_order_relaxed))
        return false;
      if (!compiled) {
        interpreter->run_block(index);
        return true;
      }
      if (compiled->run_block(index))
        return true;
      const std::string where = compiled->fault_location();
      if (!interpreter)
        interpreter.emplace(*m_state, worker);
      interpreter->run_block(index);
      throw device_error(fmt::format(
          "kernel '{}': a memory access fault {} (compiled engine; run again with --cpu-engine "
          "interpret for the buffer it missed)",
          m_state->kernel->name, where));
    };
    // Worker i starts with block i, so every worker gets a block even when the first worker
    // could finish a small grid before the others have started. The rest is handed out in
    // chunks of an eighth of what remains per worker (one block at the end): the counters every
    // worker bumps cost a cache-line transfer each, which on small blocks is a tenth of a block.
    // (The interpreter is destroyed, its counts added to the launch's, before the worker counts
    // itself done below.)
    auto run_all = [&] {
      if (!run(index_of(static_cast<std::uint64_t>(worker))))
        return;
      count_done(1);
      for (;;) {
        std::uint64_t first = m_next_block.load(std::memory_order_relaxed), chunk = 0;
        do {
          if (first >= m_blocks)
            return;
          chunk = std::max<std::uint64_t>(1, (m_blocks - first) / (8 * workers));
        } while (!m_next_block.compare_exchange_weak(first, first + chunk,
                                                     std::memory_order_relaxed));
        Dim3 index = index_of(first);
        for (std::uint64_t b = first; b < first + chunk; ++b, step_index(index))
          if (!run(index))
            return;
        count_done(chunk);
      }
    };
    run_all();
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

void LaunchJob::count_done(std::uint64_t blocks) {
  if (m_state->blocks_done != nullptr)
    m_state->blocks_done->fetch_add(blocks, std::memory_order_relaxed);
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
  // The workers are the pool's threads: done when the last one counted itself out (after which
  // none touches this job again).
  std::unique_lock lock(m_mutex);
  m_done_cv.wait(lock, [&] { return m_running == 0; });
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
