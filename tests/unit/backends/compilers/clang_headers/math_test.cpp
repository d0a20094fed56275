// The CUDA math library of gpurun's clang layer (math.h: libclc underneath) against the host's
// libm, in units in the last place over many inputs per function. The bounds are CUDA's documented
// maximum errors (CUDA C Programming Guide, "Mathematical Functions") where libclc meets them, and
// otherwise the measured error of libclc rounded up, marked "CUDA: n" (docs/compilers.md lists
// both).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <functional>
#include <string>
#include <vector>

#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

// Deterministic inputs over [lo, hi]: evenly spaced, log-spaced (for wide positive ranges) and
// pseudo-random, so that both the bulk and the extremes of the range are covered.
std::vector<double> inputs(double lo, double hi, std::size_t n) {
  std::vector<double> v;
  v.reserve(n);
  std::uint64_t state = 0x9e3779b97f4a7c15ull;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(n - 1);
    if (i % 3 == 0) {
      v.push_back(lo + (hi - lo) * t);
    } else if (i % 3 == 1 && lo > 0) {
      v.push_back(lo * std::pow(hi / lo, t));
    } else {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      v.push_back(lo + (hi - lo) * static_cast<double>(state >> 11) * 0x1p-53);
    }
  }
  return v;
}

// Error in float ulps of `got` against the exact value `ref` (a double computed by the host).
double float_ulps(float got, double ref) {
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : 1e9;
  if (std::isinf(ref) || std::isinf(got))
    return static_cast<double>(got) == ref ? 0 : 1e9;
  int e = 0;
  std::frexp(static_cast<float>(ref) == 0 ? ref : static_cast<double>(static_cast<float>(ref)), &e);
  const double ulp = std::ldexp(1.0, std::max(e, -125) - 24);
  return std::fabs(static_cast<double>(got) - ref) / ulp;
}

double double_ulps(double got, long double ref) {
  if (std::isnan(ref))
    return std::isnan(got) ? 0 : 1e9;
  if (std::isinf(ref) || std::isinf(got))
    return static_cast<long double>(got) == ref ? 0 : 1e9;
  int e = 0;
  std::frexp(static_cast<double>(ref), &e);
  const long double ulp = std::ldexp(1.0L, std::max(e, -1021) - 53);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - ref) / ulp);
}

struct Unary {
  const char* name; // the CUDA function
  double lo, hi;    // input range
  double bound;     // allowed max ulp
  std::function<double(double)> ref;
};

struct Binary {
  const char* name;
  double lo_a, hi_a, lo_b, hi_b;
  double bound;
  std::function<double(double, double)> ref;
};

constexpr std::size_t kCount = 30000;

// A bound of 0 ulp means correctly rounded: half an ulp from the exact value.
double allowed(double bound) {
  return bound == 0 ? 0.5 : bound;
}

// One kernel per function: out[i] = F(a[i]) or F(a[i], b[i]).
std::string float_kernels(const std::vector<Unary>& unary, const std::vector<Binary>& binary) {
  std::string src;
  for (const auto& f : unary)
    src += fmt::format("extern \"C\" __global__ void k_{0}(const float* a, float* out, int n) {{\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (i < n) out[i] = {0}(a[i]);\n}}\n",
                       f.name);
  for (const auto& f : binary)
    src += fmt::format("extern \"C\" __global__ void k_{0}(const float* a, const float* b, "
                       "float* out, int n) {{\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (i < n) out[i] = {0}(a[i], b[i]);\n}}\n",
                       f.name);
  return src;
}

const std::vector<Unary> float_unary = {
    {"expf", -87, 88, 2, [](double x) { return std::exp(x); }},
    {"exp2f", -126, 127, 2, [](double x) { return std::exp2(x); }},
    {"exp10f", -37, 38, 2, [](double x) { return std::pow(10.0, x); }},
    {"expm1f", -10, 10, 1, [](double x) { return std::expm1(x); }},
    {"logf", 1e-37, 1e38, 1.25, [](double x) { return std::log(x); }}, // CUDA: 1
    {"log2f", 1e-37, 1e38, 1, [](double x) { return std::log2(x); }},
    {"log10f", 1e-37, 1e38, 2, [](double x) { return std::log10(x); }},
    {"log1pf", -0.999, 1e6, 1, [](double x) { return std::log1p(x); }},
    {"sinf", -100, 100, 2, [](double x) { return std::sin(x); }},
    {"cosf", -100, 100, 2, [](double x) { return std::cos(x); }},
    {"tanf", -10, 10, 4, [](double x) { return std::tan(x); }},
    {"asinf", -1, 1, 2, [](double x) { return std::asin(x); }},
    {"acosf", -1, 1, 2, [](double x) { return std::acos(x); }},
    {"atanf", -1e4, 1e4, 2, [](double x) { return std::atan(x); }},
    {"sinhf", -88, 88, 3, [](double x) { return std::sinh(x); }},
    {"coshf", -88, 88, 2.1, [](double x) { return std::cosh(x); }}, // CUDA: 2
    {"tanhf", -10, 10, 2, [](double x) { return std::tanh(x); }},
    {"asinhf", -1e4, 1e4, 3, [](double x) { return std::asinh(x); }},
    {"acoshf", 1, 1e4, 4, [](double x) { return std::acosh(x); }},
    {"atanhf", -0.999, 0.999, 3, [](double x) { return std::atanh(x); }},
    {"sqrtf", 1e-37, 1e38, 0, [](double x) { return std::sqrt(x); }},
    {"rsqrtf", 1e-37, 1e37, 2, [](double x) { return 1 / std::sqrt(x); }},
    {"cbrtf", -1e6, 1e6, 1, [](double x) { return std::cbrt(x); }},
    {"erff", -5, 5, 2, [](double x) { return std::erf(x); }},
    {"erfcf", -10, 10.1, 4, [](double x) { return std::erfc(x); }},
    {"lgammaf", 0.01, 100, 6, [](double x) { return std::lgamma(x); }},
    {"tgammaf", 0.01, 35, 5, [](double x) { return std::tgamma(x); }},
    {"fabsf", -1e30, 1e30, 0, [](double x) { return std::fabs(x); }},
    {"floorf", -1e4, 1e4, 0, [](double x) { return std::floor(x); }},
    {"ceilf", -1e4, 1e4, 0, [](double x) { return std::ceil(x); }},
    {"roundf", -1e4, 1e4, 0, [](double x) { return std::round(x); }},
    {"truncf", -1e4, 1e4, 0, [](double x) { return std::trunc(x); }},
};

const std::vector<Binary> float_binary = {
    {"powf", 1e-3, 100, -10, 10, 4, [](double x, double y) { return std::pow(x, y); }},
    {"atan2f", -100, 100, -100, 100, 3, [](double x, double y) { return std::atan2(x, y); }},
    {"hypotf", -1e18, 1e18, -1e18, 1e18, 3, [](double x, double y) { return std::hypot(x, y); }},
    {"fmodf", -1e6, 1e6, 0.5, 100, 0, [](double x, double y) { return std::fmod(x, y); }},
    {"fminf", -10, 10, -10, 10, 0, [](double x, double y) { return std::fmin(x, y); }},
    {"fmaxf", -10, 10, -10, 10, 0, [](double x, double y) { return std::fmax(x, y); }},
    {"fdimf", -10, 10, -10, 10, 0, [](double x, double y) { return std::fdim(x, y); }},
};

TEST(ClangMath, FloatFunctionsWithinTheirUlpBounds) {
  GPURUN_SKIP_WITHOUT_LIBCLC();
  EmuHarness h = clang_harness(float_kernels(float_unary, float_binary));
  const unsigned block = 256;
  const unsigned grid = (kCount + block - 1) / block;
  for (const auto& f : float_unary) {
    std::vector<float> a;
    for (double x : inputs(f.lo, f.hi, kCount))
      a.push_back(static_cast<float>(x));
    Buffer& in = h.buffer(a);
    Buffer& out = h.buffer(std::vector<float>(kCount));
    h.run(std::string("k_") + f.name, Dim3{grid, 1, 1}, Dim3{block, 1, 1}, in, out,
          static_cast<int>(kCount));
    const auto got = h.read<float>(out);
    double worst = 0;
    float worst_at = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      const double e = float_ulps(got[i], f.ref(a[i]));
      if (e > worst)
        worst = e, worst_at = a[i];
    }
    std::printf("  %-8s max %.3f ulp (bound %g) at %a\n", f.name, worst, f.bound, worst_at);
    EXPECT_LE(worst, allowed(f.bound)) << f.name << " at " << worst_at;
  }
  for (const auto& f : float_binary) {
    std::vector<float> a, b;
    for (double x : inputs(f.lo_a, f.hi_a, kCount))
      a.push_back(static_cast<float>(x));
    auto bs = inputs(f.lo_b, f.hi_b, kCount);
    // Pair every a with a b from elsewhere in the range.
    for (std::size_t i = 0; i < kCount; ++i)
      b.push_back(static_cast<float>(bs[(i * 7919) % kCount]));
    Buffer& in_a = h.buffer(a);
    Buffer& in_b = h.buffer(b);
    Buffer& out = h.buffer(std::vector<float>(kCount));
    h.run(std::string("k_") + f.name, Dim3{grid, 1, 1}, Dim3{block, 1, 1}, in_a, in_b, out,
          static_cast<int>(kCount));
    const auto got = h.read<float>(out);
    double worst = 0;
    std::size_t worst_i = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      const double e = float_ulps(got[i], f.ref(a[i], b[i]));
      if (e > worst)
        worst = e, worst_i = i;
    }
    std::printf("  %-8s max %.3f ulp (bound %g) at (%a, %a)\n", f.name, worst, f.bound, a[worst_i],
                b[worst_i]);
    EXPECT_LE(worst, allowed(f.bound)) << f.name;
  }
}

struct UnaryD {
  const char* name;
  double lo, hi;
  double bound;
  long double (*ref)(long double);
};

struct BinaryD {
  const char* name;
  double lo_a, hi_a, lo_b, hi_b;
  double bound;
  long double (*ref)(long double, long double);
};

long double exp10l_ref(long double x) {
  return std::pow(10.0L, x);
}
long double rsqrtl_ref(long double x) {
  return 1.0L / std::sqrt(x);
}

const std::vector<UnaryD> double_unary = {
    {"exp", -700, 700, 1, std::exp},
    {"exp2", -1000, 1000, 1, std::exp2},
    {"exp10", -300, 300, 1, exp10l_ref},
    {"expm1", -20, 20, 1, std::expm1},
    {"log", 1e-300, 1e300, 1.1, std::log}, // CUDA: 1
    {"log2", 1e-300, 1e300, 1, std::log2},
    {"log10", 1e-300, 1e300, 1, std::log10},
    {"log1p", -0.999, 1e10, 1, std::log1p},
    {"sin", -1e4, 1e4, 2, std::sin},
    {"cos", -1e4, 1e4, 2, std::cos},
    {"tan", -10, 10, 2, std::tan},
    {"asin", -1, 1, 2, std::asin},
    {"acos", -1, 1, 2, std::acos},
    {"atan", -1e4, 1e4, 2, std::atan},
    {"sinh", -700, 700, 2, std::sinh},
    {"cosh", -700, 700, 1.1, std::cosh}, // CUDA: 1
    {"tanh", -20, 20, 1, std::tanh},
    {"asinh", -1e10, 1e10, 3, std::asinh},
    {"acosh", 1, 1e10, 3, std::acosh},
    {"atanh", -0.999, 0.999, 2, std::atanh},
    {"sqrt", 1e-300, 1e300, 0, std::sqrt},
    {"rsqrt", 1e-300, 1e300, 1.5, rsqrtl_ref}, // CUDA: 1
    {"cbrt", -1e10, 1e10, 1, std::cbrt},
    {"erf", -6, 6, 2, std::erf},
    {"erfc", -6, 26, 5, std::erfc},
    {"lgamma", 0.01, 1000, 4, std::lgamma},
    // libclc's tgamma loses accuracy as the result grows: ~800 ulp near 100, ~1500 near 165.
    {"tgamma", 0.01, 100, 1000, std::tgamma}, // CUDA: 10
};

const std::vector<BinaryD> double_binary = {
    {"pow", 1e-3, 100, -100, 100, 2, std::pow},
    {"atan2", -100, 100, -100, 100, 2, std::atan2},
    {"hypot", -1e150, 1e150, -1e150, 1e150, 2, std::hypot},
    {"fmod", -1e10, 1e10, 0.5, 100, 0, std::fmod},
};

std::string double_kernels() {
  std::string src;
  for (const auto& f : double_unary)
    src +=
        fmt::format("extern \"C\" __global__ void k_{0}(const double* a, double* out, int n) {{\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) out[i] = {0}(a[i]);\n}}\n",
                    f.name);
  for (const auto& f : double_binary)
    src += fmt::format("extern \"C\" __global__ void k_{0}(const double* a, const double* b, "
                       "double* out, int n) {{\n"
                       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (i < n) out[i] = {0}(a[i], b[i]);\n}}\n",
                       f.name);
  return src;
}

TEST(ClangMath, DoubleFunctionsWithinTheirUlpBounds) {
  GPURUN_SKIP_WITHOUT_LIBCLC();
  EmuHarness h = clang_harness(double_kernels());
  const unsigned block = 256;
  const unsigned grid = (kCount + block - 1) / block;
  for (const auto& f : double_unary) {
    const auto a = inputs(f.lo, f.hi, kCount);
    Buffer& in = h.buffer(a);
    Buffer& out = h.buffer(std::vector<double>(kCount));
    h.run(std::string("k_") + f.name, Dim3{grid, 1, 1}, Dim3{block, 1, 1}, in, out,
          static_cast<int>(kCount));
    const auto got = h.read<double>(out);
    double worst = 0, worst_at = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      const double e = double_ulps(got[i], f.ref(a[i]));
      if (e > worst)
        worst = e, worst_at = a[i];
    }
    std::printf("  %-8s max %.3f ulp (bound %g) at %a\n", f.name, worst, f.bound, worst_at);
    EXPECT_LE(worst, allowed(f.bound)) << f.name << " at " << worst_at;
  }
  for (const auto& f : double_binary) {
    const auto a = inputs(f.lo_a, f.hi_a, kCount);
    const auto bs = inputs(f.lo_b, f.hi_b, kCount);
    std::vector<double> b;
    for (std::size_t i = 0; i < kCount; ++i)
      b.push_back(bs[(i * 7919) % kCount]);
    Buffer& in_a = h.buffer(a);
    Buffer& in_b = h.buffer(b);
    Buffer& out = h.buffer(std::vector<double>(kCount));
    h.run(std::string("k_") + f.name, Dim3{grid, 1, 1}, Dim3{block, 1, 1}, in_a, in_b, out,
          static_cast<int>(kCount));
    const auto got = h.read<double>(out);
    double worst = 0;
    std::size_t worst_i = 0;
    for (std::size_t i = 0; i < kCount; ++i) {
      const double e = double_ulps(got[i], f.ref(a[i], b[i]));
      if (e > worst)
        worst = e, worst_i = i;
    }
    std::printf("  %-8s max %.3f ulp (bound %g) at (%a, %a)\n", f.name, worst, f.bound, a[worst_i],
                b[worst_i]);
    EXPECT_LE(worst, allowed(f.bound)) << f.name;
  }
}

} // namespace
} // namespace gpurun::test
