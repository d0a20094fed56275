#include "bench/compare.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/environment.hpp"
#include "bench/statistics.hpp"

namespace gpurun::bench {

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
  case Verdict::slower:
    return "slower";
  case Verdict::faster:
    return "faster";
  case Verdict::same:
    return "same";
  case Verdict::noisy:
    return "noisy";
  case Verdict::only_in_baseline:
    return "only in baseline";
  case Verdict::only_in_new:
    return "only in new";
  case Verdict::skipped:
    return "skipped";
  }
  return "unknown";
}

std::string_view json_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::only_in_baseline:
    return "only_in_baseline";
  case Verdict::only_in_new:
    return "only_in_new";
  default:
    return to_string(verdict);
  }
}

Verdict decide(double change, std::optional<double> p_value, const CompareOptions& options,
               std::optional<ChangeInterval> interval) {
  if (std::abs(change) <= options.threshold) {
    if (interval && (interval->high > options.threshold || interval->low < -options.threshold))
      return Verdict::noisy;
    return Verdict::same;
  }
  if (!p_value || *p_value >= options.alpha)
    return Verdict::noisy;
  return change > 0 ? Verdict::slower : Verdict::faster;
}

namespace {

/// With several baseline runs, how far a run's median strays from the others' is known: a new
/// run of unchanged code lies, in log time, within mean ± t·s·√(1 + 1/k) of the k runs' log
/// medians (a prediction interval; s their standard deviation). The case's interval becomes the
/// hull of that one and the samples' own, and its p-value the larger of the two tests'.
void widen_by_run_drift(CaseComparison& c, std::span<const std::vector<double>> runs,
                        const CompareOptions& options) {
  std::vector<double> logs;
  for (const auto& run : runs) {
    const double m = median(run);
    if (!(m > 0))
      return;
    logs.push_back(std::log(m));
  }
  const auto k = static_cast<double>(logs.size());
  const double mean = std::accumulate(logs.begin(), logs.end(), 0.0) / k;
  double squares = 0;
  for (double l : logs)
    squares += (l - mean) * (l - mean);
  const double spread = std::sqrt(squares / (k - 1)) * std::sqrt(1 + 1 / k);
  if (!(*c.new_median_s > 0))
    return;
  const double shift = std::log(*c.new_median_s) - mean;
  const double half = student_t_quantile(options.alpha, k - 1) * spread;
  const ChangeInterval drift{std::expm1(shift - half), std::expm1(shift + half)};
  c.interval = c.interval ? ChangeInterval{std::min(c.interval->low, drift.low),
                                           std::max(c.interval->high, drift.high)}
                          : drift;
  if (spread > 0) {
    const double p = student_t_two_sided_p(shift / spread, k - 1);
    c.p_value = c.p_value ? std::max(*c.p_value, p) : p;
  }
}

} // namespace

CaseComparison compare_case(const StoredCase& baseline, const StoredCase& fresh,
                            const CompareOptions& options,
                            std::span<const std::vector<double>> baseline_runs) {
  CaseComparison c;
  c.name = baseline.name;
  c.baseline_samples = baseline.samples_s.size();
  c.new_samples = fresh.samples_s.size();
  if (!baseline.samples_s.empty())
    c.baseline_median_s = median(baseline.samples_s);
  if (!fresh.samples_s.empty())
    c.new_median_s = median(fresh.samples_s);
  if (baseline.skipped || fresh.skipped || !c.baseline_median_s || !c.new_median_s) {
    c.verdict = Verdict::skipped;
    const StoredCase& which = baseline.skipped ? baseline : fresh;
    c.reason = fmt::format("{}: {}", baseline.skipped ? "baseline" : "new",
                           which.reason.empty() ? "no samples" : which.reason);
    return c;
  }
  if (*c.baseline_median_s <= 0) {
    // No relative change from a zero time; only an equal zero is known to be the same.
    c.verdict = *c.new_median_s <= 0 ? Verdict::same : Verdict::noisy;
    c.change = *c.new_median_s <= 0 ? std::optional<double>(0.0) : std::nullopt;
    return c;
  }
  c.change = *c.new_median_s / *c.baseline_median_s - 1;
  // Two samples on each side are the least from which the U test can say anything.
  if (c.baseline_samples >= 2 && c.new_samples >= 2)
    c.p_value = mann_whitney_u(baseline.samples_s, fresh.samples_s).p_value;
  c.interval = change_interval(baseline.samples_s, fresh.samples_s, options.alpha);
  c.baseline_runs = std::max<std::size_t>(baseline_runs.size(), 1);
  if (baseline_runs.size() >= 2)
    widen_by_run_drift(c, baseline_runs, options);
  c.verdict = decide(*c.change, c.p_value, options, c.interval);
  return c;
}

namespace {

/// A case found in one file only: its median on its side, nothing to compare.
CaseComparison one_sided(const StoredCase& found, Verdict verdict) {
  CaseComparison c;
  c.name = found.name;
  c.verdict = verdict;
  c.reason = found.reason;
  const std::size_t count = found.samples_s.size();
  const std::optional<double> middle =
      count == 0 ? std::nullopt : std::optional<double>(median(found.samples_s));
  if (verdict == Verdict::only_in_baseline) {
    c.baseline_samples = count;
    c.baseline_median_s = middle;
  } else {
    c.new_samples = count;
    c.new_median_s = middle;
  }
  return c;
}

} // namespace

namespace {
/// The device models a file names (empty for formats that do not say).
std::set<std::string> models_of(const ResultFile& file) {
  std::set<std::string> models;
  for (const auto& c : file.cases)
    if (!c.device.empty())
      models.insert(c.device);
  return models;
}
} // namespace

ComparisonReport compare_results(const ResultFile& baseline, const ResultFile& fresh,
                                 const CompareOptions& options) {
  return compare_results(std::span(&baseline, 1), fresh, options);
}

namespace {

/// The baseline runs as one file: every case of the first run in its order, then the cases that
/// only later runs have; a case's samples are all of its runs' together (a run that skipped it
/// adds none), and `runs` gets each case's samples run by run.
ResultFile pooled(std::span<const ResultFile> runs,
                  std::unordered_map<std::string, std::vector<std::vector<double>>>& by_run,
                  const std::function<std::string(const StoredCase&)>& key) {
  ResultFile all = runs.front();
  all.cases.clear();
  std::unordered_map<std::string, std::size_t> at;
  for (const ResultFile& run : runs)
    for (const StoredCase& c : run.cases) {
      const std::string k = key(c);
      auto [it, added] = at.emplace(k, all.cases.size());
      if (added) {
        all.cases.push_back(c);
        all.cases.back().samples_s.clear();
        all.cases.back().skipped = true; // until a run has it
      }
      StoredCase& into = all.cases[it->second];
      if (c.skipped || c.samples_s.empty()) {
        if (into.reason.empty())
          into.reason = c.reason;
        continue;
      }
      if (into.skipped) {
        into.skipped = false;
        into.reason.clear();
      }
      into.samples_s.insert(into.samples_s.end(), c.samples_s.begin(), c.samples_s.end());
      by_run[k].push_back(c.samples_s);
    }
  for (std::size_t i = 1; i < runs.size(); ++i)
    all.label += ", " + runs[i].label;
  return all;
}

} // namespace

ComparisonReport compare_results(std::span<const ResultFile> baselines, const ResultFile& fresh,
                                 const CompareOptions& options) {
  if (baselines.empty())
    throw std::invalid_argument("compare_results: no baseline");
  std::unordered_map<std::string, std::vector<std::vector<double>>> runs;
  // Pooling pairs by name, as below for one file; by model too where any file holds several.
  std::set<std::string> all_models = models_of(fresh);
  for (const ResultFile& b : baselines)
    for (const auto& m : models_of(b))
      all_models.insert(m);
  const bool pool_by_model = all_models.size() > 1;
  const ResultFile baseline = pooled(baselines, runs, [&](const StoredCase& c) {
    return pool_by_model ? c.name + '\0' + c.device : c.name;
  });
  ComparisonReport report;
  report.baseline_runs = baselines.size();
  report.baseline_file = baseline.label;
  report.new_file = fresh.label;
  report.baseline_format = baseline.format;
  report.new_format = fresh.format;
  report.options = options;

  // Cases are paired by name; where a file holds several device models (bench --devices), by name
  // and model, so that no case is compared with another model's measurement of it.
  const auto base_models = models_of(baseline);
  const auto new_models = models_of(fresh);
  const bool by_model = base_models.size() > 1 || new_models.size() > 1;
  auto key = [&](const StoredCase& c) { return by_model ? c.name + '\0' + c.device : c.name; };
  auto shown = [&](const StoredCase& c) {
    StoredCase s = c;
    if (by_model && !c.device.empty())
      s.name = fmt::format("{} [{}]", c.name, c.device);
    return s;
  };
  if (!by_model && base_models.size() == 1 && new_models.size() == 1 &&
      *base_models.begin() != *new_models.begin())
    report.warnings.push_back(fmt::format("the baseline was measured on {}, the new file on {}: "
                                          "the change includes the difference of the devices",
                                          *base_models.begin(), *new_models.begin()));
  // Different power limits, clocks, ECC, builds … change the figures as much as the code does.
  for (const auto& difference : environment_differences(baseline.environment, fresh.environment))
    report.warnings.push_back("taken under different settings: " + difference);
  if (by_model)
    report.warnings.push_back("cases are paired by name and device model (a file holds several "
                              "models); a case measured on one model only is not compared");

  std::unordered_map<std::string, const StoredCase*> in_new;
  for (const auto& c : fresh.cases)
    in_new.emplace(key(c), &c);
  std::unordered_set<std::string> in_baseline;
  for (const auto& base : baseline.cases) {
    in_baseline.insert(key(base));
    const auto it = in_new.find(key(base));
    if (it != in_new.end()) {
      const auto r = runs.find(pool_by_model ? base.name + '\0' + base.device : base.name);
      report.cases.push_back(compare_case(shown(base), *it->second, options,
                                          r == runs.end() ? std::span<const std::vector<double>>()
                                                          : std::span(r->second)));
      continue;
    }
    report.cases.push_back(one_sided(shown(base), Verdict::only_in_baseline));
  }
  for (const auto& added : fresh.cases) {
    if (in_baseline.count(key(added)))
      continue;
    report.cases.push_back(one_sided(shown(added), Verdict::only_in_new));
  }
  return report;
}

ComparisonSummary ComparisonReport::summary() const {
  ComparisonSummary s;
  for (const auto& c : cases) {
    switch (c.verdict) {
    case Verdict::slower:
      ++s.slower;
      break;
    case Verdict::faster:
      ++s.faster;
      break;
    case Verdict::same:
      ++s.same;
      break;
    case Verdict::noisy:
      ++s.noisy;
      break;
    case Verdict::only_in_baseline:
      ++s.only_in_baseline;
      break;
    case Verdict::only_in_new:
      ++s.only_in_new;
      break;
    case Verdict::skipped:
      ++s.skipped;
      break;
    }
  }
  return s;
}

int ComparisonReport::exit_code() const {
  return summary().slower != 0 ? static_cast<int>(ExitCode::check_failed)
                               : static_cast<int>(ExitCode::ok);
}

} // namespace gpurun::bench
