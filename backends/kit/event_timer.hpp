#pragma once
// The Timer of a driver-shaped API: two events recorded on the context's stream.
#include <memory>

#include <fmt/format.h>

#include "backends/backend.hpp"
#include "backends/kit/stream_state.hpp"

namespace gpurun::kit {

template <StreamContext State> class EventTimer final : public Timer {
  using Traits = typename State::Traits;
  using Types = typename State::Types;

public:
  explicit EventTimer(std::shared_ptr<State> state) : m_state(std::move(state)) {
    m_state->make_current();
    const auto& api = m_state->api;
    check<Traits>(Traits::create_event(api, &m_start), "EventCreate");
    const typename Types::Result second = Traits::create_event(api, &m_stop);
    if (second != Traits::success) {
      (void)api.event_destroy(m_start);
      check<Traits>(second, "EventCreate");
    }
  }

  ~EventTimer() override {
    if (m_state->abandoned)
      return;
    m_state->make_current_quietly();
    (void)m_state->api.event_destroy(m_start);
    (void)m_state->api.event_destroy(m_stop);
  }

  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start() override {
    m_state->make_current();
    check<Traits>(m_state->api.event_record(m_start, m_state->stream), "EventRecord");
    m_started = true;
    m_stopped = false;
  }

  void stop() override {
    m_state->make_current();
    check<Traits>(m_state->api.event_record(m_stop, m_state->stream), "EventRecord");
    m_stopped = true;
  }

  /// Waits for the stop event; a failure there is the last kernel's.
  [[nodiscard]] double elapsed_ms() override {
    if (!m_started || !m_stopped)
      throw Error(ExitCode::device, "timer read before start() and stop() were both recorded");
    m_state->make_current();
    const auto& api = m_state->api;
    if (const typename Types::Result r = api.event_synchronize(m_stop); r != Traits::success)
      Traits::raise(r, call_name<Traits>("EventSynchronize").c_str(), ExitCode::device,
                    fmt::format("kernel '{}' failed", m_state->last_kernel), __FILE__, __LINE__);
    float ms = 0;
    check<Traits>(api.event_elapsed_time(&ms, m_start, m_stop), "EventElapsedTime");
    return static_cast<double>(ms);
  }

private:
  std::shared_ptr<State> m_state;
  typename Types::Event m_start = nullptr;
  typename Types::Event m_stop = nullptr;
  bool m_started = false;
  bool m_stopped = false;
};

} // namespace gpurun::kit
