#pragma once
// The second stage: launches. The first launch produces the results that collect() copies out;
// timed launches after it only add timing samples.
#include <optional>

#include "pipeline/prepare.hpp"

namespace gpurun {

/// One launch, timed and synchronized (watchdog: `timeout_s`); records its time in
/// outcome.timings and the backend's counters in outcome.stats. Throws Error(device) naming the
/// kernel when it faults and Error(timeout) when it does not finish in time.
void execute(PreparedRun& run, std::optional<double> timeout_s);

/// `count` more launches, each timed on its own (for --repeat and benchmarks).
void execute_timed(PreparedRun& run, int count, std::optional<double> timeout_s);

/// How one benchmark sample is taken.
struct SampleMethod {
  /// Written before the sample so that the kernel finds none of its data in L2 (cold); nullptr:
  /// hot, the data of the previous launch may still be cached.
  Buffer* l2_flush = nullptr;
  /// Hold the stream while the launches are enqueued (Context::hold_stream), so that the timer
  /// sees only the device's work; where the backend cannot hold, the launches run as enqueued.
  bool hold = true;
  /// Launches back to back inside the timer (batch mode); the sample is their mean.
  int launches = 1;
  std::optional<double> timeout_s; ///< watchdog for the synchronize
};

/// One sample: the backend's timer (events on GPUs) recorded around exactly the launches, in
/// seconds per launch. Does not touch outcome.timings.
[[nodiscard]] double execute_sample(PreparedRun& run, Timer& timer, const SampleMethod& method);

} // namespace gpurun
