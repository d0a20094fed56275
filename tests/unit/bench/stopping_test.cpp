#include "bench/stopping.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "bench/statistics.hpp"

namespace gpurun::bench {
namespace {

struct Stop {
  std::size_t samples = 0;
  std::optional<StopReason> reason;
};

/// Feeds `next(i)` samples, each taking `wall_per_sample` seconds of wall time, until the
/// criterion stops or `limit` samples were fed.
template <typename Next>
Stop run_stream(StoppingCriterion& criterion, Next next, double wall_per_sample,
                std::size_t limit = 100'000) {
  double wall = 0;
  for (std::size_t i = 0; i < limit; ++i) {
    wall += wall_per_sample;
    criterion.add(next(i), wall);
    if (auto reason = criterion.should_stop(wall))
      return {criterion.samples(), reason};
  }
  return {criterion.samples(), std::nullopt};
}

TEST(StopReason, Names) {
  EXPECT_EQ(to_string(StopReason::noise), "noise");
  EXPECT_EQ(to_string(StopReason::settled), "settled");
  EXPECT_EQ(to_string(StopReason::timeout), "timeout");
  EXPECT_EQ(to_string(StopReason::max_samples), "max_samples");
}

TEST(StoppingCriterion, QuietStreamStopsOnNoiseOnlyOnceTheMeasuredTimeIsIn) {
  // Samples of 1/64 s ± 2^-9 relative (noise ≈ 0.002 < 0.005), exact in binary: the measured
  // time reaches the 0.5 s minimum at sample 32, well after the 10-sample minimum.
  StoppingCriterion criterion(StoppingRules{});
  const auto sample = [](std::size_t i) {
    return (1.0 / 64) * (1 + (i % 2 == 0 ? -1.0 : 1.0) / 512);
  };
  const Stop stop = run_stream(criterion, sample, 0.02);
  EXPECT_EQ(stop.reason, StopReason::noise);
  EXPECT_EQ(stop.samples, 32u);
  EXPECT_DOUBLE_EQ(criterion.measured_s(), 0.5);
  EXPECT_LT(criterion.noise(), 0.005);
}

TEST(StoppingCriterion, QuietStreamWaitsForMinSamples) {
  // 1 s samples pass the time minimum at once; the sample minimum holds it to 10.
  StoppingCriterion criterion(StoppingRules{});
  const Stop stop = run_stream(
      criterion, [](std::size_t i) { return i % 2 == 0 ? 1.0 : 1.001; }, 1.0);
  EXPECT_EQ(stop.reason, StopReason::noise);
  EXPECT_EQ(stop.samples, 10u);
}

TEST(StoppingCriterion, NoisyStreamThatStabilizesStopsSettled) {
  // Alternating 1.0 and 1.2: the noise stays near 0.09, far above 0.005, but stops changing.
  // The minimums are met at sample 10; the window of 64 noise estimates is full at sample 73.
  StoppingCriterion criterion(StoppingRules{});
  const Stop stop = run_stream(
      criterion, [](std::size_t i) { return i % 2 == 0 ? 1.0 : 1.2; }, 1.0 / 16);
  EXPECT_EQ(stop.reason, StopReason::settled);
  EXPECT_EQ(stop.samples, 73u);
  EXPECT_GT(criterion.noise(), 0.08);
}

TEST(StoppingCriterion, NoiseStillMovingDoesNotCountAsSettled) {
  // The spread of each block of 64 grows with the sample count, so the noise keeps rising and
  // its window never settles within 5%: only the timeout ends the case.
  StoppingRules rules;
  rules.timeout_s = 15;
  StoppingCriterion criterion(rules);
  const Stop stop = run_stream(
      criterion,
      [](std::size_t i) {
        const double spread = 0.01 * static_cast<double>(i);
        return i % 2 == 0 ? 1.0 - spread / 200 : 1.0 + spread;
      },
      0.125);
  EXPECT_EQ(stop.reason, StopReason::timeout);
  EXPECT_EQ(stop.samples, 120u);
}

TEST(StoppingCriterion, StreamThatNeverQuietensTimesOut) {
  StoppingRules rules;
  rules.settle_window = 1000; // more estimates than the timeout leaves room for
  StoppingCriterion criterion(rules);
  const Stop stop = run_stream(
      criterion, [](std::size_t i) { return i % 2 == 0 ? 1.0 : 2.0; }, 0.125);
  EXPECT_EQ(stop.reason, StopReason::timeout);
  EXPECT_EQ(stop.samples, 120u); // 15 s of wall time at 1/8 s a sample
}

TEST(StoppingCriterion, TimeoutWithoutAnyKeptSample) {
  // Every sample throttled and discarded: the wall clock alone ends the case.
  StoppingCriterion criterion(StoppingRules{});
  EXPECT_EQ(criterion.should_stop(14.9), std::nullopt);
  EXPECT_EQ(criterion.should_stop(15.0), StopReason::timeout);
  EXPECT_EQ(criterion.samples(), 0u);
  EXPECT_TRUE(std::isinf(criterion.noise()));
}

TEST(StoppingCriterion, TimeoutEndsACaseBeforeItsMinimums) {
  StoppingCriterion criterion(StoppingRules{});
  criterion.add(1.0, 5);
  criterion.add(1.0, 16);
  EXPECT_EQ(criterion.should_stop(16), StopReason::timeout);
}

TEST(StoppingCriterion, MaxSamples) {
  StoppingRules rules;
  rules.max_samples = 100;
  rules.settle_window = 1000;
  StoppingCriterion criterion(rules);
  const Stop stop = run_stream(
      criterion, [](std::size_t i) { return i % 2 == 0 ? 1.0 : 2.0; }, 0.001);
  EXPECT_EQ(stop.reason, StopReason::max_samples);
  EXPECT_EQ(stop.samples, 100u);
}

TEST(StoppingCriterion, RunningNoiseMatchesTheSummary) {
  StoppingCriterion criterion(StoppingRules{});
  std::vector<double> samples;
  std::uint64_t x = 42;
  for (int i = 0; i < 5000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double v = 1e-5 * (1 + static_cast<double>(x >> 11) / 9007199254740992.0);
    samples.push_back(v);
    criterion.add(v, 0);
  }
  const auto s = summarize(samples);
  EXPECT_EQ(criterion.samples(), 5000u);
  EXPECT_NEAR(criterion.noise(), s.noise, 1e-12);
  EXPECT_NEAR(criterion.measured_s(), s.mean * 5000, 1e-15);
}

} // namespace
} // namespace gpurun::bench
