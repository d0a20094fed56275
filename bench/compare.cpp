#include "bench/compare.hpp"

#include <cmath>
#include <set>
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

CaseComparison compare_case(const StoredCase& baseline, const StoredCase& fresh,
                            const CompareOptions& options) {
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
  ComparisonReport report;
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
      report.cases.push_back(compare_case(shown(base), *it->second, options));
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
