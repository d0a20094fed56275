// Warp intrinsics of gpurun's clang layer (__gpurun_warp.h) on the CPU backend: shuffles with
// CUDA's width semantics, 64-bit and double shuffles, votes under divergence, match and reduce.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

TEST(ClangWarp, ShufflesFollowCudaWidthSemantics) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(int* idx, int* up, int* down, int* bfly, int* seg) {
  int t = threadIdx.x;
  idx[t] = __shfl_sync(0xffffffffu, t * 10, 3);
  up[t] = __shfl_up_sync(0xffffffffu, t, 2);
  down[t] = __shfl_down_sync(0xffffffffu, t, 5);
  bfly[t] = __shfl_xor_sync(0xffffffffu, t, 1);
  seg[t] = __shfl_down_sync(0xffffffffu, t, 3, 8);  // within segments of 8 lanes
}
)");
  std::vector<Buffer*> b;
  for (int i = 0; i < 5; ++i)
    b.push_back(&h.buffer(std::vector<int>(32)));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, *b[0], *b[1], *b[2], *b[3], *b[4]);
  const auto idx = h.read<int>(*b[0]), up = h.read<int>(*b[1]), down = h.read<int>(*b[2]),
             bfly = h.read<int>(*b[3]), seg = h.read<int>(*b[4]);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(idx[t], 30) << t;
    EXPECT_EQ(up[t], t < 2 ? t : t - 2) << t;        // lanes below delta keep their value
    EXPECT_EQ(down[t], t + 5 < 32 ? t + 5 : t) << t; // lanes past the end keep theirs
    EXPECT_EQ(bfly[t], t ^ 1) << t;
    EXPECT_EQ(seg[t], t % 8 + 3 < 8 ? t + 3 : t) << t; // never crosses a segment
  }
}

TEST(ClangWarp, SixtyFourBitAndFloatShuffles) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(long long* l, unsigned long long* u, double* d, float* f) {
  int t = threadIdx.x;
  l[t] = __shfl_xor_sync(0xffffffffu, -(1LL << 40) - t, 16);
  u[t] = __shfl_sync(0xffffffffu, 0x0123456789abcdefULL + t, 31);
  d[t] = __shfl_down_sync(0xffffffffu, 1.0 / (t + 1), 1);
  f[t] = __shfl_up_sync(0xffffffffu, t + 0.5f, 1);
}
)");
  Buffer& l = h.buffer(std::vector<long long>(32));
  Buffer& u = h.buffer(std::vector<unsigned long long>(32));
  Buffer& d = h.buffer(std::vector<double>(32));
  Buffer& f = h.buffer(std::vector<float>(32));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, l, u, d, f);
  const auto lv = h.read<long long>(l);
  const auto uv = h.read<unsigned long long>(u);
  const auto dv = h.read<double>(d);
  const auto fv = h.read<float>(f);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(lv[t], -(1LL << 40) - (t ^ 16)) << t;
    EXPECT_EQ(uv[t], 0x0123456789abcdefULL + 31) << t;
    EXPECT_EQ(dv[t], 1.0 / ((t < 31 ? t + 1 : t) + 1)) << t;
    EXPECT_EQ(fv[t], (t == 0 ? 0 : t - 1) + 0.5f) << t;
  }
}

TEST(ClangWarp, VotesOverTheActiveLanes) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(unsigned* ballot, int* all, int* any, unsigned* active) {
  int t = threadIdx.x;
  ballot[t] = __ballot_sync(0xffffffffu, t % 3 == 0);
  all[t] = __all_sync(0xffffffffu, t < 32) + 2 * __all_sync(0xffffffffu, t < 31);
  any[t] = __any_sync(0xffffffffu, t == 17) + 2 * __any_sync(0xffffffffu, t > 40);
  if (t % 4 == 1)
    active[t] = __activemask();
  else
    active[t] = 0;
}
)");
  Buffer& ballot = h.buffer(std::vector<unsigned>(32));
  Buffer& all = h.buffer(std::vector<int>(32));
  Buffer& any = h.buffer(std::vector<int>(32));
  Buffer& active = h.buffer(std::vector<unsigned>(32));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, ballot, all, any, active);
  unsigned expected_ballot = 0;
  for (int t = 0; t < 32; t += 3)
    expected_ballot |= 1u << t;
  const auto bv = h.read<unsigned>(ballot);
  const auto av = h.read<int>(all);
  const auto nv = h.read<int>(any);
  const auto mv = h.read<unsigned>(active);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(bv[t], expected_ballot);
    EXPECT_EQ(av[t], 1);
    EXPECT_EQ(nv[t], 1);
    EXPECT_EQ(mv[t], t % 4 == 1 ? 0x22222222u : 0u) << t;
  }
}

TEST(ClangWarp, MatchAndReduce) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(unsigned* match, int* all_pred, unsigned* all_mask, int* sum,
                             unsigned* mx) {
  int t = threadIdx.x;
  match[t] = __match_any_sync(0xffffffffu, t / 8);
  int pred = 0;
  all_mask[t] = __match_all_sync(0xffffffffu, 5, &pred);
  all_pred[t] = pred;
  sum[t] = __reduce_add_sync(0xffffffffu, t);
  mx[t] = __reduce_max_sync(0xffffffffu, unsigned(t * 7 % 32));
}
)");
  Buffer& match = h.buffer(std::vector<unsigned>(32));
  Buffer& pred = h.buffer(std::vector<int>(32));
  Buffer& mask = h.buffer(std::vector<unsigned>(32));
  Buffer& sum = h.buffer(std::vector<int>(32));
  Buffer& mx = h.buffer(std::vector<unsigned>(32));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, match, pred, mask, sum, mx);
  const auto m = h.read<unsigned>(match);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(m[t], 0xffu << (t / 8 * 8)) << t;
    EXPECT_EQ(h.read<int>(pred)[t], 1);
    EXPECT_EQ(h.read<unsigned>(mask)[t], 0xffffffffu);
    EXPECT_EQ(h.read<int>(sum)[t], 496);
    EXPECT_EQ(h.read<unsigned>(mx)[t], 31u);
  }
}

TEST(ClangWarp, SyncwarpAndBlockBarriersWithPredicates) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  __syncwarp();
  __syncthreads();
  int count = __syncthreads_count(t % 5 == 0);
  int all = __syncthreads_and(t < 64);
  int any = __syncthreads_or(t == 63);
  int none = __syncthreads_or(t > 64);
  out[t] = s[63 - t] * 1000 + count * 10 + all * 4 + any * 2 + none;
  __threadfence_block();
  __threadfence();
  __threadfence_system();
}
)");
  Buffer& out = h.buffer(std::vector<int>(64));
  h.run("k", Dim3{1, 1, 1}, Dim3{64, 1, 1}, out);
  const auto v = h.read<int>(out);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], (63 - t) * 1000 + 13 * 10 + 4 + 2) << t;
}

} // namespace
} // namespace gpurun::test
