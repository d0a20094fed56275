#pragma once
// Holding a CUDA stream (Context::hold_stream): a one-thread kernel spins on a flag in mapped host
// memory until the host sets it, so that the launches enqueued behind it start together when the
// host lets go, with the cost of enqueueing them outside any timer recorded after the hold.
#include "backends/cuda/driver_types.hpp"

#include <cstdint>
#include <memory>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"

namespace gpurun::cuda {

/// The PTX of the holding kernel: `gpurun_hold_stream(const volatile u32* flag, u64 limit_ns)`
/// returns when *flag is not 0 or after limit_ns of %globaltimer.
[[nodiscard]] std::string_view hold_stream_ptx();

/// What every hold of one context shares: the mapped flag and the loaded holding kernel. Made on
/// the first hold and kept for the context's life.
class StreamGate {
public:
  explicit StreamGate(std::shared_ptr<ContextState> state);
  ~StreamGate();
  StreamGate(const StreamGate&) = delete;
  StreamGate& operator=(const StreamGate&) = delete;

  /// Launches the holding kernel on the context's stream.
  [[nodiscard]] std::unique_ptr<StreamHold> hold(double limit_s);

private:
  std::shared_ptr<ContextState> m_state;
  std::uint32_t* m_flag = nullptr; ///< mapped host memory the kernel polls
  CUdeviceptr m_flag_device = 0;
  CUmodule m_module = nullptr;
  CUfunction m_function = nullptr;
};

} // namespace gpurun::cuda
