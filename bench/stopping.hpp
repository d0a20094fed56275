#pragma once
// When to stop sampling a benchmark case (nvbench's relative-stdev criterion): once enough
// samples and enough measured time are in, stop as soon as the relative standard deviation is
// low enough, or when it has settled at a level it will not improve on; a wall-clock timeout and
// a sample cap end any case.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gpurun::bench {

struct StoppingRules {
  double max_noise = 0.005;       ///< stop when stdev / mean is at most this
  std::size_t min_samples = 10;   ///< … but not before this many samples
  double min_time_s = 0.5;        ///< … and this much measured kernel time
  double timeout_s = 15;          ///< wall time per case, always stops
  std::size_t settle_window = 64; ///< noise estimates looked at for "settled"
  double settle_noise = 0.05;     ///< relative stdev of those estimates that counts as settled
  std::size_t max_samples = 1'000'000;
};

enum class StopReason { noise, settled, timeout, max_samples };

/// "noise", "settled", "timeout", "max_samples".
[[nodiscard]] std::string_view to_string(StopReason reason);

class StoppingCriterion {
public:
  explicit StoppingCriterion(StoppingRules rules);

  /// One kept sample (seconds of measured kernel time) at `wall_s` seconds since the case began.
  void add(double sample_s, double wall_s);
  /// Wall time passing without a kept sample (throttled samples being discarded) still times out.
  [[nodiscard]] std::optional<StopReason> should_stop(double wall_s) const;

  /// Relative standard deviation of the kept samples; infinite below two samples.
  [[nodiscard]] double noise() const;
  [[nodiscard]] std::size_t samples() const { return m_count; }
  /// Sum of the kept samples.
  [[nodiscard]] double measured_s() const { return m_sum; }

private:
  /// Both minimums reached: from here on the noise rules may stop the case.
  [[nodiscard]] bool past_minimums() const;
  /// Records the current noise in the window and updates m_settled.
  void track_noise();

  StoppingRules m_rules;
  // Welford's running mean and sum of squared deviations: O(1) per sample.
  std::size_t m_count = 0;
  double m_mean = 0;
  double m_m2 = 0;
  double m_sum = 0;
  // The last settle_window noise estimates, as a ring.
  std::vector<double> m_history;
  std::size_t m_next = 0;
  bool m_settled = false;
};

} // namespace gpurun::bench
