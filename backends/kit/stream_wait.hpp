#pragma once
// Waiting for a driver-shaped API's stream, with the --timeout watchdog.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "backends/backend.hpp"
#include "backends/kit/stream_state.hpp"

namespace gpurun::kit {

/// The stream call a wait ended with, for the caller to raise (with the last kernel's name) once
/// what it opened around the wait, output captures, has ended.
template <DriverTraits Traits> struct StreamWait {
  typename ApiTypes<typename Traits::Api>::Result result = Traits::success;
  const char* call = ""; ///< without the API's prefix: "StreamQuery"
  const char* file = "";
  int line = 0;

  [[nodiscard]] bool failed() const { return result != Traits::success; }
  /// "cuStreamQuery".
  [[nodiscard]] std::string call_name() const { return kit::call_name<Traits>(call); }
};

/// Waits until the state's stream has done its work. Without a timeout (or one beyond
/// k_max_watchdog_s) that is one stream_synchronize. With one it is a watchdog by polling, since
/// stream_synchronize cannot be interrupted and a kernel that never finishes must not hang the
/// tool: stream_query, with pauses from 20 µs doubling up to 1 ms, until the stream is done, then
/// one stream_synchronize; past the deadline the state is marked abandoned and Error(timeout)
/// names the last kernel.
template <StreamContext State>
[[nodiscard]] StreamWait<typename State::Traits> wait_for_stream(State& state,
                                                                 std::optional<double> timeout_s) {
  using Traits = typename State::Traits;
  const auto& api = state.api;
  if (!timeout_s || !(*timeout_s <= k_max_watchdog_s))
    return {api.stream_synchronize(state.stream), "StreamSynchronize", __FILE__, __LINE__};
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + std::chrono::duration<double>(*timeout_s);
  auto pause = std::chrono::microseconds(20);
  for (;;) {
    const typename State::Types::Result r = api.stream_query(state.stream);
    if (r == Traits::success) {
      // A query is not one of the CUDA driver's printf flush points; this returns at once and
      // writes the kernel's device printf now rather than at some later call.
      return {api.stream_synchronize(state.stream), "StreamSynchronize", __FILE__, __LINE__};
    }
    if (r != Traits::not_ready)
      return {r, "StreamQuery", __FILE__, __LINE__};
    if (clock::now() >= deadline) {
      // The kernel keeps running; anything that would wait for it (freeing, unloading, destroying
      // the stream, releasing the context) is skipped from now on and left to process exit.
      state.abandoned = true;
      throw Error(ExitCode::timeout,
                  fmt::format("kernel '{}' did not finish within {:g} s (--timeout)",
                              state.last_kernel.empty() ? std::string("?") : state.last_kernel,
                              *timeout_s));
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(1000));
  }
}

} // namespace gpurun::kit
