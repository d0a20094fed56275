#pragma once
// `gpurun compare BASELINE NEW`: per case, the change of the median and a Mann–Whitney U test on
// the samples, and a verdict. Only a significant slowdown beyond the threshold fails the gate.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/result_file.hpp"
#include "bench/statistics.hpp"

namespace gpurun::bench {

struct CompareOptions {
  double alpha = 0.05;     ///< significance level of the U test
  double threshold = 0.05; ///< relative change of the median that matters (0.05 = 5%)
};

enum class Verdict { slower, faster, same, noisy, only_in_baseline, only_in_new, skipped };

/// "slower", "faster", "same", "noisy", "only in baseline", "only in new", "skipped".
[[nodiscard]] std::string_view to_string(Verdict verdict);
/// The same with underscores, for JSON: "only_in_baseline".
[[nodiscard]] std::string_view json_name(Verdict verdict);

struct CaseComparison {
  std::string name;
  Verdict verdict = Verdict::same;
  std::optional<double> baseline_median_s; ///< absent when the case has no time there
  std::optional<double> new_median_s;
  std::size_t baseline_samples = 0;
  std::size_t new_samples = 0;
  std::optional<double> change;  ///< new / baseline − 1, on the medians
  std::optional<double> p_value; ///< two-sided U test, when both sides have samples
  /// The (1 − alpha) confidence interval of the change (change_interval), when the samples give
  /// one.
  std::optional<ChangeInterval> interval;
  std::size_t baseline_runs = 1; ///< baseline files that measured the case
  std::string reason;            ///< why a case was skipped
};

struct ComparisonSummary {
  std::size_t slower = 0;
  std::size_t faster = 0;
  std::size_t same = 0;
  std::size_t noisy = 0;
  std::size_t only_in_baseline = 0;
  std::size_t only_in_new = 0;
  std::size_t skipped = 0;
};

struct ComparisonReport {
  std::string baseline_file;
  std::string new_file;
  ResultFormat baseline_format = ResultFormat::gpurun;
  ResultFormat new_format = ResultFormat::gpurun;
  CompareOptions options;
  std::size_t baseline_runs = 1; ///< baseline files given
  /// Cases of the baseline in its order (with those only there), then those only in the new file.
  std::vector<CaseComparison> cases;
  /// What the reader should know about the pairing, one line each ("the baseline was measured on
  /// NVIDIA A100, the new file on NVIDIA H200").
  std::vector<std::string> warnings;

  [[nodiscard]] ComparisonSummary summary() const;
  /// 1 when some case is slower, 0 otherwise (docs/exit-codes.md).
  [[nodiscard]] int exit_code() const;
};

/// The verdict for one case from its change, p-value and confidence interval. Beyond the threshold:
/// "slower"/"faster" when p < alpha, "noisy" when not significant or when either side has fewer
/// than two samples (`p_value` absent). Within it: "same" when the interval, where the samples
/// give one, lies within ±threshold too; "noisy" when it reaches beyond (undecided: the samples
/// cannot rule out a change as large as the threshold).
[[nodiscard]] Verdict decide(double change, std::optional<double> p_value,
                             const CompareOptions& options,
                             std::optional<ChangeInterval> interval = std::nullopt);

/// `baseline` holds the samples of every baseline run together; `baseline_runs`, where there
/// are two or more, each run's own: their medians' spread then widens the interval and the
/// p-value by the drift from run to run (a prediction interval of a new run's median).
[[nodiscard]] CaseComparison compare_case(const StoredCase& baseline, const StoredCase& fresh,
                                          const CompareOptions& options,
                                          std::span<const std::vector<double>> baseline_runs = {});

[[nodiscard]] ComparisonReport compare_results(const ResultFile& baseline, const ResultFile& fresh,
                                               const CompareOptions& options);
/// Several runs of the baseline (files of identical code, one after another): cases pooled by
/// name, the drift between the runs counted in each verdict.
[[nodiscard]] ComparisonReport compare_results(std::span<const ResultFile> baselines,
                                               const ResultFile& fresh,
                                               const CompareOptions& options);

} // namespace gpurun::bench
