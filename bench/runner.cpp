#include "bench/runner.hpp"

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/environment.hpp"
#include "pipeline/collect.hpp"
#include "pipeline/counters.hpp"
#include "pipeline/execute.hpp"
#include "pipeline/prepare.hpp"

namespace gpurun::bench {

namespace {

// CUDA events resolve about half a microsecond; a median within two of that is mostly jitter.
constexpr double k_timer_resolution_s = 0.5e-6;
// Outliers beyond this share of the samples earn a warning.
constexpr double k_outlier_share = 0.01;

constexpr std::string_view k_peak_source = R"(
extern "C" __global__ void gpurun_peak_copy(const float4* __restrict__ in,
                                            float4* __restrict__ out, unsigned long long n) {
  const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i];
}
)";

/// The device's context, the L2 flush buffer and the clock monitor, remade after a device fault
/// (a faulted CUDA context refuses all further work).
struct DeviceSession {
  const Target& target;
  bool cold;
  std::shared_ptr<Context> context;
  std::unique_ptr<Buffer> l2_flush;

  DeviceSession(const Target& t, bool want_cold) : target(t), cold(want_cold) { reset(); }

  void reset() {
    l2_flush.reset();
    context.reset();
    context = target.device->create_context(ContextOptions{});
    const std::size_t l2 = target.device->properties().l2_bytes;
    // Twice the L2: writing the cache's own size can leave lines of the kernel's data in a
    // partitioned L2.
    if (cold && l2 > 0)
      l2_flush = context->allocate(2 * l2);
  }
};

// One line for a table cell: the message's first line, and for a compile error the first line of
// the log that says "error" (the rest is in the JSON report's reason).
std::string reason_of(const Error& e) {
  std::string text = e.what();
  std::string first = text.substr(0, text.find('\n'));
  if (const auto* compile = dynamic_cast<const CompileError*>(&e)) {
    std::istringstream log(compile->log());
    for (std::string line; std::getline(log, line);)
      if (line.find("error") != std::string::npos) {
        first += ": " + line;
        break;
      }
  }
  return first;
}

bool is_device_failure(const Error& e) {
  return e.code() == ExitCode::device || e.code() == ExitCode::timeout;
}

std::string_view failure_of(const Error& e) {
  if (e.code() == ExitCode::compile)
    return "compile";
  if (is_device_failure(e))
    return "device";
  if (e.code() == ExitCode::check_failed)
    return "check";
  return "spec";
}

std::string first_failed_check(const RunOutcome& outcome) {
  for (const auto& c : outcome.checks) {
    if (c.passed)
      continue;
    if (!c.message.empty())
      return fmt::format("check {} failed: {}", c.name, c.message);
    return fmt::format("check {} failed: {} of {} elements differ", c.name, c.mismatches,
                       c.compared);
  }
  return "a check failed";
}

/// A prepared and verified case, ready to sample.
struct Prepared {
  std::size_t index;
  std::unique_ptr<PreparedRun> run;
  std::unique_ptr<CaseSampler> sampler;
};

std::string percent(double v) {
  return fmt::format("{:.1f}%", 100 * v);
}

} // namespace

void place_declared(CaseResult& r, const BenchReport& report) {
  if (!r.ok || !r.bytes || !r.flops || !report.roofline ||
      (r.roofline && r.roofline->source == "counters"))
    return;
  if (auto point = place(*report.roofline, "fp32", *r.flops, *r.bytes, r.summary.median)) {
    point->source = "declared";
    r.roofline = point;
  }
}

void annotate(CaseResult& r, const BenchReport& report, const MeasureOptions& options) {
  const Measurement& m = r.measurement;
  r.summary = summarize(m.samples_s);
  if (!m.batch_samples_s.empty() && m.batch_launches > 0)
    r.batch = summarize(m.batch_samples_s);
  const double median_s = r.summary.median;
  if (median_s > 0) {
    if (r.bytes) {
      r.bandwidth_gbs = *r.bytes / median_s / 1e9;
      if (report.peak_bandwidth_gbs > 0)
        r.peak_fraction = *r.bandwidth_gbs / report.peak_bandwidth_gbs;
      if (report.measured_peak_gbs && *report.measured_peak_gbs > 0)
        r.measured_peak_fraction = *r.bandwidth_gbs / *report.measured_peak_gbs;
    }
    if (r.flops)
      r.gflops = *r.flops / median_s / 1e9;
    place_declared(r, report);
  }
  r.outliers = outliers(m.samples_s).size();

  if (!options.batch && median_s > 0 && median_s < 2 * k_timer_resolution_s)
    r.warnings.push_back("too short to time reliably (median below twice the timer's 0.5 µs "
                         "resolution), use --batch");
  if (r.bandwidth_gbs && report.peak_bandwidth_gbs > 0 &&
      *r.bandwidth_gbs > report.peak_bandwidth_gbs)
    r.warnings.push_back(fmt::format("{:.0f} GB/s is above the device's {:.0f} GB/s: data likely "
                                     "served from L2",
                                     *r.bandwidth_gbs, report.peak_bandwidth_gbs));
  // A few outliers are the normal tail of kernel timings; many say something disturbed the run.
  if (r.summary.count > 0 &&
      static_cast<double>(r.outliers) > k_outlier_share * static_cast<double>(r.summary.count))
    r.warnings.push_back(fmt::format("{} statistical outliers, {:.1f}% of the samples (modified "
                                     "z-score above 3.5)",
                                     r.outliers,
                                     100.0 * static_cast<double>(r.outliers) /
                                         static_cast<double>(r.summary.count)));
  if (m.throttled_discarded > 0)
    r.warnings.push_back(fmt::format("{} sample{} discarded: SM clock below {} of its default "
                                     "({})",
                                     m.throttled_discarded, m.throttled_discarded == 1 ? "" : "s",
                                     percent(options.min_clock_share), m.throttle_reasons));
  if (m.stop_reason == StopReason::timeout && r.summary.noise > options.rules.max_noise)
    r.warnings.push_back(fmt::format("noise {} above --max-noise {} when --timeout ended it",
                                     percent(r.summary.noise), percent(options.rules.max_noise)));
}

BenchReport device_report(const std::string& suite_name, const std::vector<BenchCase>& cases,
                          const Target& target, const BenchOptions& options) {
  const DeviceProperties& props = target.device->properties();
  BenchReport report;
  report.suite = suite_name;
  report.backend = target.backend_name();
  report.device = props.name;
  report.device_index = target.device_index;
  report.arch = props.arch;
  report.driver_version = props.driver_version;
  report.l2_bytes = props.l2_bytes;
  report.peak_bandwidth_gbs = props.memory_bandwidth_gbs;
  report.mode = options.measure.batch ? "batch" : options.measure.cold ? "cold" : "hot";
  report.rules = options.measure.rules;
  report.hold = options.measure.hold && !options.measure.batch;
  for (const auto& c : cases)
    for (const auto& [name, value] : c.point)
      if (std::find(report.axis_names.begin(), report.axis_names.end(), name) ==
          report.axis_names.end())
        report.axis_names.push_back(name);
  return report;
}

BenchReport run_bench(const std::string& suite_name, const std::vector<BenchCase>& cases,
                      const Target& target, const BenchOptions& options) {
  BenchReport report = device_report(suite_name, cases, target, options);
  report.cases.resize(cases.size());
  std::size_t next = 0;
  const auto loss =
      run_bench_into(report, cases, target, options, [&]() -> std::optional<std::size_t> {
        if (next == cases.size())
          return std::nullopt;
        return next++;
      });
  // One device: a device that cannot make a context ends the command, as it always did.
  if (loss)
    std::rethrow_exception(loss->error);
  return report;
}

std::optional<DeviceLoss> run_bench_into(BenchReport& report, const std::vector<BenchCase>& cases,
                                         const Target& target, const BenchOptions& options,
                                         const CaseFeed& next) {
  const DeviceProperties& props = target.device->properties();
  std::string why_no_clocks;
  std::unique_ptr<ClockMonitor> clocks = target.device->clock_monitor(why_no_clocks);
  report.clocks = clocks ? "nvml" : "unavailable: " + why_no_clocks;
  if (report.environment.empty()) {
    report.environment = host_environment();
    report.environment.emplace_back("backend", report.backend);
    report.environment.emplace_back("device", props.name);
    report.environment.emplace_back("driver_version", props.driver_version);
    if (clocks)
      for (auto& setting : clocks->settings())
        report.environment.push_back(std::move(setting));
  }
  if (!report.roofline)
    report.roofline =
        device_roofline(props, clocks ? clocks->default_sm_clock_mhz() : props.clock_khz / 1e3);

  // A device that cannot make a context can do nothing more; the caller hears which cases it
  // held unfinished: the one being prepared or sampled, and those waiting their turn.
  std::optional<std::size_t> current;
  std::vector<Prepared> active;
  auto lost = [&](const Error& e) {
    const std::string text = e.what();
    DeviceLoss loss{std::current_exception(), text.substr(0, text.find('\n')), {}};
    if (current)
      loss.unfinished.push_back(*current);
    for (const auto& p : active)
      if (p.index != current)
        loss.unfinished.push_back(p.index);
    return loss;
  };
  std::optional<DeviceSession> session_storage;
  try {
    session_storage.emplace(target, options.measure.cold && !options.measure.batch);
  } catch (const Error& e) {
    return lost(e);
  }
  DeviceSession& session = *session_storage;
  const std::size_t count = cases.size();

  auto fail = [&](std::size_t i, const std::string& reason, std::string_view failure) {
    report.cases[i].ok = false;
    report.cases[i].reason = reason;
    report.cases[i].failure = failure;
  };
  // Prepares and verifies case i; nullopt (the case marked skipped) when it cannot run.
  auto prepare_case = [&](std::size_t i) -> std::optional<Prepared> {
    const BenchCase& c = cases[i];
    CaseResult& r = report.cases[i];
    r = CaseResult{};
    r.name = c.name;
    r.case_name = c.case_name;
    r.point = c.point;
    r.bytes = c.bytes;
    r.flops = c.flops;
    r.device = props.name;
    r.device_index = target.device_index;
    if (c.error) {
      fail(i, *c.error, "spec");
      return std::nullopt;
    }
    try {
      auto run = std::make_unique<PreparedRun>(prepare_in(c.request, target, session.context));
      execute(*run, options.measure.launch_timeout_s);
      if (!c.request.expects.empty() || c.request.save_dir) {
        collect(*run, c.request);
        if (run->outcome.status != "ok") {
          fail(i, first_failed_check(run->outcome), "check");
          return std::nullopt;
        }
      }
      auto sampler = std::make_unique<CaseSampler>(*run, options.measure, session.l2_flush.get(),
                                                   clocks.get());
      return Prepared{i, std::move(run), std::move(sampler)};
    } catch (const Error& e) {
      fail(i, reason_of(e), failure_of(e));
      if (is_device_failure(e))
        session.reset();
      return std::nullopt;
    }
  };
  // --metrics: counters in passes of their own, after the samples, so that none is disturbed.
  auto count_case = [&](Prepared& p) {
    const MetricSelection metrics = parse_metrics(cases[p.index].request.metrics);
    if (metrics.empty())
      return;
    CaseResult& r = report.cases[p.index];
    r.counters = measure_counters(*p.run, metrics, options.measure.launch_timeout_s);
    if (!metrics.roofline)
      return;
    const auto seconds = r.summary.median > 0 ? std::optional(r.summary.median) : std::nullopt;
    if (auto placed = roofline_from_counters(*r.counters, seconds)) {
      r.roofline = placed->point;
      if (!report.roofline || report.roofline->source != "counters") {
        // Every case is placed under the one set of roofs the report draws: the counted ones
        // from now on, for the cases placed by their declared figures before too.
        report.roofline = placed->roofline;
        for (CaseResult& other : report.cases)
          place_declared(other, report);
      }
    }
  };
  auto finish_case = [&](Prepared& p) {
    CaseResult& r = report.cases[p.index];
    r.ok = true;
    r.measurement = p.sampler->finish();
    annotate(r, report, options.measure);
    try {
      count_case(p);
    } catch (const Error& e) {
      // The metrics were checked before the suite ran (app/bench.cpp): what fails here is the
      // case's, a fault in a replay among them.
      r.counters.reset();
      fail(p.index, reason_of(e), failure_of(e));
      if (is_device_failure(e))
        session.reset();
    }
  };
  auto step = [&](Prepared& p) -> bool {
    try {
      p.sampler->step();
      if (options.progress)
        options.progress({p.index, count, cases[p.index].name, p.sampler->samples(),
                          p.sampler->noise(), target.device_index});
      return true;
    } catch (const Error& e) {
      fail(p.index, reason_of(e), failure_of(e));
      if (is_device_failure(e))
        session.reset();
      return false;
    }
  };

  if (options.peak) {
    const bool gpu = props.l2_bytes > 0;
    const std::size_t bytes =
        gpu ? std::min<std::size_t>(std::size_t{1} << 30, props.total_memory / 8)
            : std::size_t{4} << 20;
    const std::size_t n = bytes / 16;
    BenchCase peak;
    peak.name = peak.case_name = "peak_copy";
    peak.request.source = "peak_copy.cu";
    peak.request.source_text = std::string(k_peak_source);
    peak.request.kernel = "gpurun_peak_copy";
    peak.request.grid = Dim3{static_cast<std::uint32_t>((n + 255) / 256), 1, 1};
    peak.request.block = Dim3{256, 1, 1};
    peak.request.args = {fmt::format("in=f32[{}]:1", n * 4), fmt::format("out=f32[{}]:0", n * 4),
                         fmt::format("n={}", n)};
    std::vector<BenchCase> one{peak};
    BenchOptions peak_options = options;
    peak_options.peak = false;
    peak_options.interleave = false;
    peak_options.progress = nullptr;
    try {
      const BenchReport measured = run_bench("peak", one, target, peak_options);
      if (!measured.cases.empty() && measured.cases[0].ok && measured.cases[0].summary.median > 0)
        report.measured_peak_gbs =
            2.0 * static_cast<double>(bytes) / measured.cases[0].summary.median / 1e9;
      else if (!measured.cases.empty())
        report.peak_error = measured.cases[0].reason;
    } catch (const Error& e) {
      return lost(e);
    }
  }

  try {
    if (!options.interleave) {
      while ((current = next())) {
        auto p = prepare_case(*current);
        if (p) {
          bool alive = true;
          while (alive && !p->sampler->done())
            alive = step(*p);
          if (alive)
            finish_case(*p);
        }
        current.reset();
      }
      return std::nullopt;
    }

    while ((current = next())) {
      if (auto p = prepare_case(*current))
        active.push_back(std::move(*p));
      current.reset();
    }
    while (!active.empty()) {
      for (auto it = active.begin(); it != active.end();) {
        current = it->index;
        if (!step(*it)) {
          it = active.erase(it);
        } else if (it->sampler->done()) {
          finish_case(*it);
          it = active.erase(it);
        } else {
          ++it;
        }
        current.reset();
      }
    }
  } catch (const Error& e) {
    // Only session.reset() lets an Error out of the steps above: the device is lost.
    return lost(e);
  }
  return std::nullopt;
}

std::optional<DeviceLoss> run_bench_adaptive(BenchReport& report, const Target& target,
                                             const BenchOptions& options,
                                             const AdaptiveFeed& next) {
  // run_bench_into over a list of one case, refilled between cases: the case in the list is
  // read only while it is prepared and sampled, and the feed is called after it finished.
  std::vector<BenchCase> one(1);
  report.cases.assign(1, CaseResult{});
  BenchOptions sequential = options;
  sequential.interleave = false;
  sequential.peak = false;
  bool started = false;
  const CaseFeed feed = [&]() -> std::optional<std::size_t> {
    auto c = next(started ? &report.cases[0] : nullptr);
    started = true;
    if (!c)
      return std::nullopt;
    one[0] = std::move(*c);
    report.cases[0] = CaseResult{};
    return 0;
  };
  return run_bench_into(report, one, target, sequential, feed);
}

} // namespace gpurun::bench
