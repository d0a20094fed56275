#pragma once
// What a context's buffers, modules and timers share with it: the primary context and stream
// they were made in. Each holds a shared_ptr, so the context is released after the last of them,
// whatever order the caller destroys them in.
#include "backends/cuda/driver_types.hpp"

#include <string>

#include "backends/cuda/api.hpp"

namespace gpurun::cuda {

struct ContextState {
  ContextState(const DriverApi& driver_api, CUdevice dev);
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  /// Makes the primary context current on the calling thread.
  void make_current() const;

  const DriverApi& api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  /// Set when a watchdog timeout left a kernel running: freeing memory, unloading modules or
  /// releasing the context would block on it, so teardown leaves them to process exit.
  bool abandoned = false;
  /// The kernel most recently launched, named in fault messages.
  std::string last_kernel;
};

} // namespace gpurun::cuda
