#include "backends/kit/stream_wait.hpp"

#include <gtest/gtest.h>

#include "fake_driver.hpp"

namespace gpurun {
namespace {

using test::FakeApi;
using test::FakeState;
using Strings = std::vector<std::string>;

TEST(StreamWait, WithoutATimeoutSynchronizesOnce) {
  auto& s = test::fresh_script();
  const FakeApi api;
  FakeState state(api);
  const auto wait = kit::wait_for_stream(state, std::nullopt);
  EXPECT_FALSE(wait.failed());
  EXPECT_EQ(s.calls, Strings{"stream_synchronize"});
}

TEST(StreamWait, ATimeoutBeyondTheWatchdogsLimitSynchronizesOnce) {
  auto& s = test::fresh_script();
  const FakeApi api;
  FakeState state(api);
  (void)kit::wait_for_stream(state, k_max_watchdog_s * 2);
  EXPECT_EQ(s.calls, Strings{"stream_synchronize"});
}

TEST(StreamWait, PollsUntilDoneThenSynchronizes) {
  auto& s = test::fresh_script();
  s.queries_not_ready = 3;
  const FakeApi api;
  FakeState state(api);
  const auto wait = kit::wait_for_stream(state, 60.0);
  EXPECT_FALSE(wait.failed());
  EXPECT_EQ(s.calls, (Strings{"stream_query", "stream_query", "stream_query", "stream_query",
                              "stream_synchronize"}));
  EXPECT_FALSE(state.abandoned);
}

TEST(StreamWait, ReturnsTheFailedCall) {
  auto& s = test::fresh_script();
  s.queries_not_ready = 1;
  s.query_after = test::fake_failure;
  const FakeApi api;
  FakeState state(api);
  const auto queried = kit::wait_for_stream(state, 60.0);
  EXPECT_TRUE(queried.failed());
  EXPECT_EQ(queried.result, test::fake_failure);
  EXPECT_EQ(queried.call_name(), "fakeStreamQuery");
  EXPECT_EQ(s.calls, (Strings{"stream_query", "stream_query"})) << "no synchronize after";

  test::fresh_script().stream_synchronize = test::fake_failure;
  const auto synchronized = kit::wait_for_stream(state, std::nullopt);
  EXPECT_TRUE(synchronized.failed());
  EXPECT_EQ(synchronized.call_name(), "fakeStreamSynchronize");
  EXPECT_GT(synchronized.line, 0);
}

TEST(StreamWait, ATimeoutAbandonsTheStateAndNamesTheKernel) {
  auto& s = test::fresh_script();
  s.queries_not_ready = 1'000'000'000;
  const FakeApi api;
  FakeState state(api);
  state.last_kernel = "spin";
  try {
    (void)kit::wait_for_stream(state, 0.02);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::timeout);
    EXPECT_STREQ(e.what(), "kernel 'spin' did not finish within 0.02 s (--timeout)");
  }
  EXPECT_TRUE(state.abandoned);
  EXPECT_GT(s.calls.size(), 2U);
  EXPECT_EQ(s.calls.back(), "stream_query") << "a hung stream is never synchronized";

  test::fresh_script().queries_not_ready = 1'000'000'000;
  FakeState unnamed(api);
  try {
    (void)kit::wait_for_stream(unnamed, 0.0);
    FAIL() << "no timeout";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel '?' did not finish within 0 s (--timeout)");
  }
}

} // namespace
} // namespace gpurun
