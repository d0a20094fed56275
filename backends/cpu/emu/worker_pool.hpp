#pragma once
// The threads that run launches' workers, kept from one launch to the next: creating and joining a
// launch's threads took about 45 µs a thread on a virtual machine, a tenth of a small launch.
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

namespace gpurun::emu {

class WorkerPool {
public:
  /// The process's pool. Never destroyed: a thread still inside a kernel that was given up on
  /// (a timeout) must not hold up the process's exit.
  static WorkerPool& instance();

  /// Runs `task` on a thread of its own at once: an idle one, or a new one when none is idle, so
  /// that a task waiting for other tasks never waits for a free thread.
  void run(std::function<void()> task);

  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

private:
  WorkerPool() = default;
  void loop();

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::function<void()>> m_tasks;
  std::size_t m_idle = 0; ///< threads waiting for a task
};

} // namespace gpurun::emu
