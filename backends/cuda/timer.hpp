#pragma once
#include "backends/cuda/driver_types.hpp"

#include <memory>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"

namespace gpurun::cuda {

/// Two events recorded on the context's stream.
class CudaTimer final : public Timer {
public:
  explicit CudaTimer(std::shared_ptr<ContextState> state);
  ~CudaTimer() override;
  CudaTimer(const CudaTimer&) = delete;
  CudaTimer& operator=(const CudaTimer&) = delete;

  void start() override;
  void stop() override;
  [[nodiscard]] double elapsed_ms() override;

private:
  std::shared_ptr<ContextState> m_state;
  CUevent m_start = nullptr;
  CUevent m_stop = nullptr;
  bool m_started = false;
  bool m_stopped = false;
};

} // namespace gpurun::cuda
