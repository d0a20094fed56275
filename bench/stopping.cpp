#include "bench/stopping.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpurun::bench {

std::string_view to_string(StopReason reason) {
  switch (reason) {
  case StopReason::noise:
    return "noise";
  case StopReason::settled:
    return "settled";
  case StopReason::timeout:
    return "timeout";
  case StopReason::max_samples:
    return "max_samples";
  }
  return "unknown";
}

StoppingCriterion::StoppingCriterion(StoppingRules rules) : m_rules(rules) {
  m_history.reserve(m_rules.settle_window);
}

void StoppingCriterion::add(double sample_s, double /*wall_s*/) {
  ++m_count;
  m_sum += sample_s;
  const double delta = sample_s - m_mean;
  m_mean += delta / static_cast<double>(m_count);
  m_m2 += delta * (sample_s - m_mean);
  if (past_minimums())
    track_noise();
}

double StoppingCriterion::noise() const {
  if (m_count < 2)
    return std::numeric_limits<double>::infinity();
  const double stdev = std::sqrt(std::max(0.0, m_m2) / static_cast<double>(m_count - 1));
  if (m_mean == 0)
    return stdev == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return stdev / std::abs(m_mean);
}

bool StoppingCriterion::past_minimums() const {
  return m_count >= m_rules.min_samples && m_sum >= m_rules.min_time_s;
}

void StoppingCriterion::track_noise() {
  const std::size_t window = m_rules.settle_window;
  const double current = noise();
  if (window == 0 || !std::isfinite(current))
    return;
  if (m_history.size() < window)
    m_history.push_back(current);
  else
    m_history[m_next] = current;
  m_next = (m_next + 1) % window;
  if (m_history.size() < window || window < 2)
    return;
  // A window of 64 values: summing it per sample is as cheap as keeping running sums, and exact.
  double mean = 0;
  for (double v : m_history)
    mean += v;
  mean /= static_cast<double>(window);
  double squares = 0;
  for (double v : m_history)
    squares += (v - mean) * (v - mean);
  const double spread = std::sqrt(squares / static_cast<double>(window - 1));
  m_settled = mean > 0 ? spread / mean < m_rules.settle_noise : true;
}

std::optional<StopReason> StoppingCriterion::should_stop(double wall_s) const {
  if (past_minimums()) {
    if (noise() <= m_rules.max_noise)
      return StopReason::noise;
    if (m_settled)
      return StopReason::settled;
  }
  if (m_count >= m_rules.max_samples)
    return StopReason::max_samples;
  if (wall_s >= m_rules.timeout_s)
    return StopReason::timeout;
  return std::nullopt;
}

} // namespace gpurun::bench
