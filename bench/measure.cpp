#include "bench/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "bench/statistics.hpp"
#include "pipeline/execute.hpp"

namespace gpurun::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// NVML reads cost tens of microseconds; one every few milliseconds follows the clock closely
// enough (it changes over tens of milliseconds) without slowing short kernels' sampling.
constexpr double k_clock_read_interval_s = 0.005;
// After a throttled sample the device gets a moment to recover before sampling goes on.
constexpr auto k_throttle_pause = std::chrono::milliseconds(20);
// Batch samples never exceed this many launches (the launch queue and the watchdog stay sane).
constexpr int k_max_batch_launches = 100'000;

int batch_size(double per_launch_s, double target_s) {
  if (!(per_launch_s > 0))
    return 1;
  const double n = std::ceil(target_s / per_launch_s);
  return static_cast<int>(std::clamp(n, 1.0, static_cast<double>(k_max_batch_launches)));
}

} // namespace

CaseSampler::CaseSampler(PreparedRun& run, const MeasureOptions& options, Buffer* l2_flush,
                         ClockMonitor* clocks)
    : m_run(run), m_options(options), m_l2_flush(options.cold ? l2_flush : nullptr),
      m_clocks(clocks), m_timer(run.context->create_timer()), m_criterion(options.rules) {
  if (m_clocks != nullptr) {
    m_energy_start = m_clocks->energy_j();
    ClockSummary c;
    c.default_mhz = m_clocks->default_sm_clock_mhz();
    c.min_mhz = 0;
    m_result.clocks = c;
  }
}

double CaseSampler::sample(const SampleMethod& method) {
  return execute_sample(m_run, *m_timer, method);
}

void CaseSampler::step() {
  if (done())
    return;
  const auto start = Clock::now();
  double value = 0;
  if (m_options.batch) {
    if (!m_batch_primary_sized) {
      // A small batch sizes the batch: one launch alone would count its launch latency and
      // make the batches far shorter than the target for short kernels.
      constexpr int probe_launches = 16;
      const double estimate = sample({nullptr, false, probe_launches, m_options.launch_timeout_s});
      m_result.batch_launches = batch_size(estimate, m_options.batch_target_s);
      m_batch_primary_sized = true;
    }
    value = sample({nullptr, false, m_result.batch_launches, m_options.launch_timeout_s});
  } else {
    value = sample({m_l2_flush, m_options.hold, 1, m_options.launch_timeout_s});
  }

  bool keep = true;
  if (m_clocks != nullptr && m_result.clocks &&
      (m_last_clock_read_s < 0 ||
       m_result.wall_s - m_last_clock_read_s >= k_clock_read_interval_s || m_throttled)) {
    m_last_clock_read_s = m_result.wall_s;
    const ClockReading reading = m_clocks->read();
    m_last_clock_mhz = reading.sm_clock_mhz;
    m_last_power_w = m_clocks->power_w();
    ClockSummary& c = *m_result.clocks;
    c.min_mhz = c.readings == 0 ? reading.sm_clock_mhz : std::min(c.min_mhz, reading.sm_clock_mhz);
    m_clock_sum += reading.sm_clock_mhz;
    ++c.readings;
    c.mean_mhz = m_clock_sum / static_cast<double>(c.readings);
    m_throttled =
        c.default_mhz > 0 && reading.sm_clock_mhz < m_options.min_clock_share * c.default_mhz;
    if (m_throttled) {
      keep = false;
      ++m_result.throttled_discarded;
      const std::string reasons = m_clocks->describe(reading.throttle_reasons);
      if (m_result.throttle_reasons.find(reasons) == std::string::npos)
        m_result.throttle_reasons += (m_result.throttle_reasons.empty() ? "" : "; ") + reasons;
      std::this_thread::sleep_for(k_throttle_pause);
    }
  }
  m_result.wall_s += seconds_since(start);
  if (keep) {
    if (m_clocks != nullptr && m_result.clocks) {
      m_result.sample_clock_mhz.push_back(m_last_clock_mhz);
      m_result.sample_power_w.push_back(m_last_power_w);
    }
    m_result.samples_s.push_back(value);
    m_criterion.add(value, m_result.wall_s);
  }
  m_stop = m_criterion.should_stop(m_result.wall_s);
}

void CaseSampler::measure_batch(double per_launch_s) {
  m_result.batch_launches = batch_size(per_launch_s, m_options.batch_target_s);
  StoppingRules rules = m_options.rules;
  // The batch is a second opinion on a short kernel, not the case's own measurement: a tenth of
  // the time budget.
  rules.min_time_s = std::min(rules.min_time_s, 0.1);
  rules.timeout_s = std::max(1.0, rules.timeout_s / 10);
  StoppingCriterion criterion(rules);
  const auto start = Clock::now();
  while (!criterion.should_stop(seconds_since(start))) {
    const double v = sample({nullptr, false, m_result.batch_launches, m_options.launch_timeout_s});
    m_result.batch_samples_s.push_back(v);
    criterion.add(v * m_result.batch_launches, seconds_since(start));
  }
  m_result.wall_s += seconds_since(start);
}

Measurement CaseSampler::finish() {
  m_result.stop_reason = m_stop.value_or(StopReason::timeout);
  if (m_options.batch) {
    m_result.batch_samples_s = m_result.samples_s;
  } else if (!m_result.samples_s.empty()) {
    const double median_s = median(m_result.samples_s);
    if (median_s < m_options.short_kernel_s)
      measure_batch(median_s);
  }
  if (m_clocks != nullptr && m_energy_start) {
    if (const auto end = m_clocks->energy_j(); end && *end >= *m_energy_start) {
      m_result.energy_j = *end - *m_energy_start;
      if (m_result.wall_s > 0)
        m_result.power_w = *m_result.energy_j / m_result.wall_s;
    }
  }
  return std::move(m_result);
}

} // namespace gpurun::bench
