#pragma once
// A driver-shaped API made of plain functions over a script, for the kit's driver-shaped pieces:
// what each call returns is set by the test, and every call is recorded in order.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "backends/kit/stream_state.hpp"
#include "base/error.hpp"

namespace gpurun::test {

enum FakeResult : int { fake_success = 0, fake_not_ready = 600, fake_failure = 700 };
struct FakeStreamObject;
struct FakeEventObject;
using FakeStream = FakeStreamObject*;
using FakeEvent = FakeEventObject*;

/// What the calls return and what they were asked, reset by each test.
struct FakeScript {
  std::vector<FakeResult> event_creates; ///< one per call, in order; success when used up
  FakeResult event_record = fake_success;
  FakeResult event_synchronize = fake_success;
  float elapsed_ms = 0;
  int queries_not_ready = 0;             ///< stream_query says not ready this many times …
  FakeResult query_after = fake_success; ///< … then this
  FakeResult stream_synchronize = fake_success;
  std::vector<std::string> calls;
  int events_made = 0;
  int made_current = 0;
  int made_current_quietly = 0;
};

inline FakeScript& script() {
  static FakeScript s;
  return s;
}

inline FakeEvent event_handle(int n) {
  return reinterpret_cast<FakeEvent>(static_cast<std::uintptr_t>(0x1000 + n));
}

struct FakeApi {
  FakeResult (*event_create)(FakeEvent*) = [](FakeEvent* event) {
    auto& s = script();
    s.calls.emplace_back("event_create");
    if (!s.event_creates.empty()) {
      const FakeResult r = s.event_creates.front();
      s.event_creates.erase(s.event_creates.begin());
      if (r != fake_success)
        return r;
    }
    *event = event_handle(++s.events_made);
    return fake_success;
  };
  FakeResult (*event_destroy)(FakeEvent) = [](FakeEvent event) {
    script().calls.push_back(
        fmt::format("event_destroy {}", reinterpret_cast<std::uintptr_t>(event) - 0x1000));
    return fake_success;
  };
  FakeResult (*event_record)(FakeEvent, FakeStream) = [](FakeEvent, FakeStream) {
    script().calls.emplace_back("event_record");
    return script().event_record;
  };
  FakeResult (*event_synchronize)(FakeEvent) = [](FakeEvent) {
    script().calls.emplace_back("event_synchronize");
    return script().event_synchronize;
  };
  FakeResult (*event_elapsed_time)(float*, FakeEvent, FakeEvent) = [](float* ms, FakeEvent,
                                                                      FakeEvent) {
    script().calls.emplace_back("event_elapsed_time");
    *ms = script().elapsed_ms;
    return fake_success;
  };
  FakeResult (*stream_query)(FakeStream) = [](FakeStream) {
    auto& s = script();
    s.calls.emplace_back("stream_query");
    if (s.queries_not_ready > 0) {
      --s.queries_not_ready;
      return fake_not_ready;
    }
    return s.query_after;
  };
  FakeResult (*stream_synchronize)(FakeStream) = [](FakeStream) {
    script().calls.emplace_back("stream_synchronize");
    return script().stream_synchronize;
  };
};

struct FakeTraits {
  using Api = FakeApi;
  static constexpr FakeResult success = fake_success;
  static constexpr FakeResult not_ready = fake_not_ready;
  static constexpr const char* call_prefix = "fake";
  static FakeResult create_event(const Api& api, FakeEvent* event) {
    return api.event_create(event);
  }
  [[noreturn]] static void raise(FakeResult result, const char* call, ExitCode code,
                                 std::string_view what, const char* file, int line) {
    throw BackendError(code, "fake", call, result, fmt::format("FAKE_{}", static_cast<int>(result)),
                       fmt::format("{}: FAKE_{}", what, static_cast<int>(result)), file, line);
  }
};

struct FakeState : kit::StreamState<FakeTraits> {
  explicit FakeState(const FakeApi& fake_api) : StreamState(fake_api) {}
  void make_current() const { ++script().made_current; }
  void make_current_quietly() const noexcept { ++script().made_current_quietly; }
};

/// Resets the script for a test.
inline FakeScript& fresh_script() {
  script() = FakeScript{};
  return script();
}

} // namespace gpurun::test
