#pragma once
// The threads that run launches' workers, kept from one launch to the next: creating and joining a
// launch's threads took about 45 µs a thread on a virtual machine, a tenth of a small launch.
// A thread that finished a task watches the queue for a short while before it sleeps: launches
// that follow one another (a benchmark's samples, a program's kernels) then find it awake, which
// saves a wake-up of the thread (tens of µs on a virtual machine) per worker and launch. A thread
// allowed only one processor sleeps at once: its watching would hold up the thread it waits for.
#include <atomic>
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
  /// Watches the queue for a while; true when it holds a task (taken under the lock, or not).
  bool watch_for_task() const;

  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<std::function<void()>> m_tasks;
  std::atomic<std::size_t> m_queued = 0; ///< m_tasks.size(), read without the lock
  std::size_t m_watching = 0;            ///< idle threads watching the queue
  std::size_t m_sleeping = 0;            ///< idle threads waiting on m_wake
};

} // namespace gpurun::emu
