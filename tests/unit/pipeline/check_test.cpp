#include "pipeline/check.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

HostBuffer make(DType t, const std::vector<double>& values) {
  HostBuffer b(t, {values.size()});
  for (std::size_t i = 0; i < values.size(); ++i)
    store_from_double(t, b.element(i), values[i]);
  return b;
}

std::vector<double> values_of(const HostBuffer& b) {
  std::vector<double> out;
  for (std::size_t i = 0; i < b.element_count(); ++i) {
    out.push_back(load_as_double(b.dtype(), b.element(i)));
  }
  return out;
}

TEST(Check, EqualBuffersPass) {
  auto a = make(DType::f32, {1, 2, 3});
  CheckReport r = compare_buffers("y", a, a, 1e-5, 1e-8);
  EXPECT_TRUE(r.passed);
  EXPECT_EQ(r.name, "y");
  EXPECT_EQ(r.compared, 3u);
  EXPECT_EQ(r.mismatches, 0u);
  EXPECT_EQ(r.max_abs_error, 0);
  EXPECT_TRUE(r.message.empty());
}

TEST(Check, ToleranceFormulaIsAtolPlusRtolTimesExpected) {
  auto exp = make(DType::f64, {100.0});
  // |got - exp| = 0.5: passes with atol 0.5, or rtol 0.005 (0.005 * 100), fails just below both.
  auto got = make(DType::f64, {100.5});
  EXPECT_TRUE(compare_buffers("x", got, exp, 0, 0.5).passed);
  EXPECT_TRUE(compare_buffers("x", got, exp, 0.005, 0).passed);
  EXPECT_TRUE(compare_buffers("x", got, exp, 0.0025, 0.25).passed);
  EXPECT_FALSE(compare_buffers("x", got, exp, 0.0024, 0.25).passed);
  EXPECT_FALSE(compare_buffers("x", got, exp, 0, 0.49).passed);
  CheckReport r = compare_buffers("x", got, exp, 0, 0);
  EXPECT_DOUBLE_EQ(r.max_abs_error, 0.5);
  EXPECT_DOUBLE_EQ(r.max_rel_error, 0.005);
}

TEST(Check, NanMatchesOnlyNanAndInfinitiesMatchThemselves) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  auto exp = make(DType::f32, {nan, inf, -inf, 1});
  EXPECT_TRUE(compare_buffers("x", make(DType::f32, {nan, inf, -inf, 1}), exp, 0, 0).passed);
  CheckReport r = compare_buffers("x", make(DType::f32, {1, -inf, inf, nan}), exp, 1, 1);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatches, 4u);
  ASSERT_EQ(r.first_mismatches.size(), 4u);
  EXPECT_EQ(std::get<0>(r.first_mismatches[0]), 0u);
  EXPECT_EQ(std::get<1>(r.first_mismatches[0]), "1");
  EXPECT_EQ(std::get<2>(r.first_mismatches[0]), "nan");
}

TEST(Check, IntegersAreComparedExactly) {
  HostBuffer got(DType::u64, {1});
  HostBuffer exp(DType::u64, {1});
  const std::uint64_t a = (1ull << 60) + 1, b = 1ull << 60; // equal as doubles
  std::memcpy(got.data(), &a, 8);
  std::memcpy(exp.data(), &b, 8);
  // 1e-5 * 2^60 is far above 1, so the tolerance allows it; without tolerance the exact
  // difference (which a detour through double would lose) decides.
  EXPECT_TRUE(compare_buffers("n", got, exp, 1e-5, 1e-8).passed);
  CheckReport exact = compare_buffers("n", got, exp, 0, 0);
  EXPECT_FALSE(exact.passed);
  EXPECT_EQ(exact.max_abs_error, 1);
  EXPECT_EQ(std::get<1>(exact.first_mismatches[0]), "1152921504606846977");
  EXPECT_EQ(std::get<2>(exact.first_mismatches[0]), "1152921504606846976");
  HostBuffer neg(DType::i32, {2});
  HostBuffer negexp(DType::i64, {2});
  store_from_int64(DType::i32, neg.element(0), -5);
  store_from_int64(DType::i32, neg.element(1), 7);
  store_from_int64(DType::i64, negexp.element(0), -5);
  store_from_int64(DType::i64, negexp.element(1), 7);
  EXPECT_TRUE(compare_buffers("n", neg, negexp, 0, 0).passed) << "mixed widths by value";
}

TEST(Check, FirstTenMismatchesAreListed) {
  std::vector<double> zeros(25, 0), ones(25, 1);
  CheckReport r = compare_buffers("x", make(DType::i32, zeros), make(DType::i32, ones), 0, 0);
  EXPECT_EQ(r.mismatches, 25u);
  ASSERT_EQ(r.first_mismatches.size(), 10u);
  EXPECT_EQ(std::get<0>(r.first_mismatches[9]), 9u);
  EXPECT_EQ(r.max_abs_error, 1);
  EXPECT_EQ(r.max_rel_error, 1);
}

TEST(Check, DifferentElementCountsFailWithAMessage) {
  CheckReport r = compare_buffers("x", make(DType::f32, {1, 2}), make(DType::f32, {1, 2, 3}), 0, 0);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.message, "3 elements expected (f32[3]), the buffer has 2 (f32[2])");
}

TEST(Check, ExpectationFromAList) {
  HostBuffer like(DType::f32, {3});
  HostBuffer e = parse_expectation("[1, 2.5, nan]", like, {});
  EXPECT_EQ(e.dtype(), DType::f32);
  auto v = values_of(e);
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[1], 2.5);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_THROW((void)parse_expectation("[1, 2]", like, {}), Error) << "length must match";
}

TEST(Check, ExpectationFromAFillWithTheBuffersType) {
  HostBuffer like(DType::i32, {4});
  HostBuffer e = parse_expectation("iota(20,1)", like, {});
  EXPECT_EQ(e.dtype(), DType::i32);
  EXPECT_EQ(values_of(e), (std::vector<double>{20, 21, 22, 23}));
  EXPECT_EQ(values_of(parse_expectation("1000", like, {})),
            (std::vector<double>{1000, 1000, 1000, 1000}));
}

TEST(Check, ExpectationFromABufferSpec) {
  HostBuffer like(DType::f32, {20});
  HostBuffer e = parse_expectation("f64[20]:iota(20,1)", like, {});
  EXPECT_EQ(e.dtype(), DType::f64);
  EXPECT_EQ(e.element_count(), 20u);
  EXPECT_EQ(values_of(e)[19], 39);
  // compared by value across dtypes
  HostBuffer got = make(DType::f32, std::vector<double>(20, 0));
  for (std::size_t i = 0; i < 20; ++i)
    store_from_double(DType::f32, got.element(i), 20.0 + i);
  EXPECT_TRUE(compare_buffers("v", got, e, 0, 0).passed);
}

TEST(Check, ExpectationFromANpyFileRelativeToBaseDir) {
  const auto dir = gpurun::test::temp_dir();
  write_npy(dir / "ref.npy", make(DType::f64, {1, 2, 3}));
  HostBuffer like(DType::f32, {3});
  HostBuffer e = parse_expectation("@ref.npy", like, dir);
  EXPECT_EQ(e.dtype(), DType::f64);
  EXPECT_EQ(values_of(e), (std::vector<double>{1, 2, 3}));
  EXPECT_THROW((void)parse_expectation("@missing.npy", like, dir), Error);
}

TEST(Check, BadExpectationTextIsAUsageError) {
  HostBuffer like(DType::f32, {3});
  try {
    (void)parse_expectation("bogus", like, {}, "--expect y");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)parse_expectation("", like, {}), Error);
}

TEST(Check, ExactComparesBits) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const HostBuffer got = make(DType::f32, {0.0f, 1.0f, nan});
  const HostBuffer same = make(DType::f32, {0.0f, 1.0f, nan});
  EXPECT_TRUE(compare_buffers("x", got, same, 0, 0, true).passed);
  // -0 equals +0 by value, not by its bits.
  const HostBuffer negative_zero = make(DType::f32, {-0.0f, 1.0f, nan});
  EXPECT_TRUE(compare_buffers("x", got, negative_zero, 0, 0).passed);
  const CheckReport r = compare_buffers("x", got, negative_zero, 1, 1, true);
  EXPECT_FALSE(r.passed);
  EXPECT_EQ(r.mismatches, 1u);
  // Elements of another size cannot be compared bit for bit.
  const CheckReport sizes = compare_buffers("x", got, make(DType::f64, {0, 1, 2}), 0, 0, true);
  EXPECT_FALSE(sizes.passed);
  EXPECT_NE(sizes.message.find("bit-for-bit"), std::string::npos) << sizes.message;
}

} // namespace
} // namespace gpurun
