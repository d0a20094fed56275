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

} // namespace gpurun
