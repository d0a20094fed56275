#pragma once
// What a context on a driver-shaped API shares with its buffers, modules and timers: the stream
// they were made on, and what teardown and error messages need. Each holds a
// shared_ptr to it, so the stream (and the context it belongs to) goes after the last of them,
// whatever order the caller destroys them in.
#include <concepts>
#include <string>

#include "backends/backend.hpp"
#include "backends/kit/driver_traits.hpp"

namespace gpurun::kit {

/// The part every backend's state has; the backend's ContextState derives from it and adds its
/// device (and context) and how they are made current (StreamContext).
template <DriverTraits T> struct StreamState {
  using Traits = T;
  using Types = ApiTypes<typename T::Api>;

  explicit StreamState(const typename T::Api& table) : api(table) {}
  StreamState(const StreamState&) = delete;
  StreamState& operator=(const StreamState&) = delete;

  const typename T::Api& api;
  typename Types::Stream stream = nullptr;
  /// Set when a watchdog timeout left a kernel running: freeing memory, unloading modules or
  /// releasing the context would block on it, so teardown leaves them to process exit.
  bool abandoned = false;
  /// The kernel most recently launched, named in fault messages.
  std::string last_kernel;
  /// Where device printf text goes (ContextOptions::device_output); empty: standard output.
  DeviceOutputSink device_output;
};

/// A backend's state: a StreamState that makes its context or device current on the calling
/// thread, raising a failure (make_current) or, in teardown, ignoring it (make_current_quietly).
template <class S>
concept StreamContext = DriverTraits<typename S::Traits> &&
    std::derived_from<S, StreamState<typename S::Traits>> && requires(const S& state) {
  state.make_current();
  { state.make_current_quietly() }
  noexcept;
};

} // namespace gpurun::kit
