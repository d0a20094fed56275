#pragma once
// A CPU "device": the PTX emulator presenting itself as an sm_90 GPU. The backend has one, or N
// virtual devices for multi-device tests (`--cpu-devices N`), each with its own contexts and
// memory and an equal share of the cores.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "backends/backend.hpp"

namespace gpurun::cpu {

/// Test-only: how one virtual device fails (GPURUN_TEST_FAIL_DEVICE=INDEX[@LAUNCHES],
/// docs/multi-gpu.md). Without LAUNCHES it cannot make a context; with them, its contexts run that
/// many launches in all, then every launch fails with a device error and no context can be made:
/// a device lost in the middle of a run.
struct FailurePlan {
  int device = 0;
  std::optional<std::int64_t> after_launches;
};

/// The variable's value parsed; nullopt when unset or empty. A malformed value is a usage Error
/// naming the variable.
[[nodiscard]] std::optional<FailurePlan> parse_failure_plan(const char* text);

class CpuDevice final : public Device {
public:
  /// Device `index` of `count`; `failure` (test-only) applies when it names this index.
  explicit CpuDevice(int index = 0, int count = 1,
                     const std::optional<FailurePlan>& failure = std::nullopt);
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions& options) override;
  [[nodiscard]] std::unique_ptr<ClockMonitor> clock_monitor(std::string& why_not) override;

private:
  DeviceProperties m_properties;
  int m_index = 0;
  int m_workers = 1; ///< the default worker threads of its contexts
  bool m_fails = false;
  /// Launches left before the device is lost, shared with its contexts; null: never lost.
  std::shared_ptr<std::atomic<std::int64_t>> m_launch_budget;
};

} // namespace gpurun::cpu
