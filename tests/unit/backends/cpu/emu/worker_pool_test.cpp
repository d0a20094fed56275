#include "backends/cpu/emu/worker_pool.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

namespace gpurun::emu {
namespace {

// A latch of our own: counts down, and waits for zero with a deadline so that a pool that failed
// to run a task fails the test instead of hanging it.
class Countdown {
public:
  explicit Countdown(int n) : m_left(n) {}
  void done() {
    std::lock_guard lock(m_mutex);
    if (--m_left == 0)
      m_cv.notify_all();
  }
  bool wait(std::chrono::seconds limit = std::chrono::seconds(20)) {
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, limit, [&] { return m_left == 0; });
  }

private:
  std::mutex m_mutex;
  std::condition_variable m_cv;
  int m_left;
};

// Each task gets a thread at once: tasks that each wait until all of them have started finish
// only if they run side by side, however many there are.
TEST(WorkerPool, EveryTaskRunsAtOnceOnAThreadOfItsOwn) {
  constexpr int n = 12;
  Countdown started(n), finished(n);
  for (int i = 0; i < n; ++i)
    WorkerPool::instance().run([&] {
      started.done();
      (void)started.wait();
      finished.done();
    });
  EXPECT_TRUE(finished.wait()) << "a task waited for a thread";
}

// Launch after launch, the same threads run the workers: a thread that ran one task runs more.
// (Thread ids prove nothing here: the C library reuses a finished thread's id.)
TEST(WorkerPool, ThreadsAreKeptBetweenRounds) {
  thread_local int tasks_here = 0;
  std::atomic<int> most{0};
  for (int round = 0; round < 40; ++round) {
    Countdown done(2);
    for (int i = 0; i < 2; ++i)
      WorkerPool::instance().run([&] {
        const int n = ++tasks_here;
        for (int m = most.load(); n > m && !most.compare_exchange_weak(m, n);) {
        }
        done.done();
      });
    ASSERT_TRUE(done.wait());
  }
  // Eighty tasks: on threads created per task, every thread would have run exactly one.
  EXPECT_GE(most.load(), 2);
}

// Tasks that come at once, soon after the last ones finished or long after (the threads asleep)
// all run side by side: none is left without a thread.
TEST(WorkerPool, TasksArrivingAtAnyPaceAllFindThreads) {
  for (const int gap_us : {0, 50, 150, 200, 250, 400, 2000}) {
    for (int round = 0; round < 5; ++round) {
      constexpr int n = 3;
      Countdown started(n), finished(n);
      for (int i = 0; i < n; ++i)
        WorkerPool::instance().run([&] {
          started.done();
          (void)started.wait();
          finished.done();
        });
      ASSERT_TRUE(finished.wait()) << "a task waited for a thread, " << gap_us << " µs apart";
      std::this_thread::sleep_for(std::chrono::microseconds(gap_us));
    }
  }
}

TEST(WorkerPool, ManySmallTasksAllRun) {
  constexpr int n = 200;
  std::atomic<int> ran{0};
  Countdown done(n);
  for (int i = 0; i < n; ++i)
    WorkerPool::instance().run([&] {
      ran.fetch_add(1);
      done.done();
    });
  ASSERT_TRUE(done.wait());
  EXPECT_EQ(ran.load(), n);
}

} // namespace
} // namespace gpurun::emu
