#pragma once
// What a HIP context's buffers, modules and timers share with it: the device and the stream they
// were made on (kit/stream_state.hpp). The HIP runtime prints device printf to standard output
// itself when the kernel's work completes, so synchronize() and teardown run inside a
// kit::DeviceOutputScope (as on CUDA).
#include "backends/hip/rocm_types.hpp"

#include "backends/hip/api_traits.hpp"
#include "backends/kit/stream_state.hpp"

namespace gpurun::hip {

struct ContextState : kit::StreamState<ApiTraits> {
  ContextState(const RuntimeApi& runtime_api, int dev);
  ~ContextState();

  /// Makes the device current on the calling thread (HIP's per-thread device).
  void make_current() const;
  /// The same for teardown, which must not throw: a failure is ignored.
  void make_current_quietly() const noexcept;

  int device = 0;
};

} // namespace gpurun::hip
