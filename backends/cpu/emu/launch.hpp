#pragma once
// One kernel launch running on worker threads (the process's WorkerPool): each worker owns an
// Interpreter (or the compiled engine's BlockRunner) and takes the next block index until the
// grid is done, an error occurs, or the launch is cancelled.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

class LaunchJob {
public:
  /// Starts `workers` workers (at most one per block) right away, on the pool's threads.
  LaunchJob(std::unique_ptr<LaunchState> state, int workers);
  /// Cancels and joins; never throws.
  ~LaunchJob();
  LaunchJob(const LaunchJob&) = delete;
  LaunchJob& operator=(const LaunchJob&) = delete;

  /// Waits until every block ran or `seconds` passed (no limit when empty); true when finished.
  [[nodiscard]] bool wait(std::optional<double> seconds);
  /// Asks the workers to stop and waits for them.
  void cancel();
  /// The first error a worker hit (faults, trap, memcheck), or null.
  [[nodiscard]] std::exception_ptr error() const;
  [[nodiscard]] const LaunchState& state() const noexcept { return *m_state; }
  /// When the last worker finished (valid after wait() returned true).
  [[nodiscard]] std::chrono::steady_clock::time_point finished_at() const;
  [[nodiscard]] std::chrono::steady_clock::time_point started_at() const noexcept {
    return m_started;
  }

private:
  void work(int worker);
  void count_done(std::uint64_t blocks); ///< adds to the launch's progress counter
  void join();

  std::unique_ptr<LaunchState> m_state;
  alignas(64) std::atomic<std::uint64_t> m_next_block{0}; // own cache line: every worker bumps it
  std::uint64_t m_blocks = 0;
  mutable std::mutex m_mutex;
  std::condition_variable m_done_cv;
  int m_running = 0;
  std::exception_ptr m_error;
  std::chrono::steady_clock::time_point m_started;
  std::chrono::steady_clock::time_point m_finished;
};

} // namespace gpurun::emu
