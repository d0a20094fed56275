#include "backends/cpu/emu/worker_pool.hpp"

#include <thread>
#include <utility>

namespace gpurun::emu {

WorkerPool& WorkerPool::instance() {
  static WorkerPool* const pool = new WorkerPool;
  return *pool;
}

void WorkerPool::run(std::function<void()> task) {
  std::unique_lock lock(m_mutex);
  m_tasks.push_back(std::move(task));
  // Every task queued and not yet taken has an idle thread to take it, or gets a new one.
  if (m_tasks.size() <= m_idle) {
    lock.unlock();
    m_wake.notify_one();
    return;
  }
  try {
    std::thread([this] { loop(); }).detach();
  } catch (...) {
    m_tasks.pop_back(); // no thread will run it: the caller learns so
    throw;
  }
}

void WorkerPool::loop() {
  std::unique_lock lock(m_mutex);
  for (;;) {
    if (m_tasks.empty()) {
      ++m_idle;
      m_wake.wait(lock, [&] { return !m_tasks.empty(); });
      --m_idle;
    }
    std::function<void()> task = std::move(m_tasks.front());
    m_tasks.pop_front();
    lock.unlock();
    task(); // LaunchJob::work catches everything
    task = nullptr;
    lock.lock();
  }
}

} // namespace gpurun::emu
