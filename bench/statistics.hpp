#pragma once
// Statistics of benchmark samples: pure functions on vectors, shared by the measurement loop, its
// report and `gpurun compare`.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace gpurun::bench {

struct SampleSummary {
  std::size_t count = 0;
  double mean = 0;
  double median = 0;
  double min = 0;
  double max = 0;
  double stdev = 0; ///< sample standard deviation (n − 1); 0 below two samples
  double noise = 0; ///< stdev / mean; 0 when the mean is 0
  double mad = 0;   ///< median absolute deviation from the median, unscaled
};

/// Every field of the summary; an empty span gives all zeros.
[[nodiscard]] SampleSummary summarize(std::span<const double> samples);

/// The middle value, or the mean of the two middle values; 0 for no values.
[[nodiscard]] double median(std::vector<double> values);

/// Indices of outliers by the modified z-score 0.6745·|x − median| / MAD > threshold (Iglewicz
/// and Hoaglin, as hyperfine uses), in increasing order. MAD 0 → none.
[[nodiscard]] std::vector<std::size_t> outliers(std::span<const double> samples,
                                                double threshold = 3.5);

struct MannWhitney {
  double u = 0;       ///< U of the first sample: pairs (a, b) with a > b, ties counting 1/2
  double p_value = 1; ///< two-sided
  bool exact = false; ///< from the exact distribution rather than the normal approximation
};

/// Two-sided Mann–Whitney U test; exact distribution for small samples without ties (n_a · n_b
/// ≤ k_exact_mann_whitney_pairs), normal approximation with tie and continuity correction
/// otherwise. Either sample empty, or all values equal → p = 1.
[[nodiscard]] MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b);

/// A two-sided confidence interval for the relative change from `a` to `b` (b / a − 1 as a
/// fraction): the Hodges–Lehmann shift of the logarithms of the samples and the distribution-free
/// interval of the Mann–Whitney statistic around it (Moses): of the n_a · n_b differences
/// log b_j − log a_i, the C-th smallest and largest, C from the normal approximation of U at
/// `alpha`. Absent when a sample is not positive or there are too few samples for any interval at
/// `alpha` (C < 1: fewer than about four a side at 0.05). Samples beyond 2000 a side are thinned to
/// 2000 evenly spaced order statistics, which widens the interval a little, never narrows it.
struct ChangeInterval {
  double low = 0;
  double high = 0;
};
[[nodiscard]] std::optional<ChangeInterval>
change_interval(std::span<const double> a, std::span<const double> b, double alpha);

/// P(|T| ≥ |t|) for Student's t with `df` degrees of freedom (df > 0), from the regularized
/// incomplete beta function: I_{df/(df+t²)}(df/2, 1/2).
[[nodiscard]] double student_t_two_sided_p(double t, double df);
/// t ≥ 0 with P(|T| ≥ t) = alpha for `df` degrees of freedom (0 < alpha < 1).
[[nodiscard]] double student_t_quantile(double alpha, double df);

/// Above this many pairs the exact distribution costs more than it adds over the approximation.
inline constexpr std::size_t k_exact_mann_whitney_pairs = 10'000;

} // namespace gpurun::bench
