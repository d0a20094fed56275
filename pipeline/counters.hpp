#pragma once
// `--metrics`: hardware counters of a prepared run's launch, collected apart from its timed
// launches (Context::measure_counters, CUPTI on CUDA). Before each pass the run's buffers and
// globals get back the contents they were created with, and the backend leaves the L2 holding
// none of the kernel's data, so every pass profiles the launch the run made first, from a cold
// cache, as Nsight Compute does.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "backends/backend.hpp"
#include "pipeline/prepare.hpp"

namespace gpurun {

/// What --metrics asked for.
struct MetricSelection {
  std::vector<std::string> metrics; ///< names, presets expanded, each once, in order given
  bool roofline = false;            ///< the roofline preset was among them
  bool list = false;                ///< `--metrics list`: show the device's metrics instead
  [[nodiscard]] bool empty() const { return metrics.empty() && !list; }
};

/// Reads --metrics texts: comma-separated names, `roofline` (the preset) and `list` (alone).
/// Throws Error(usage) naming an empty or malformed name ("--metrics 'a,,b': empty metric name").
[[nodiscard]] MetricSelection parse_metrics(const std::vector<std::string>& texts);

/// Checks `selection`'s metrics on `context` before anything runs (Context::check_metrics); does
/// nothing for an empty selection.
void check_metrics(Context& context, const MetricSelection& selection);

/// Counters of `run`'s launch, each pass from the run's initial memory (watchdog: `timeout_s`).
[[nodiscard]] CounterReport measure_counters(PreparedRun& run, const MetricSelection& selection,
                                             std::optional<double> timeout_s);

/// {"collector", "passes", "metrics": {NAME: {"value", "unit"}}} (a non-finite value as null).
[[nodiscard]] nlohmann::json counters_json(const CounterReport& counters);

} // namespace gpurun
