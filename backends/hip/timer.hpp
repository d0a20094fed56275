#pragma once
#include "backends/hip/rocm_types.hpp"

#include <memory>

#include "backends/backend.hpp"
#include "backends/hip/context_state.hpp"

namespace gpurun::hip {

/// Two events recorded on the context's stream.
class HipTimer final : public Timer {
public:
  explicit HipTimer(std::shared_ptr<ContextState> state);
  ~HipTimer() override;
  HipTimer(const HipTimer&) = delete;
  HipTimer& operator=(const HipTimer&) = delete;

  void start() override;
  void stop() override;
  [[nodiscard]] double elapsed_ms() override;

private:
  std::shared_ptr<ContextState> m_state;
  hipEvent_t m_start = nullptr;
  hipEvent_t m_stop = nullptr;
  bool m_started = false;
  bool m_stopped = false;
};

} // namespace gpurun::hip
