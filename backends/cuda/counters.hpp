#pragma once
// Hardware counters of one kernel launch through CUPTI's range profiler (CUDA 12.6 and later):
// the metrics, by Nsight Compute's names, are configured on the host for the device's chip in
// groups that each take one pass, the launch is run once per group (user replay: the caller's
// before_pass puts memory back first, so that each pass sees the same launch), each launch is
// its own range (auto range), and the values are evaluated from the counter data.
#include <functional>
#include <string>
#include <string_view>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"

namespace gpurun::cuda {

/// Profiles `launch_and_wait` (one launch on the context's stream, waited for).
[[nodiscard]] CounterReport profile_launch(const ContextState& state,
                                           const CounterRequest& request,
                                           const std::function<void()>& launch_and_wait);

/// Configures `metrics` for the device's chip on the host, launching nothing: Error(usage) naming
/// a metric the chip lacks, Error(unavailable) where CUPTI cannot count here.
void check_counters(const ContextState& state, const std::vector<std::string>& metrics);

/// The base metrics the device's chip offers, with their kind, unit and description.
[[nodiscard]] MetricCatalog list_metrics(const ContextState& state);

/// The unit of a metric from the unit of its base metric and its suffixes: ".pct…" is "%",
/// ".ratio" none, ".per_second" per second, ".peak_sustained" and ".per_cycle_…" per cycle
/// ("dram__bytes.sum.per_second" with "byte" → "byte/second").
[[nodiscard]] std::string metric_unit(std::string_view metric, std::string_view base_unit);

} // namespace gpurun::cuda
