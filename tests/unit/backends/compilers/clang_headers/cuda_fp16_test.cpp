// __half and __nv_bfloat16 of gpurun's clang layer (cuda_fp16.h, cuda_bf16.h) on the CPU backend:
// conversions bit for bit against a reference rounding written here, and arithmetic against the
// exactly rounded result of the same operation (which the GPU's f16/bf16 instructions give).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

// Round-to-nearest-even of a double to binary16 / bfloat16 bits (NaN: the canonical 0x7fff).
std::uint16_t to_half(double v) {
  if (std::isnan(v))
    return 0x7fff;
  const std::uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  v = std::fabs(v);
  if (v >= 65520.0)
    return sign | 0x7c00;
  int e = 0;
  std::frexp(v, &e);                    // v = m * 2^e, m in [0.5, 1)
  const int exp = std::max(e - 1, -14); // unbiased exponent, subnormals share -14
  const double scaled = std::ldexp(v, 10 - exp);
  double q = std::nearbyint(scaled); // ties to even (default rounding mode)
  int biased = exp + 15;
  if (q >= 2048) {
    q /= 2;
    ++biased;
  }
  if (q < 1024)
    return sign | static_cast<std::uint16_t>(q); // subnormal
  if (biased >= 31)
    return sign | 0x7c00;
  return sign | static_cast<std::uint16_t>((biased << 10) | (static_cast<int>(q) - 1024));
}

double from_half(std::uint16_t h) {
  const int e = (h >> 10) & 31, m = h & 1023;
  const double s = h & 0x8000 ? -1 : 1;
  if (e == 31)
    return m ? NAN : s * INFINITY;
  return s * (e ? std::ldexp(1024 + m, e - 25) : std::ldexp(m, -24));
}

std::uint16_t to_bf16(double v) {
  // double → float exactly enough (round to odd), then the float's top 16 bits rounded to even.
  if (std::isnan(v))
    return 0x7fff;
  float f = static_cast<float>(v);
  std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if (static_cast<double>(f) != v && std::isfinite(f)) {
    // make the float the truncation of v with a sticky bit
    if (std::fabs(static_cast<double>(f)) > std::fabs(v))
      --u;
    u |= 1;
  }
  return static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

double from_bf16(std::uint16_t b) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

std::vector<std::uint16_t> half_values() {
  std::vector<std::uint16_t> v;
  for (unsigned bits = 0; bits < 0x10000; bits += 97)
    v.push_back(static_cast<std::uint16_t>(bits));
  for (std::uint16_t s : {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x3c00, 0x7bff, 0xfbff, 0x7c00,
                          0xfc00, 0x7e00, 0x3555, 0xc000})
    v.push_back(s);
  return v;
}

TEST(ClangHalf, ArithmeticMatchesOneRoundingOfTheExactResult) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cuda_fp16.h>
extern "C" __global__ void k(const __half* a, const __half* b, __half* out, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = a[i], y = b[i];
  out[6 * i + 0] = __hadd(x, y);
  out[6 * i + 1] = __hsub(x, y);
  out[6 * i + 2] = x * y;
  out[6 * i + 3] = __hdiv(x, y);
  out[6 * i + 4] = __hneg(x);
  out[6 * i + 5] = __hmax(x, y);
  f[i] = __half2float(x);
}
)");
  const auto a = half_values();
  std::vector<std::uint16_t> b;
  for (std::size_t i = 0; i < a.size(); ++i)
    b.push_back(a[(i * 131 + 17) % a.size()]);
  const int n = static_cast<int>(a.size());
  Buffer& ba = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& bo = h.buffer(std::vector<std::uint16_t>(6 * a.size()));
  Buffer& bf = h.buffer(std::vector<float>(a.size()));
  h.run("k", Dim3{static_cast<unsigned>((a.size() + 127) / 128), 1, 1}, Dim3{128, 1, 1}, ba, bb, bo,
        bf, n);
  const auto out = h.read<std::uint16_t>(bo);
  const auto f = h.read<float>(bf);
  std::size_t checked = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = from_half(a[i]), y = from_half(b[i]);
    if (std::isnan(x) || std::isnan(y))
      continue;
    SCOPED_TRACE(testing::Message() << std::hex << a[i] << " " << b[i]);
    // Sums and products of halves are exact in double; quotients are rounded twice, which is
    // harmless with 53 ≥ 2·11+2 bits.
    EXPECT_EQ(out[6 * i + 0], to_half(x + y));
    EXPECT_EQ(out[6 * i + 1], to_half(x - y));
    EXPECT_EQ(out[6 * i + 2], to_half(x * y));
    if (!(x == 0 && y == 0) && !(std::isinf(x) && std::isinf(y))) {
      EXPECT_EQ(out[6 * i + 3], to_half(x / y));
    }
    EXPECT_EQ(out[6 * i + 4], a[i] ^ 0x8000);
    EXPECT_EQ(from_half(out[6 * i + 5]), std::fmax(x, y));
    EXPECT_EQ(static_cast<double>(f[i]), x);
    ++checked;
  }
  EXPECT_GT(checked, 600u);
}

TEST(ClangHalf, ConversionsInEveryRoundingMode) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cuda_fp16.h>
extern "C" __global__ void k(const float* a, unsigned short* out, int* iout, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float x = a[i];
  out[6 * i + 0] = __half_as_ushort(__float2half(x));
  out[6 * i + 1] = __half_as_ushort(__float2half_rz(x));
  out[6 * i + 2] = __half_as_ushort(__float2half_rd(x));
  out[6 * i + 3] = __half_as_ushort(__float2half_ru(x));
  out[6 * i + 4] = __half_as_ushort(__double2half((double)x * (1.0 + 1e-12)));
  out[6 * i + 5] = __half_as_ushort(__int2half_rn(int(x * 1000.0f)));
  iout[2 * i] = __half2int_rz(__float2half(x));
  iout[2 * i + 1] = __hisinf(__float2half(x)) * 10 + __hisnan(__float2half(x));
}
)");
  const std::vector<float> a = {0.1f,    -0.1f,    1.0f, 65504.0f, 65520.0f,  1e-8f,      -3e-5f,
                                2049.0f, -2051.0f, 1e9f, NAN,      -INFINITY, 0.33325195f};
  const int n = static_cast<int>(a.size());
  Buffer& ba = h.buffer(a);
  Buffer& bo = h.buffer(std::vector<std::uint16_t>(6 * a.size()));
  Buffer& bi = h.buffer(std::vector<int>(2 * a.size()));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, ba, bo, bi, n);
  const auto out = h.read<std::uint16_t>(bo);
  const auto iv = h.read<int>(bi);
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(a[i]);
    const double x = a[i];
    const std::uint16_t rn = to_half(x);
    EXPECT_EQ(out[6 * i + 0], rn);
    if (std::isnan(x))
      continue;
    // The directed modes: the nearest half on the required side, found by looking at all.
    std::uint16_t rd = 0xfc00, ru = 0x7c00; // -inf, +inf
    for (unsigned bits = 0; bits < 0x10000; ++bits) {
      const double v = from_half(static_cast<std::uint16_t>(bits));
      if (std::isnan(v))
        continue;
      if (v <= x && (v > from_half(rd) || (v == from_half(rd) && v == 0 && !(bits & 0x8000))))
        rd = static_cast<std::uint16_t>(bits);
      if (v >= x && (v < from_half(ru) || (v == from_half(ru) && v == 0 && (bits & 0x8000))))
        ru = static_cast<std::uint16_t>(bits);
    }
    if (x == 0) // a signed zero rounds to itself
      rd = ru = rn;
    const std::uint16_t rz = x < 0 ? ru : rd;
    EXPECT_EQ(out[6 * i + 1], rz);
    EXPECT_EQ(out[6 * i + 2], rd);
    EXPECT_EQ(out[6 * i + 3], ru);
    EXPECT_EQ(out[6 * i + 4], to_half(x * (1.0 + 1e-12)));
    if (std::fabs(x) < 2e6) {
      EXPECT_EQ(out[6 * i + 5], to_half(static_cast<int>(a[i] * 1000.0f)));
    }
    if (std::fabs(from_half(rn)) < 2e9) {
      EXPECT_EQ(iv[2 * i], static_cast<int>(std::trunc(from_half(rn))));
    }
    EXPECT_EQ(iv[2 * i + 1], std::isinf(from_half(rn)) ? (x < 0 ? -10 : 10) : 0);
  }
}

TEST(ClangHalf, FmaPairsOperatorsAndAtomicAdd) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cuda_fp16.h>
extern "C" __global__ void k(__half* sum, float* out) {
  atomicAdd(&sum[1], __float2half(1.0f));
  atomicAdd(&sum[2], __float2half(0.5f));
  __half a = 1.5f, b = -2.0f, c = 0.25f;
  float shuffled = __half2float(__shfl_sync(0xffffffffu, a, 0));
  if (threadIdx.x != 0) return;
  out[0] = __half2float(__hfma(a, b, c));
  __half2 p = __floats2half2_rn(1.0f, 2.0f), q = make_half2(__float2half(3.0f), __float2half(4.0f));
  float2 r = __half22float2(__hmul2(p, q) + __hadd2(p, q));
  out[1] = r.x;
  out[2] = r.y;
  out[3] = (a < b) + 2 * (a > b) + 4 * (a == __half(1.5f)) + 8 * __hlt(c, a);
  __half d = a;
  d += c;
  d *= b;
  out[4] = float(d);
  out[5] = __low2float(__lowhigh2highlow(p));
  out[6] = shuffled;
}
)");
  Buffer& sum = h.buffer(std::vector<std::uint16_t>{0, 0, 0, 0});
  Buffer& out = h.buffer(std::vector<float>(7));
  h.run("k", Dim3{1, 1, 1}, Dim3{992, 1, 1}, sum, out);
  const auto s = h.read<std::uint16_t>(sum);
  EXPECT_EQ(s[0], 0u) << "the neighbouring half in the same word is untouched";
  EXPECT_EQ(from_half(s[1]), 992.0);
  EXPECT_EQ(from_half(s[2]), 496.0);
  EXPECT_EQ(s[3], 0u);
  EXPECT_EQ(h.read<float>(out),
            (std::vector<float>{-2.75f, 7.0f, 14.0f, 2 + 4 + 8, -3.5f, 2.0f, 1.5f}));
  EXPECT_NE(h.ptx().find("fma.rn.f16"), std::string::npos);
}

TEST(ClangBfloat16, ConversionsAndArithmetic) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cuda_bf16.h>
extern "C" __global__ void k(const float* a, const float* b, unsigned short* out, float* f,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x = __float2bfloat16(a[i]), y = __float2bfloat16_rn(b[i]);
  out[6 * i + 0] = __bfloat16_as_ushort(x);
  out[6 * i + 1] = __bfloat16_as_ushort(__hadd(x, y));
  out[6 * i + 2] = __bfloat16_as_ushort(x * y);
  out[6 * i + 3] = __bfloat16_as_ushort(__hdiv(x, y));
  out[6 * i + 4] = __bfloat16_as_ushort(__float2bfloat16_rz(a[i]));
  out[6 * i + 5] = __bfloat16_as_ushort(__double2bfloat16((double)a[i] + 1e-30));
  f[i] = __bfloat162float(x);
}
)");
  std::vector<float> a, b;
  std::uint64_t state = 12345;
  for (int i = 0; i < 2000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    a.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(state >> 32) & 0xbfffffffu));
    b.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(state) & 0xbfffffffu));
  }
  a.push_back(NAN);
  b.push_back(1.0f);
  const int n = static_cast<int>(a.size());
  Buffer& ba = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& bo = h.buffer(std::vector<std::uint16_t>(6 * a.size()));
  Buffer& bf = h.buffer(std::vector<float>(a.size()));
  h.run("k", Dim3{static_cast<unsigned>((a.size() + 255) / 256), 1, 1}, Dim3{256, 1, 1}, ba, bb, bo,
        bf, n);
  const auto out = h.read<std::uint16_t>(bo);
  const auto f = h.read<float>(bf);
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE(a[i]);
    const std::uint16_t xb = to_bf16(a[i]), yb = to_bf16(b[i]);
    EXPECT_EQ(out[6 * i + 0], xb);
    if (std::isnan(a[i]))
      continue;
    const double x = from_bf16(xb), y = from_bf16(yb);
    EXPECT_EQ(out[6 * i + 1], to_bf16(x + y));
    EXPECT_EQ(out[6 * i + 2], to_bf16(x * y));
    EXPECT_EQ(out[6 * i + 3], to_bf16(x / y));
    EXPECT_EQ(out[6 * i + 4], std::bit_cast<std::uint32_t>(a[i]) >> 16);
    EXPECT_EQ(out[6 * i + 5], to_bf16(static_cast<double>(a[i]) + 1e-30));
    EXPECT_EQ(static_cast<double>(f[i]), x);
  }
}

} // namespace
} // namespace gpurun::test
