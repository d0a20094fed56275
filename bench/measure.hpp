#pragma once
// Measuring one benchmark case: samples taken through the pipeline's execute stage (cold by
// default: L2 flushed and the stream held before each), kept until the stopping rule says so,
// discarded while the SM clock is throttled; a batch measurement for --batch and for short
// kernels; energy and power where the device reports them.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "bench/stopping.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/prepare.hpp"

namespace gpurun::bench {

struct MeasureOptions {
  bool cold = true;   ///< flush L2 before each sample (--hot: false)
  bool batch = false; ///< --batch: the batch measurement is the case's result
  /// Hold the stream while enqueueing a cold or hot sample (--no-hold: the launch latency is then
  /// inside the timed interval, as in a plain event-timed loop).
  bool hold = true;
  StoppingRules rules;
  /// A batch sample launches the kernel back to back for about this long.
  double batch_target_s = 0.01;
  /// Cold medians below this are measured in batch too, and reported alongside.
  double short_kernel_s = 50e-6;
  /// Samples taken below this share of the default SM clock are discarded (nvbench: 75%).
  double min_clock_share = 0.75;
  std::optional<double> launch_timeout_s; ///< watchdog of each synchronize
};

struct ClockSummary {
  double min_mhz = 0;
  double mean_mhz = 0;
  double default_mhz = 0;
  std::size_t readings = 0;
};

/// What one case's sampling produced.
struct Measurement {
  std::vector<double> samples_s; ///< kept samples, seconds per launch, in order taken
  StopReason stop_reason = StopReason::timeout;
  std::size_t throttled_discarded = 0;
  std::string throttle_reasons; ///< described, when samples were discarded
  std::vector<double> batch_samples_s;
  int batch_launches = 0; ///< launches per batch sample (0: no batch measurement)
  std::optional<ClockSummary> clocks;
  /// NVML's readings in force when each kept sample was taken (the latest, read at most every
  /// 5 ms), one per entry of samples_s; empty without NVML (the report's `clocks` says why). A
  /// power entry is nullopt where the device does not report power.
  std::vector<double> sample_clock_mhz;
  std::vector<std::optional<double>> sample_power_w;
  std::optional<double> energy_j; ///< used while sampling
  std::optional<double> power_w;  ///< mean over the sampling
  double wall_s = 0;              ///< time spent sampling this case
};

/// Takes the samples of one case a step at a time, so that several cases can be sampled
/// round-robin (--interleave). The run stays owned by the caller and must outlive the sampler.
class CaseSampler {
public:
  /// `l2_flush` (cold only; nullptr when the device has no L2 to flush) and `clocks` (may be
  /// nullptr) belong to the caller.
  CaseSampler(PreparedRun& run, const MeasureOptions& options, Buffer* l2_flush,
              ClockMonitor* clocks);

  [[nodiscard]] bool done() const { return m_stop.has_value(); }
  /// Takes one sample (or discards one taken while throttled). Throws what the launch throws.
  void step();
  /// The batch measurement where it applies, energy and power; call once, after done().
  [[nodiscard]] Measurement finish();
  /// Kept samples so far and their noise, for a progress line.
  [[nodiscard]] std::size_t samples() const { return m_criterion.samples(); }
  [[nodiscard]] double noise() const { return m_criterion.noise(); }

private:
  double sample(const SampleMethod& method);
  void measure_batch(double per_launch_s);

  PreparedRun& m_run;
  MeasureOptions m_options;
  Buffer* m_l2_flush;
  ClockMonitor* m_clocks;
  std::unique_ptr<Timer> m_timer;
  StoppingCriterion m_criterion;
  std::optional<StopReason> m_stop;
  Measurement m_result;
  double m_clock_sum = 0;
  double m_last_clock_mhz = 0;
  std::optional<double> m_last_power_w;
  double m_last_clock_read_s = -1;
  bool m_throttled = false;
  std::optional<double> m_energy_start;
  bool m_batch_primary_sized = false;
};

} // namespace gpurun::bench
