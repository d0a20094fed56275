#pragma once
// What a context shares with its buffers, programs and timers: the cl_context and its in-order
// queue (with profiling), the printf capture of the work in flight, and the events a timer
// records.
#include "backends/opencl/api.hpp"

#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/kit/fd_capture.hpp"

namespace gpurun::opencl {

struct ContextState {
  ContextState(const Api& api, cl_platform_id platform, cl_device_id device);
  /// Waits for the queue and releases it and the context, unless a kernel was abandoned to the
  /// watchdog (then both are left to process exit).
  ~ContextState();
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;

  const Api& api;
  cl_platform_id platform;
  cl_device_id device;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  /// Where device printf goes (empty: standard output, where the platform writes it).
  DeviceOutputSink device_output;
  /// Descriptor 1 captured from the first launch after a synchronize to the next synchronize,
  /// when device_output is set: a platform on the CPU (PoCL) prints while the kernel runs.
  std::optional<kit::FdCapture> printf_capture;
  std::string last_kernel;
  bool abandoned = false;
  /// The kernel events of the timer now running (nullptr: none runs).
  std::vector<cl_event>* recording = nullptr;
};

} // namespace gpurun::opencl
