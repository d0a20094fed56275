// Integer, bit, conversion and rounding-mode intrinsics, built-in variables and the fast math
// intrinsics of gpurun's clang layer, on the CPU backend, against values computed here.
#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

TEST(ClangIntrinsics, BitOperations) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(const unsigned* in, unsigned* out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i];
  unsigned* o = out + 10 * i;
  o[0] = __popc(x);
  o[1] = __clz(int(x));
  o[2] = __ffs(int(x));
  o[3] = __brev(x);
  o[4] = __byte_perm(x, 0x76543210u, 0x4321);
  o[5] = __funnelshift_l(x, 0x80000001u, 4);
  o[6] = __funnelshift_r(x, 0x80000001u, 36);   // wraps: the shift is taken mod 32
  o[7] = __funnelshift_rc(x, 0x80000001u, 36);  // clamps to 32
  o[8] = __popcll(0xffffffff00000000ull | x) + 100 * __clzll((long long)x);
  o[9] = unsigned(__brevll(x) >> 32) ^ unsigned(__ffsll((long long)x << 20));
}
)");
  const std::vector<unsigned> in = {0, 1, 0x80000000u, 0xdeadbeefu, 0x00f0f000u, 0xffffffffu};
  const int n = static_cast<int>(in.size());
  Buffer& b_in = h.buffer(in);
  Buffer& b_out = h.buffer(std::vector<unsigned>(10 * in.size()));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, b_in, b_out, n);
  const auto out = h.read<unsigned>(b_out);
  auto brev = [](unsigned v) {
    unsigned r = 0;
    for (int b = 0; b < 32; ++b)
      r |= ((v >> b) & 1u) << (31 - b);
    return r;
  };
  auto perm = [](unsigned x, unsigned y, unsigned s) {
    const std::uint64_t bytes = (static_cast<std::uint64_t>(y) << 32) | x;
    unsigned r = 0;
    for (int k = 0; k < 4; ++k)
      r |= static_cast<unsigned>((bytes >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
  };
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    const unsigned x = in[i];
    const unsigned* o = &out[10 * i];
    const std::uint64_t hi_lo = (0x80000001ull << 32) | x;
    EXPECT_EQ(o[0], static_cast<unsigned>(std::popcount(x)));
    EXPECT_EQ(o[1], static_cast<unsigned>(std::countl_zero(x)));
    EXPECT_EQ(o[2], x == 0 ? 0u : static_cast<unsigned>(std::countr_zero(x) + 1));
    EXPECT_EQ(o[3], brev(x));
    EXPECT_EQ(o[4], perm(x, 0x76543210u, 0x4321));
    EXPECT_EQ(o[5], static_cast<unsigned>((hi_lo << 4) >> 32));
    EXPECT_EQ(o[6], static_cast<unsigned>(hi_lo >> 4));
    EXPECT_EQ(o[7], 0x80000001u);
    EXPECT_EQ(o[8], 32u + std::popcount(x) + 100u * (32u + std::countl_zero(x)));
    const std::uint64_t shifted = static_cast<std::uint64_t>(x) << 20;
    EXPECT_EQ(o[9], brev(x) ^ (x == 0 ? 0u : static_cast<unsigned>(std::countr_zero(shifted) + 1)));
  }
}

TEST(ClangIntrinsics, IntegerArithmetic) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(const int* a, const int* b, long long* out) {
  int i = threadIdx.x;
  int x = a[i], y = b[i];
  long long* o = out + 10 * i;
  o[0] = __mulhi(x, y);
  o[1] = __umulhi(unsigned(x), unsigned(y));
  o[2] = __mul64hi((long long)x << 20, (long long)y << 30);
  o[3] = (long long)__umul64hi((unsigned long long)(unsigned)x << 32, 0xffffffffffffffffull);
  o[4] = __mul24(x, y);
  o[5] = __sad(x, y, 7u);
  o[6] = __hadd(x, y);
  o[7] = __rhadd(x, y);
  o[8] = __uhadd(unsigned(x), unsigned(y));
  o[9] = __dp4a(x, y, 5);
}
)");
  const std::vector<int> a = {3, -7, 2147483647, -2147483647 - 1, 123456, 0x01020304};
  const std::vector<int> b = {5, 9, 2147483647, 2147483647, -654321, 0x7f80ff01};
  Buffer& ba = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& bo = h.buffer(std::vector<long long>(10 * a.size()));
  h.run("k", Dim3{1, 1, 1}, Dim3{static_cast<unsigned>(a.size()), 1, 1}, ba, bb, bo);
  const auto out = h.read<long long>(bo);
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(i);
    const long long x = a[i], y = b[i];
    const long long* o = &out[10 * i];
    EXPECT_EQ(o[0], (x * y) >> 32);
    EXPECT_EQ(o[1], static_cast<long long>((static_cast<std::uint64_t>(static_cast<unsigned>(x)) *
                                            static_cast<unsigned>(y)) >>
                                           32));
    EXPECT_EQ(o[2], static_cast<long long>((static_cast<__int128>(x << 20) * (y << 30)) >> 64));
    const unsigned __int128 p =
        static_cast<unsigned __int128>(static_cast<std::uint64_t>(static_cast<unsigned>(x)) << 32) *
        0xffffffffffffffffull;
    EXPECT_EQ(static_cast<std::uint64_t>(o[3]), static_cast<std::uint64_t>(p >> 64));
    auto s24 = [](long long v) { return (v << 40) >> 40; }; // low 24 bits, sign-extended
    EXPECT_EQ(o[4], static_cast<int>(static_cast<std::uint32_t>(s24(x) * s24(y))));
    EXPECT_EQ(o[5], static_cast<long long>(static_cast<unsigned>(std::llabs(x - y) + 7)));
    EXPECT_EQ(o[6], (x + y) >> 1);
    EXPECT_EQ(o[7], (x + y + 1) >> 1);
    EXPECT_EQ(o[8], static_cast<long long>((static_cast<std::uint64_t>(static_cast<unsigned>(x)) +
                                            static_cast<unsigned>(y)) >>
                                           1));
    long long dot = 5;
    for (int k = 0; k < 4; ++k)
      dot += static_cast<signed char>(x >> (8 * k)) * static_cast<signed char>(y >> (8 * k));
    EXPECT_EQ(o[9], static_cast<int>(dot));
  }
}

// Host arithmetic in a rounding mode, for the expected values.
template <class F> float rounded(int mode, F f) {
  const int saved = std::fegetround();
  std::fesetround(mode);
  volatile float r = f();
  std::fesetround(saved);
  return r;
}

TEST(ClangIntrinsics, RoundingModesOfArithmeticAndConversions) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(const float* a, const float* b, float* f, int* i, double* d) {
  int t = threadIdx.x;
  float x = a[t], y = b[t];
  float* fo = f + 12 * t;
  fo[0] = __fadd_rz(x, y);  fo[1] = __fadd_ru(x, y);  fo[2] = __fadd_rd(x, y);
  fo[3] = __fmul_rz(x, y);  fo[4] = __fmul_ru(x, y);  fo[5] = __fdiv_rd(x, y);
  fo[6] = __fdiv_ru(x, y);  fo[7] = __fsub_rz(x, y);  fo[8] = __fmaf_rz(x, y, 1.0f);
  fo[9] = __frcp_rd(y);     fo[10] = __fsqrt_ru(fabsf(x)); fo[11] = __double2float_rz(double(x) / 3.0);
  int* io = i + 6 * t;
  io[0] = __float2int_rn(x * 7.5f); io[1] = __float2int_rz(x * 7.5f);
  io[2] = __float2int_ru(x * 7.5f); io[3] = __float2int_rd(x * 7.5f);
  io[4] = __float_as_int(x);        io[5] = int(__float2uint_rn(fabsf(x) * 3.5f));
  d[t] = __int_as_float(0x3f800000) + __longlong_as_double(0x4000000000000000LL) +
         __hiloint2double(__double2hiint(1.5), __double2loint(1.5));
}
)");
  const std::vector<float> a = {1.0f, -3.3f, 1e30f, 0.1f, 7.0f, -0.5f, 2.5f, 1e-20f};
  const std::vector<float> b = {3.0f, 0.7f, 3e-9f, 0.3f, -11.0f, 1e10f, -2.5f, 9e-21f};
  const unsigned n = static_cast<unsigned>(a.size());
  Buffer& ba = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& bf = h.buffer(std::vector<float>(12 * n));
  Buffer& bi = h.buffer(std::vector<int>(6 * n));
  Buffer& bd = h.buffer(std::vector<double>(n));
  h.run("k", Dim3{1, 1, 1}, Dim3{n, 1, 1}, ba, bb, bf, bi, bd);
  const auto f = h.read<float>(bf);
  const auto iv = h.read<int>(bi);
  const auto dv = h.read<double>(bd);
  for (unsigned t = 0; t < n; ++t) {
    SCOPED_TRACE(t);
    volatile float x = a[t], y = b[t];
    const float* fo = &f[12 * t];
    EXPECT_EQ(fo[0], rounded(FE_TOWARDZERO, [&] { return x + y; }));
    EXPECT_EQ(fo[1], rounded(FE_UPWARD, [&] { return x + y; }));
    EXPECT_EQ(fo[2], rounded(FE_DOWNWARD, [&] { return x + y; }));
    EXPECT_EQ(fo[3], rounded(FE_TOWARDZERO, [&] { return x * y; }));
    EXPECT_EQ(fo[4], rounded(FE_UPWARD, [&] { return x * y; }));
    EXPECT_EQ(fo[5], rounded(FE_DOWNWARD, [&] { return x / y; }));
    EXPECT_EQ(fo[6], rounded(FE_UPWARD, [&] { return x / y; }));
    EXPECT_EQ(fo[7], rounded(FE_TOWARDZERO, [&] { return x - y; }));
    EXPECT_EQ(fo[8], rounded(FE_TOWARDZERO, [&] { return std::fma(x, y, 1.0f); }));
    EXPECT_EQ(fo[9], rounded(FE_DOWNWARD, [&] { return 1.0f / y; }));
    EXPECT_EQ(fo[10], rounded(FE_UPWARD, [&] { return std::sqrt(std::fabs(x)); }));
    const volatile double third = static_cast<double>(a[t]) / 3.0;
    EXPECT_EQ(fo[11], rounded(FE_TOWARDZERO, [&] { return static_cast<float>(third); }));
    const float s = a[t] * 7.5f;
    const int* io = &iv[6 * t];
    if (std::fabs(s) < 2e9f) {
      EXPECT_EQ(io[0], static_cast<int>(std::nearbyint(s)));
      EXPECT_EQ(io[1], static_cast<int>(std::trunc(s)));
      EXPECT_EQ(io[2], static_cast<int>(std::ceil(s)));
      EXPECT_EQ(io[3], static_cast<int>(std::floor(s)));
    } else {
      EXPECT_EQ(io[0], 2147483647); // saturates, as cvt.rni.s32.f32 does
    }
    EXPECT_EQ(io[4], std::bit_cast<int>(a[t]));
    if (std::fabs(a[t]) * 3.5f < 4e9f) {
      EXPECT_EQ(static_cast<unsigned>(io[5]),
                static_cast<unsigned>(std::nearbyint(std::fabs(a[t]) * 3.5f)));
    }
    EXPECT_EQ(dv[t], 1.0 + 2.0 + 1.5);
  }
}

TEST(ClangIntrinsics, BuiltinVariablesInThreeDimensions) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(unsigned* out) {
  dim3 b = blockDim;
  uint3 t = threadIdx;
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned thread = t.x + b.x * (t.y + b.y * t.z);
  unsigned g = block * (b.x * b.y * b.z) + thread;
  out[2 * g] = (blockIdx.z << 24) | (blockIdx.y << 16) | (threadIdx.z << 8) | (threadIdx.y << 4) | threadIdx.x;
  out[2 * g + 1] = gridDim.x * 1000 + gridDim.y * 100 + gridDim.z * 10 + warpSize;
}
)");
  Buffer& out = h.buffer(std::vector<unsigned>(2 * 2 * 3 * 2 * 4 * 2 * 2));
  h.run("k", Dim3{2, 3, 2}, Dim3{4, 2, 2}, out);
  const auto v = h.read<unsigned>(out);
  unsigned g = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 3; ++by)
      for (unsigned bx = 0; bx < 2; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 2; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, ++g) {
              EXPECT_EQ(v[2 * g], (bz << 24) | (by << 16) | (tz << 8) | (ty << 4) | tx) << g;
              EXPECT_EQ(v[2 * g + 1], 2000u + 300u + 20u + 32u) << g;
            }
}

TEST(ClangIntrinsics, FastMathIntrinsicsAreTheApproxInstructions) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(const float* a, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  float* o = out + 8 * i;
  o[0] = __expf(x);   o[1] = __logf(x + 5.0f); o[2] = __sinf(x); o[3] = __cosf(x);
  o[4] = __powf(x + 5.0f, 1.5f); o[5] = __fdividef(x, 3.0f); o[6] = __saturatef(x);
  o[7] = rsqrtf(x + 5.0f);
}
)");
  for (const char* instr : {"ex2.approx.f32", "lg2.approx.f32", "sin.approx.f32", "cos.approx.f32",
                            "div.approx.f32", "rsqrt.approx.f32", "cvt.sat.f32"})
    EXPECT_NE(h.ptx().find(instr), std::string::npos) << instr;
  std::vector<float> a;
  for (int i = 0; i < 1000; ++i)
    a.push_back(-3.14f + 6.28f * static_cast<float>(i) / 999.0f);
  Buffer& in = h.buffer(a);
  Buffer& out = h.buffer(std::vector<float>(8 * a.size()));
  h.run("k", Dim3{4, 1, 1}, Dim3{256, 1, 1}, in, out, static_cast<int>(a.size()));
  const auto o = h.read<float>(out);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i];
    // CUDA's documented bounds for the intrinsics (C Programming Guide, "Intrinsic Functions").
    EXPECT_NEAR(o[8 * i + 0], std::exp(x), std::exp(x) * 0x1p-21 * (2 + std::fabs(1.173 * x)));
    EXPECT_NEAR(o[8 * i + 1], std::log(x + 5), 0x1p-21);
    EXPECT_NEAR(o[8 * i + 2], std::sin(x), 0x1p-21);
    EXPECT_NEAR(o[8 * i + 3], std::cos(x), 0x1p-21);
    EXPECT_NEAR(o[8 * i + 4], std::pow(x + 5, 1.5), std::pow(x + 5, 1.5) * 0x1p-19);
    EXPECT_NEAR(o[8 * i + 5], x / 3, std::fabs(x / 3) * 0x1p-22);
    EXPECT_EQ(o[8 * i + 6], std::clamp(a[i], 0.0f, 1.0f));
    EXPECT_NEAR(o[8 * i + 7], 1 / std::sqrt(x + 5), 1 / std::sqrt(x + 5) * 0x1p-22);
  }
}

} // namespace
} // namespace gpurun::test
