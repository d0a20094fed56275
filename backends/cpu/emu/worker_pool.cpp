#include "backends/cpu/emu/worker_pool.hpp"

#include <chrono>
#include <thread>
#include <utility>

#include <sched.h>

namespace gpurun::emu {
namespace {

/// How long an idle thread watches the queue before it sleeps.
constexpr auto k_watch = std::chrono::microseconds(200);

void relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Whether this thread may run on more than one processor: on one, watching would only take the
/// processor from the thread that is to queue the next task.
bool several_processors() noexcept {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) > 1;
}

} // namespace

WorkerPool& WorkerPool::instance() {
  static WorkerPool* const pool = new WorkerPool;
  return *pool;
}

void WorkerPool::run(std::function<void()> task) {
  std::unique_lock lock(m_mutex);
  m_tasks.push_back(std::move(task));
  m_queued.store(m_tasks.size(), std::memory_order_release);
  // Every task queued and not yet taken has an idle thread to take it, or gets a new one: a
  // watching thread takes it unasked, a sleeping one is woken.
  if (m_tasks.size() <= m_watching)
    return;
  if (m_tasks.size() <= m_watching + m_sleeping) {
    lock.unlock();
    m_wake.notify_one();
    return;
  }
  try {
    std::thread([this] { loop(); }).detach();
  } catch (...) {
    m_tasks.pop_back(); // no thread will run it: the caller learns so
    m_queued.store(m_tasks.size(), std::memory_order_release);
    throw;
  }
}

bool WorkerPool::watch_for_task() const {
  const auto until = std::chrono::steady_clock::now() + k_watch;
  for (int i = 0;; ++i) {
    if (m_queued.load(std::memory_order_acquire) != 0)
      return true;
    if (i % 64 == 63) {
      if (std::chrono::steady_clock::now() >= until)
        return false;
      std::this_thread::yield(); // a thread with work to do on this core goes first
    }
    relax();
  }
}

void WorkerPool::loop() {
  const bool watch = several_processors();
  std::unique_lock lock(m_mutex);
  for (;;) {
    if (m_tasks.empty() && watch) {
      ++m_watching;
      lock.unlock();
      (void)watch_for_task();
      lock.lock();
      --m_watching;
    }
    if (m_tasks.empty()) {
      ++m_sleeping;
      m_wake.wait(lock, [&] { return !m_tasks.empty(); });
      --m_sleeping;
    }
    std::function<void()> task = std::move(m_tasks.front());
    m_tasks.pop_front();
    m_queued.store(m_tasks.size(), std::memory_order_release);
    lock.unlock();
    task(); // LaunchJob::work catches everything
    task = nullptr;
    lock.lock();
  }
}

} // namespace gpurun::emu
