#pragma once
// Host-clock timer ordered with the context's stream: start() waits for the launch in flight, and a
// stop() taken while a launch runs ends at that launch's end, so the interval holds exactly the
// launches enqueued between the two.
#include <chrono>
#include <memory>

#include "backends/backend.hpp"
#include "backends/cpu/emu/launch.hpp"

namespace gpurun::cpu {

class CpuContext;

class CpuTimer final : public Timer {
public:
  explicit CpuTimer(CpuContext& context) : m_context(context) {}
  void start() override;
  void stop() override;
  [[nodiscard]] double elapsed_ms() override;

private:
  CpuContext& m_context;
  std::chrono::steady_clock::time_point m_start{};
  std::chrono::steady_clock::time_point m_stop{};
  std::shared_ptr<emu::LaunchJob> m_stop_job;
};

} // namespace gpurun::cpu
