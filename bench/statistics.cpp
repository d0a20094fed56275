#include "bench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpurun::bench {

namespace {

/// The median of values already sorted.
double sorted_median(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n == 0)
    return 0;
  if (n % 2 == 1)
    return sorted[n / 2];
  return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double median_absolute_deviation(std::span<const double> samples, double center) {
  std::vector<double> deviations(samples.size());
  std::transform(samples.begin(), samples.end(), deviations.begin(),
                 [center](double x) { return std::abs(x - center); });
  return median(std::move(deviations));
}

/// Midranks (1-based, ties sharing the mean of their ranks) of the pooled values, and the tie
/// correction term Σ (t³ − t) over groups of t equal values.
struct Ranks {
  std::vector<double> of; ///< rank of pooled value i
  double tie_term = 0;
};

Ranks rank_pooled(std::span<const double> pooled) {
  std::vector<std::size_t> order(pooled.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t l, std::size_t r) { return pooled[l] < pooled[r]; });
  Ranks ranks;
  ranks.of.resize(pooled.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && pooled[order[j + 1]] == pooled[order[i]])
      ++j;
    // Positions i..j (0-based) hold equal values: each gets the mean of ranks i+1..j+1.
    const double midrank = (static_cast<double>(i) + static_cast<double>(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k)
      ranks.of[order[k]] = midrank;
    const double t = static_cast<double>(j - i + 1);
    ranks.tie_term += t * t * t - t;
    i = j + 1;
  }
  return ranks;
}

/// P(U ≤ u) under the null hypothesis for samples of sizes m and n without ties. The number of
/// arrangements with U = k is the coefficient of q^k in the Gaussian binomial [m+n choose m]_q,
/// built factor by factor from [n+i choose i]_q = [n+i−1 choose i−1]_q (1 − q^(n+i)) / (1 − q^i).
/// The coefficients up to u only ever get added to, so the lower tail keeps full precision.
double exact_lower_tail(std::size_t m, std::size_t n, std::size_t u) {
  if (m > n)
    std::swap(m, n);
  std::vector<double> counts(m * n + 1, 0.0);
  counts[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    const std::size_t degree = i * n; // of the polynomial after this step
    for (std::size_t k = degree; k >= n + i; --k)
      counts[k] -= counts[k - (n + i)];
    for (std::size_t k = i; k <= degree; ++k)
      counts[k] += counts[k - i];
  }
  double below = 0;
  for (std::size_t k = 0; k <= u && k < counts.size(); ++k)
    below += counts[k];
  const double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  return below / total;
}

} // namespace

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return sorted_median(values);
}

SampleSummary summarize(std::span<const double> samples) {
  SampleSummary s;
  s.count = samples.size();
  if (samples.empty())
    return s;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = sorted_median(sorted);
  s.mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0;
    for (double x : sorted)
      squares += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  s.noise = s.mean != 0 ? s.stdev / std::abs(s.mean) : 0;
  s.mad = median_absolute_deviation(samples, s.median);
  return s;
}

std::vector<std::size_t> outliers(std::span<const double> samples, double threshold) {
  std::vector<std::size_t> found;
  if (samples.empty())
    return found;
  const double center = median(std::vector<double>(samples.begin(), samples.end()));
  const double mad = median_absolute_deviation(samples, center);
  if (mad == 0)
    return found;
  // 0.6745 is the 75th percentile of the standard normal: MAD / 0.6745 estimates σ.
  constexpr double k_normal_quartile = 0.6745;
  for (std::size_t i = 0; i < samples.size(); ++i)
    if (k_normal_quartile * std::abs(samples[i] - center) / mad > threshold)
      found.push_back(i);
  return found;
}

MannWhitney mann_whitney_u(std::span<const double> a, std::span<const double> b) {
  MannWhitney result;
  if (a.empty() || b.empty())
    return result;
  const auto n1 = static_cast<double>(a.size());
  const auto n2 = static_cast<double>(b.size());
  std::vector<double> pooled(a.begin(), a.end());
  pooled.insert(pooled.end(), b.begin(), b.end());
  const Ranks ranks = rank_pooled(pooled);
  const double rank_sum_a = std::accumulate(ranks.of.begin(), ranks.of.begin() + a.size(), 0.0);
  result.u = rank_sum_a - n1 * (n1 + 1) / 2;

  const double pairs = n1 * n2;
  const double farther = std::max(result.u, pairs - result.u); // the larger of U_a and U_b
  if (ranks.tie_term == 0 && a.size() * b.size() <= k_exact_mann_whitney_pairs) {
    result.exact = true;
    // Two-sided: twice the tail beyond the observed U, by the symmetry of the distribution.
    const auto nearer = static_cast<std::size_t>(std::llround(pairs - farther));
    result.p_value = std::min(1.0, 2 * exact_lower_tail(a.size(), b.size(), nearer));
    return result;
  }
  const double n = n1 + n2;
  const double variance = pairs / 12 * ((n + 1) - ranks.tie_term / (n * (n - 1)));
  if (variance <= 0)
    return result; // every value equal: nothing tells the samples apart
  const double z = (farther - pairs / 2 - 0.5) / std::sqrt(variance);
  result.p_value = std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
  return result;
}

namespace {

/// z with P(|Z| > z) = alpha for a standard normal Z, by bisection on erfc.
double two_sided_z(double alpha) {
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > alpha ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

/// The logarithms of the samples, sorted, thinned to `most` evenly spaced order statistics.
std::vector<double> sorted_logs(std::span<const double> samples, std::size_t most) {
  std::vector<double> logs;
  logs.reserve(samples.size());
  for (double x : samples)
    logs.push_back(std::log(x));
  std::sort(logs.begin(), logs.end());
  if (logs.size() <= most)
    return logs;
  std::vector<double> thinned(most);
  for (std::size_t i = 0; i < most; ++i)
    thinned[i] = logs[i * (logs.size() - 1) / (most - 1)];
  return thinned;
}

} // namespace

std::optional<ChangeInterval> change_interval(std::span<const double> a, std::span<const double> b,
                                              double alpha) {
  constexpr std::size_t k_most = 2000;
  if (a.empty() || b.empty() || !(alpha > 0 && alpha < 1))
    return std::nullopt;
  for (const auto* side : {&a, &b})
    for (double x : *side)
      if (!(x > 0) || !std::isfinite(x))
        return std::nullopt;
  const std::vector<double> la = sorted_logs(a, k_most), lb = sorted_logs(b, k_most);
  const auto n1 = static_cast<double>(la.size()), n2 = static_cast<double>(lb.size());
  const double pairs = n1 * n2;
  const double c =
      std::floor(pairs / 2 - two_sided_z(alpha) * std::sqrt(pairs * (n1 + n2 + 1) / 12));
  if (c < 1)
    return std::nullopt;
  std::vector<double> differences;
  differences.reserve(la.size() * lb.size());
  for (double y : lb)
    for (double x : la)
      differences.push_back(y - x);
  const auto k = static_cast<std::size_t>(c) - 1; // the C-th smallest, from 0
  std::nth_element(differences.begin(), differences.begin() + static_cast<std::ptrdiff_t>(k),
                   differences.end());
  const double low = differences[k];
  const std::size_t k_high = differences.size() - 1 - k; // the C-th largest
  std::nth_element(differences.begin(), differences.begin() + static_cast<std::ptrdiff_t>(k_high),
                   differences.end());
  const double high = differences[k_high];
  return ChangeInterval{std::expm1(low), std::expm1(high)};
}

namespace {

/// The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  d = 1 / (std::abs(d) < tiny ? tiny : d);
  double h = d;
  for (int m = 1; m <= 10000; ++m) {
    const double m2 = 2.0 * m;
    for (const double term : {m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                              -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))}) {
      d = 1 + term * d;
      d = 1 / (std::abs(d) < tiny ? tiny : d);
      c = 1 + term / c;
      c = std::abs(c) < tiny ? tiny : c;
      h *= d * c;
    }
    if (std::abs(d * c - 1) < 1e-15)
      break;
  }
  return h;
}

/// The regularized incomplete beta function I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2))
    return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

} // namespace

double student_t_two_sided_p(double t, double df) {
  if (!std::isfinite(t))
    return 0;
  return std::clamp(incomplete_beta(df / 2, 0.5, df / (df + t * t)), 0.0, 1.0);
}

double student_t_quantile(double alpha, double df) {
  double lo = 0, hi = 1;
  while (student_t_two_sided_p(hi, df) > alpha && hi < 1e300)
    hi *= 2;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (student_t_two_sided_p(mid, df) > alpha ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

} // namespace gpurun::bench
