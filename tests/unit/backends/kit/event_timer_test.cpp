#include "backends/kit/event_timer.hpp"

#include <gtest/gtest.h>

#include "fake_driver.hpp"

namespace gpurun {
namespace {

using test::FakeApi;
using test::FakeState;
using Strings = std::vector<std::string>;

TEST(EventTimer, RecordsBothEventsOnTheStreamAndReadsTheTimeBetween) {
  auto& s = test::fresh_script();
  s.elapsed_ms = 2.5F;
  const FakeApi api;
  auto state = std::make_shared<FakeState>(api);
  {
    kit::EventTimer<FakeState> timer(state);
    timer.start();
    timer.stop();
    EXPECT_DOUBLE_EQ(timer.elapsed_ms(), 2.5);
  }
  EXPECT_EQ(s.calls, (Strings{"event_create", "event_create", "event_record", "event_record",
                              "event_synchronize", "event_elapsed_time", "event_destroy 1",
                              "event_destroy 2"}));
  EXPECT_EQ(s.made_current, 4) << "construction, start, stop and the read";
  EXPECT_EQ(s.made_current_quietly, 1) << "teardown";
}

TEST(EventTimer, ReadBeforeStartAndStopIsAnError) {
  test::fresh_script();
  const FakeApi api;
  kit::EventTimer<FakeState> timer(std::make_shared<FakeState>(api));
  try {
    (void)timer.elapsed_ms();
    FAIL() << "no error";
  } catch (const BackendError&) {
    FAIL() << "not a driver call's error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_STREQ(e.what(), "timer read before start() and stop() were both recorded");
  }
  timer.start();
  EXPECT_THROW((void)timer.elapsed_ms(), Error);
  timer.stop();
  timer.start();
  EXPECT_THROW((void)timer.elapsed_ms(), Error) << "a new start() needs a new stop()";
}

TEST(EventTimer, AFailedSecondEventDestroysTheFirst) {
  auto& s = test::fresh_script();
  s.event_creates = {test::fake_success, test::fake_failure};
  const FakeApi api;
  try {
    kit::EventTimer<FakeState> timer(std::make_shared<FakeState>(api));
    FAIL() << "no error";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.call(), "fakeEventCreate");
    EXPECT_EQ(e.native_code(), test::fake_failure);
    EXPECT_STREQ(e.what(), "fakeEventCreate failed: FAKE_700");
  }
  EXPECT_EQ(s.calls, (Strings{"event_create", "event_create", "event_destroy 1"}));
}

TEST(EventTimer, AFailureWhileWaitingNamesTheLastKernel) {
  auto& s = test::fresh_script();
  s.event_synchronize = test::fake_failure;
  const FakeApi api;
  auto state = std::make_shared<FakeState>(api);
  state->last_kernel = "saxpy";
  kit::EventTimer<FakeState> timer(state);
  timer.start();
  timer.stop();
  try {
    (void)timer.elapsed_ms();
    FAIL() << "no error";
  } catch (const BackendError& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_EQ(e.call(), "fakeEventSynchronize");
    EXPECT_STREQ(e.what(), "kernel 'saxpy' failed: FAKE_700");
  }
}

TEST(EventTimer, AnAbandonedContextKeepsItsEvents) {
  auto& s = test::fresh_script();
  const FakeApi api;
  auto state = std::make_shared<FakeState>(api);
  {
    kit::EventTimer<FakeState> timer(state);
    state->abandoned = true;
  }
  EXPECT_EQ(s.calls, (Strings{"event_create", "event_create"}));
  EXPECT_EQ(s.made_current_quietly, 0);
}

} // namespace
} // namespace gpurun
