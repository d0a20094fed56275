// The group collectives of gpurun's clang layer on the CPU backend: cooperative_groups::reduce
// (cooperative_groups/reduce.h), inclusive_scan and exclusive_scan (cooperative_groups/scan.h) in
// the GPU's order of operations, so float results are the GPU's bits, NaNs and signed zeros
// included; and memcpy_async with wait and wait_prior (cooperative_groups/memcpy_async.h). The
// Nvrtc suite compares every output with NVRTC's on the same kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "unit/backends/compilers/clang_headers/cooperative_groups_harness.hpp"

namespace gpurun::test {
namespace {

using namespace coop;

constexpr const char* reduce_source = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

struct SumMax {
  float sum;
  float max;
};
__device__ SumMax sum_max(SumMax a, SumMax b) {
  return {a.sum + b.sum, a.max < b.max ? b.max : a.max};
}

extern "C" __global__ void reductions(float* f, int* i, double* d, const float* v) {
  cg::thread_block block = cg::this_thread_block();
  auto w = cg::tiled_partition<32>(block);
  auto t16 = cg::tiled_partition<16>(block);
  auto t8 = cg::tiled_partition<8>(block);
  auto t4 = cg::tiled_partition<4>(block);
  const int t = threadIdx.x;
  const float x = v[t];
  f[t] = cg::reduce(w, x, cg::plus<float>());
  f[64 + t] = cg::reduce(t8, x, cg::less<float>());
  f[128 + t] = cg::reduce(t16, x, cg::greater<float>());
  f[192 + t] = cg::inclusive_scan(w, x, cg::plus<float>());
  f[256 + t] = cg::exclusive_scan(t8, x, cg::plus<float>());
  f[320 + t] = cg::inclusive_scan(t4, x, cg::less<float>());
  const SumMax sm = cg::reduce(w, SumMax{x, x}, sum_max);
  f[384 + t] = sm.sum;
  f[448 + t] = sm.max;
  f[512 + t] = cg::reduce(t4, x, [](float a, float b) { return a * 0.5f + b; });
  i[t] = cg::reduce(w, t * 7 - 100, cg::plus<int>());
  i[64 + t] = cg::reduce(t16, (t * 37) % 23 - 11, cg::less<int>());
  i[128 + t] = cg::reduce(t16, (t * 37) % 23 - 11, cg::greater<int>());
  i[192 + t] = cg::reduce(t4, 0xff00u | (1u << (t % 8)), cg::bit_and<unsigned>());
  i[256 + t] = cg::reduce(t4, 1u << (t % 8), cg::bit_or<unsigned>());
  i[320 + t] = cg::reduce(t8, t * 3, cg::bit_xor<int>());
  i[384 + t] = cg::inclusive_scan(t8, t);
  i[448 + t] = cg::exclusive_scan(t8, t);
  i[512 + t] = cg::exclusive_scan(t16, (t * 37) % 23, cg::less<int>());
  i[576 + t] =
      static_cast<int>(cg::reduce(t8, static_cast<long long>(t) << 33, cg::plus<long long>()) >> 33);
  d[t] = cg::reduce(w, 1.0 / (t + 1), cg::plus<double>());
}
)";

// Ties of signed zeros, NaNs and magnitudes far apart: any other order of operations shows.
std::vector<float> reduce_inputs() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return {1e-3f,  -0.0f,  0.0f,  -0.0f, 3,     nan,  2,     -1,   0.0f, -0.0f, 5,    6,     1e8f,
          -1e8f,  1,      1e-8f, 0.1f,  0.2f,  0.3f, -0.0f, 0.0f, 7,    8,     9,    1e-7f, 2e-7f,
          -3e-7f, 4,      5,     6,     7,     8,    1,     2,    3,    4,     nan,  nan,   0.0f,
          -0.0f,  1e-5f,  1e5f,  -1e5f, 1e-5f, 3.3f, 4.4f,  5.5f, 6.6f, 7.7f,  8.8f, 9.9f,  0.5f,
          0.25f,  0.125f, -0.0f, 0.0f,  1,     1,    1,     1,    2,    3,     5,    8};
}

constexpr const char* memcpy_source = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

// 128 threads: whole-block copies of words, of elements (the smaller count) and of unaligned
// bytes, then one copy per warp.
extern "C" __global__ void copies(float* out, const float* in, const unsigned char* bytes) {
  __shared__ float s[256];
  __shared__ float u[64];
  __shared__ unsigned char c[64];
  __shared__ float w[4][32];
  cg::thread_block block = cg::this_thread_block();
  for (int i = block.thread_rank(); i < 256; i += block.size())
    s[i] = -1;
  for (int i = block.thread_rank(); i < 64; i += block.size()) {
    u[i] = -2;
    c[i] = 0;
  }
  block.sync();
  cg::memcpy_async(block, s, in, sizeof(float) * 200);
  cg::memcpy_async(block, u, 40, in + 200, 50);
  cg::memcpy_async(block, c, bytes + 1, 37);
  cg::wait(block);
  auto tile = cg::tiled_partition<32>(block);
  cg::memcpy_async(tile, w[tile.meta_group_rank()], in + 32 * tile.meta_group_rank(), 128);
  cg::wait_prior<0>(tile);
  for (int i = block.thread_rank(); i < 256; i += block.size())
    out[i] = s[i];
  for (int i = block.thread_rank(); i < 64; i += block.size()) {
    out[256 + i] = u[i];
    out[320 + i] = c[i];
  }
  out[384 + block.thread_rank()] = w[tile.meta_group_rank()][tile.thread_rank()];
}
)";

std::vector<float> copy_inputs() {
  std::vector<float> in(256);
  for (int i = 0; i < 256; ++i)
    in[i] = 0.5f * static_cast<float>(i) - 7.0f;
  return in;
}

std::vector<std::uint8_t> copy_bytes() {
  std::vector<std::uint8_t> bytes(64);
  for (int i = 0; i < 64; ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
  return bytes;
}

std::vector<Bytes> run_reductions(EmuHarness& h) {
  Buffer& f = h.buffer(std::vector<float>(576));
  Buffer& i = h.buffer(std::vector<int>(640));
  Buffer& d = h.buffer(std::vector<double>(64));
  Buffer& v = h.buffer(reduce_inputs());
  h.run("reductions", Dim3{1, 1, 1}, Dim3{64, 1, 1}, f, i, d, v);
  return {h.read<std::uint8_t>(f), h.read<std::uint8_t>(i), h.read<std::uint8_t>(d)};
}

std::vector<Bytes> run_copies(EmuHarness& h) {
  Buffer& out = h.buffer(std::vector<float>(512));
  Buffer& in = h.buffer(copy_inputs());
  Buffer& bytes = h.buffer(copy_bytes());
  h.run("copies", Dim3{1, 1, 1}, Dim3{128, 1, 1}, out, in, bytes);
  return {h.read<std::uint8_t>(out)};
}

TEST(ClangCooperativeGroups, ReductionsAndScansInTheGpusOrder) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(reduce_source);
  const auto outputs = run_reductions(h);
  const auto f = decode<float>(outputs[0]);
  const auto i = decode<int>(outputs[1]);
  const auto d = decode<double>(outputs[2]);
  const auto v = reduce_inputs();
  std::vector<int> t7(64), mod23(64), t3(64), iota(64);
  std::vector<double> recip(64);
  for (int t = 0; t < 64; ++t) {
    t7[t] = t * 7 - 100;
    mod23[t] = (t * 37) % 23;
    t3[t] = t * 3;
    iota[t] = t;
    recip[t] = 1.0 / (t + 1);
  }
  const auto plus_exclusive = [](const std::vector<float>& in) {
    std::vector<float> out(in.size(), 0.0f);
    for (std::size_t k = 0; k < in.size(); ++k)
      if (k % 8 != 0)
        out[k] = in[k - 1];
    return out;
  };
  const std::vector<std::vector<float>> expected_f = {
      butterfly(v, 32, fplus),
      butterfly(v, 8, fless),
      butterfly(v, 16, fgreater),
      scan(v, 32, fplus),
      plus_exclusive(scan(v, 8, fplus)),
      scan(v, 4, fless),
      butterfly(v, 32, fplus),
      butterfly(v, 32, fgreater),
      butterfly(v, 4, [](float a, float b) { return gpu_nan(a * 0.5f + b); })};
  const auto iplus = std::plus<int>();
  const auto imin = [](int a, int b) { return std::min(a, b); };
  const auto imax = [](int a, int b) { return std::max(a, b); };
  std::vector<int> min16(64), max16(64), or4(64), excl8(64), min_excl(64);
  const auto incl8 = scan(iota, 8, iplus);
  const auto min_incl = scan(mod23, 16, imin);
  for (int t = 0; t < 64; ++t) {
    min16[t] = butterfly(mod23, 16, imin)[t] - 11;
    max16[t] = butterfly(mod23, 16, imax)[t] - 11;
    or4[t] = 0;
    for (int k = t / 4 * 4; k < t / 4 * 4 + 4; ++k)
      or4[t] |= 1 << (k % 8);
    excl8[t] = t % 8 == 0 ? 0 : incl8[t - 1];
    min_excl[t] = t % 16 == 0 ? 0 : min_incl[t - 1];
  }
  const std::vector<std::vector<int>> expected_i = {
      butterfly(t7, 32, iplus),
      min16,
      max16,
      std::vector<int>(64, 0xff00),
      or4,
      butterfly(t3, 8, [](int a, int b) { return a ^ b; }),
      incl8,
      excl8,
      min_excl,
      butterfly(iota, 8, iplus)};
  for (int t = 0; t < 64; ++t) {
    for (std::size_t k = 0; k < expected_f.size(); ++k)
      EXPECT_EQ(bits(f[k * 64 + t]), bits(expected_f[k][t])) << "float " << k << ", thread " << t;
    for (std::size_t k = 0; k < expected_i.size(); ++k)
      EXPECT_EQ(i[k * 64 + t], expected_i[k][t]) << "int " << k << ", thread " << t;
    EXPECT_EQ(d[t], butterfly(recip, 32, std::plus<double>())[t]) << t;
  }
  // The order shows on these inputs: less keeps a NaN only where it is the thread's own value
  // (lane 5 of the first tile of 8), and a tie of +0 with -0 keeps the thread's own zero.
  EXPECT_TRUE(f[64 + 5] != f[64 + 5]);
  EXPECT_EQ(f[64 + 0], -1.0f);
  EXPECT_EQ(bits(f[320 + 2]), bits(0.0f));
  EXPECT_EQ(bits(f[320 + 1]), bits(-0.0f));
}

TEST(ClangCooperativeGroups, MemcpyAsyncHasCopiedAfterWait) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(memcpy_source);
  const auto out = decode<float>(run_copies(h)[0]);
  const auto in = copy_inputs();
  const auto bytes = copy_bytes();
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[i], i < 200 ? in[i] : -1.0f) << i;
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(out[256 + i], i < 40 ? in[200 + i] : -2.0f) << i;
    EXPECT_EQ(out[320 + i], i < 37 ? static_cast<float>(bytes[1 + i]) : 0.0f) << i;
  }
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(out[384 + t], in[t]) << t;
}

TEST(ClangCooperativeGroupsNvrtc, CollectivesGiveNvrtcsBits) {
  GPURUN_SKIP_WITHOUT_CLANG();
  GPURUN_SKIP_WITHOUT_NVRTC();
  expect_nvrtcs_bits(reduce_source, run_reductions, "reductions");
  expect_nvrtcs_bits(memcpy_source, run_copies, "copies");
}

} // namespace
} // namespace gpurun::test
