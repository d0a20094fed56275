#include "bench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

// Expected values come from tests/unit/bench/statistics_reference.py, which computes them without
// this code (Python's statistics module; Mann-Whitney p-values by enumerating every arrangement
// of the ranks, by an integer recursion over the U distribution, or from the textbook normal
// approximation).

namespace gpurun::bench {
namespace {

/// The generator the reference script uses: a 64-bit LCG, top 53 bits scaled to [0, scale).
std::vector<double> lcg(std::uint64_t seed, std::size_t count, double shift = 0) {
  std::vector<double> out;
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < count; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    out.push_back(static_cast<double>(x >> 11) / 9007199254740992.0 + shift);
  }
  return out;
}

TEST(Summarize, FixedVector) {
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  const auto s = summarize(v);
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.mean, 5);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_NEAR(s.stdev, 2.138089935299395, 1e-14); // n − 1, not n (which gives 2)
  EXPECT_NEAR(s.noise, 0.427617987059879, 1e-14);
  EXPECT_DOUBLE_EQ(s.mad, 0.5);
}

TEST(Summarize, OrderDoesNotMatterAndOddCountsTakeTheMiddle) {
  const auto s = summarize(std::vector<double>{9, 1, 5});
  EXPECT_DOUBLE_EQ(s.median, 5);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_DOUBLE_EQ(s.mad, 4);
}

TEST(Summarize, EmptyAndSingle) {
  const auto empty = summarize({});
  EXPECT_EQ(empty.count, 0u);
  EXPECT_EQ(empty.mean, 0);
  EXPECT_EQ(empty.median, 0);
  EXPECT_EQ(empty.stdev, 0);
  const auto one = summarize(std::vector<double>{3.5});
  EXPECT_EQ(one.count, 1u);
  EXPECT_DOUBLE_EQ(one.mean, 3.5);
  EXPECT_DOUBLE_EQ(one.median, 3.5);
  EXPECT_EQ(one.stdev, 0);
  EXPECT_EQ(one.noise, 0);
}

TEST(Median, EvenOddEmpty) {
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({7, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(Outliers, ModifiedZScoreFindsTheFarSample) {
  // Median 10.05, MAD 0.1: scores 0.34, 0.34, 1.01, 0, 0.67, 1.01 and 33.4 for 15.
  const std::vector<double> v{10, 10.1, 9.9, 10.05, 9.95, 10.2, 15};
  EXPECT_EQ(outliers(v), (std::vector<std::size_t>{6}));
  // A threshold of 1 also takes the two samples scoring 1.01.
  EXPECT_EQ(outliers(v, 1.0), (std::vector<std::size_t>{2, 5, 6}));
}

TEST(Outliers, NoneWhenTheMadIsZero) {
  EXPECT_TRUE(outliers(std::vector<double>{1, 1, 1, 1, 5}).empty());
  EXPECT_TRUE(outliers({}).empty());
}

TEST(MannWhitney, ExactSmallSamples) {
  const auto r = mann_whitney_u(std::vector<double>{1, 2, 3}, std::vector<double>{4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.p_value, 0.1, 1e-15); // 2 of the 20 arrangements are as extreme
  // The test is symmetric: swapping the samples gives the other U and the same p.
  const auto swapped = mann_whitney_u(std::vector<double>{4, 5, 6}, std::vector<double>{1, 2, 3});
  EXPECT_DOUBLE_EQ(swapped.u, 9);
  EXPECT_NEAR(swapped.p_value, 0.1, 1e-15);
}

TEST(MannWhitney, ExactUnequalSizes) {
  const auto r = mann_whitney_u(std::vector<double>{1.1, 2.3, 0.7, 5.5, 3.2},
                                std::vector<double>{4.1, 6.2, 7.7, 3.9, 8.8, 5.0});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 3);
  EXPECT_NEAR(r.p_value, 0.030303030303030304, 1e-15);
}

TEST(MannWhitney, ExactMatchesEnumeration) {
  const auto r = mann_whitney_u(lcg(1, 10), lcg(2, 12, 0.3));
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 23);
  EXPECT_NEAR(r.p_value, 0.013769512221524605, 1e-14);
}

TEST(MannWhitney, ExactLargerSamplesMatchTheIntegerRecursion) {
  const auto r = mann_whitney_u(lcg(3, 40), lcg(4, 50, 0.2));
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 583);
  EXPECT_NEAR(r.p_value, 0.0005937306209456146, 1e-15);
}

TEST(MannWhitney, TiesUseTheCorrectedNormalApproximation) {
  const auto r =
      mann_whitney_u(std::vector<double>{1, 2, 2, 3, 4}, std::vector<double>{2, 3, 3, 5, 6, 6});
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 6);
  EXPECT_NEAR(r.p_value, 0.11304997885632297, 1e-12);
}

TEST(MannWhitney, LargeSamplesUseTheNormalApproximation) {
  const auto r = mann_whitney_u(lcg(5, 120), lcg(6, 120, 0.05));
  EXPECT_FALSE(r.exact); // 14400 pairs, beyond the exact limit
  EXPECT_DOUBLE_EQ(r.u, 5429);
  EXPECT_NEAR(r.p_value, 0.0009937855439198088, 1e-12);
}

TEST(MannWhitney, IdenticalSamplesAreNotDifferent) {
  const auto r = mann_whitney_u(std::vector<double>{5, 5, 5}, std::vector<double>{5, 5, 5});
  EXPECT_DOUBLE_EQ(r.u, 4.5);
  EXPECT_DOUBLE_EQ(r.p_value, 1);
  const auto same = mann_whitney_u(lcg(7, 30), lcg(7, 30));
  EXPECT_DOUBLE_EQ(same.u, 450);
  EXPECT_DOUBLE_EQ(same.p_value, 1);
}

TEST(MannWhitney, EmptySampleGivesNoEvidence) {
  const auto r = mann_whitney_u({}, std::vector<double>{1, 2});
  EXPECT_DOUBLE_EQ(r.p_value, 1);
}

// ---- change_interval

/// `count` values of center·(1 + spread·u), u uniform in [-1, 1), from a fixed LCG.
std::vector<double> spread_around(double center, double spread, std::size_t count,
                                  std::uint64_t seed) {
  std::vector<double> out;
  std::uint64_t x = seed;
  for (std::size_t i = 0; i < count; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const double unit = static_cast<double>(x >> 11) / 9007199254740992.0;
    out.push_back(center * (1 + spread * (2 * unit - 1)));
  }
  return out;
}

TEST(ChangeInterval, HoldsAKnownShiftAndNarrowsWithMoreSamples) {
  const auto a = spread_around(1.0, 0.02, 40, 1);
  std::vector<double> b = spread_around(1.0, 0.02, 40, 2);
  for (double& x : b)
    x *= 1.10;
  const auto ci = change_interval(a, b, 0.05);
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, 0.10);
  EXPECT_GT(ci->high, 0.10);
  EXPECT_GT(ci->low, 0.08);
  EXPECT_LT(ci->high, 0.12);
  const auto wide = change_interval(std::span(a).first(8), std::span(b).first(8), 0.05);
  ASSERT_TRUE(wide);
  EXPECT_GT(wide->high - wide->low, ci->high - ci->low);
  const auto strict = change_interval(a, b, 0.001);
  ASSERT_TRUE(strict);
  EXPECT_GT(strict->high - strict->low, ci->high - ci->low);
}

// The C-th smallest of the n1·n2 differences, C = floor(n1n2/2 − z·sqrt(n1n2(n1+n2+1)/12)):
// for 10 and 10 at 0.05, C = floor(50 − 1.95996·13.2288) = 24. Baseline 1..10, new 1..10 scaled
// by e^0.5: the differences are 0.5 + log j − log i, and the 24th smallest and largest of them.
TEST(ChangeInterval, IsTheMosesIntervalOfTheLogarithms) {
  std::vector<double> a, b, d;
  for (int i = 1; i <= 10; ++i) {
    a.push_back(i);
    b.push_back(i * std::exp(0.5));
  }
  for (double y : b)
    for (double x : a)
      d.push_back(std::log(y) - std::log(x));
  std::sort(d.begin(), d.end());
  const auto ci = change_interval(a, b, 0.05);
  ASSERT_TRUE(ci);
  EXPECT_NEAR(ci->low, std::expm1(d[23]), 1e-12);
  EXPECT_NEAR(ci->high, std::expm1(d[100 - 24]), 1e-12);
}

TEST(ChangeInterval, AbsentWithTooFewSamplesOrTimesThatAreNotPositive) {
  EXPECT_FALSE(change_interval(std::vector{1.0, 1.1}, std::vector{1.0, 1.2}, 0.05));
  EXPECT_FALSE(change_interval(std::vector<double>{}, std::vector{1.0}, 0.05));
  const auto a = spread_around(1.0, 0.1, 20, 3);
  auto b = a;
  b[3] = 0;
  EXPECT_FALSE(change_interval(a, b, 0.05));
  b[3] = std::nan("");
  EXPECT_FALSE(change_interval(a, b, 0.05));
  EXPECT_TRUE(change_interval(a, a, 0.05));
}

// Of many pairs of samples of one distribution, about alpha of the intervals miss 0.
TEST(ChangeInterval, MissesNoChangeAboutAlphaOfTheTime) {
  int missed = 0;
  constexpr int trials = 400;
  for (int t = 0; t < trials; ++t) {
    const auto a = spread_around(1.0, 0.05, 25, 1000 + 2 * t);
    const auto b = spread_around(1.0, 0.05, 25, 1001 + 2 * t);
    const auto ci = change_interval(a, b, 0.05);
    ASSERT_TRUE(ci);
    missed += (ci->low > 0 || ci->high < 0) ? 1 : 0;
  }
  EXPECT_GE(missed, 4);   // 1%
  EXPECT_LE(missed, 40);  // 10%
}

TEST(ChangeInterval, ThinsLargeSamplesToBoundItsWork) {
  const auto a = spread_around(1.0, 0.02, 5000, 7);
  auto b = spread_around(1.0, 0.02, 5000, 8);
  for (double& x : b)
    x *= 1.01;
  const auto ci = change_interval(a, b, 0.05);
  ASSERT_TRUE(ci);
  EXPECT_LT(ci->low, 0.01);
  EXPECT_GT(ci->high, 0.01);
  EXPECT_LT(ci->high - ci->low, 0.004);
}

// ---- Student's t (table values: two-sided 5% points; P(|T| ≥ 2) at 10 degrees of freedom)

TEST(StudentT, QuantilesAndTailsMatchTheTables) {
  EXPECT_NEAR(student_t_quantile(0.05, 1), 12.7062, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 2), 4.3027, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 4), 2.7764, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.05, 9), 2.2622, 1e-4);
  EXPECT_NEAR(student_t_quantile(0.01, 30), 2.7500, 1e-4);
  EXPECT_NEAR(student_t_two_sided_p(2.0, 10), 0.07339, 1e-5);
  EXPECT_NEAR(student_t_two_sided_p(0.0, 5), 1.0, 1e-12);
  EXPECT_NEAR(student_t_two_sided_p(-2.0, 10), 0.07339, 1e-5);
  EXPECT_LT(student_t_two_sided_p(50, 3), 1e-4);
}

} // namespace
} // namespace gpurun::bench
