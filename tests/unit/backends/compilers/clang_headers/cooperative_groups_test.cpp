// Cooperative groups of gpurun's clang layer (cooperative_groups.h) on the CPU backend: blocks,
// the grid, tiles of every size, nested and dynamic partitions, and coalesced groups (their
// reduce and scans included). The Nvrtc suite runs the same kernels compiled by NVRTC with CUDA's
// own headers and compares every output bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "unit/backends/compilers/clang_headers/cooperative_groups_harness.hpp"

namespace gpurun::test {
namespace {

using namespace coop;

// ---- the kernels, compiled alike by clang and NVRTC

constexpr const char* groups_source = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void block_grid(unsigned long long* out) {
  cg::thread_block b = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  unsigned long long* o = out + grid.thread_rank() * 20;
  o[0] = b.thread_rank();
  o[1] = b.num_threads();
  o[2] = b.size();
  o[3] = b.group_index().x + 10 * b.group_index().y + 100 * b.group_index().z;
  o[4] = b.thread_index().x + 10 * b.thread_index().y + 100 * b.thread_index().z;
  o[5] = b.dim_threads().x + 10 * b.dim_threads().y + 100 * b.dim_threads().z;
  o[6] = b.group_dim().x + 10 * b.group_dim().y + 100 * b.group_dim().z;
  o[7] = grid.thread_rank();
  o[8] = grid.num_threads();
  o[9] = grid.size();
  o[10] = grid.block_rank();
  o[11] = grid.num_blocks();
  o[12] = grid.dim_blocks().x + 10 * grid.dim_blocks().y + 100 * grid.dim_blocks().z;
  o[13] = grid.block_index().x + 10 * grid.block_index().y + 100 * grid.block_index().z;
  cg::thread_group g = b;
  o[14] = g.thread_rank();
  o[15] = g.size();
  o[16] = cg::thread_rank(b);
  o[17] = cg::group_size(b);
  o[18] = cg::group_size(grid);
  b.sync();
  cg::sync(b);
}

template <unsigned N, class Tile> __device__ void facts(const Tile& g, int* o) {
  const int t = threadIdx.x;
  o[0] = g.thread_rank();
  o[1] = g.size();
  o[2] = g.num_threads();
  o[3] = g.meta_group_rank();
  o[4] = g.meta_group_size();
  o[5] = g.shfl(t * 10, 1 % N);
  o[6] = g.shfl_up(t, 1);
  o[7] = g.shfl_down(t, 1);
  o[8] = g.shfl_xor(t, N / 2);
  o[9] = g.ballot(t % 3 == 0);
  o[10] = g.any(t == 5);
  o[11] = g.all(t < 60);
  o[12] = g.match_any(t / 2);
  int pred = 0;
  o[13] = g.match_all(7, pred);
  o[14] = pred;
  o[15] = static_cast<int>(g.shfl(1.5 * t, N - 1));
  g.sync();
}

// 64 threads; seven slots of 64 x 16 ints: tiles of 1 … 32, then tiles of 4 of tiles of 16.
extern "C" __global__ void tiles(int* out) {
  cg::thread_block block = cg::this_thread_block();
  int* o = out + threadIdx.x * 16;
  facts<1>(cg::tiled_partition<1>(block), o);
  facts<2>(cg::tiled_partition<2>(block), o + 64 * 16);
  facts<4>(cg::tiled_partition<4>(block), o + 2 * 64 * 16);
  facts<8>(cg::tiled_partition<8>(block), o + 3 * 64 * 16);
  facts<16>(cg::tiled_partition<16>(block), o + 4 * 64 * 16);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  facts<32>(warp, o + 5 * 64 * 16);
  facts<4>(cg::tiled_partition<4>(cg::tiled_partition<16>(block)), o + 6 * 64 * 16);
}

// 48 threads: the second warp is half full.
extern "C" __global__ void partial(int* out) {
  cg::thread_block block = cg::this_thread_block();
  auto w = cg::tiled_partition<32>(block);
  auto h = cg::tiled_partition<16>(block);
  int* o = out + block.thread_rank() * 8;
  o[0] = w.thread_rank();
  o[1] = w.meta_group_rank();
  o[2] = w.meta_group_size();
  o[3] = h.meta_group_rank();
  o[4] = h.meta_group_size();
  cg::thread_group d = cg::tiled_partition(block, 8);
  o[5] = d.thread_rank();
  o[6] = d.size();
  cg::thread_group e = cg::tiled_partition(cg::tiled_partition(block, 16), 4);
  o[7] = e.thread_rank() * 100 + e.size();
}
)";

constexpr const char* coalesced_source = R"(
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

// 64 threads; the ones with t % 3 != 1 form a coalesced group in each warp (21 and 22 lanes).
extern "C" __global__ void coalesced(int* out, float* f) {
  const int t = threadIdx.x;
  int* o = out + t * 20;
  for (int i = 0; i < 20; ++i)
    o[i] = -1;
  if (t % 3 != 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = g.thread_rank();
    o[1] = g.size();
    o[2] = g.num_threads();
    o[3] = g.shfl(t, 0);
    o[4] = g.shfl(t, g.size() - 1);
    o[5] = g.shfl_up(t, 1);
    o[6] = g.shfl_down(t, 2);
    o[7] = g.ballot(t % 2 == 0);
    o[8] = g.any(t == 4);
    o[9] = g.all(t != 4);
    o[10] = g.meta_group_rank();
    o[11] = g.meta_group_size();
    cg::coalesced_group q = cg::tiled_partition(g, 4);
    o[12] = q.thread_rank();
    o[13] = q.num_threads();
    o[14] = q.meta_group_rank();
    o[15] = q.meta_group_size();
    o[16] = cg::reduce(g, t * 3 - 50, cg::plus<int>());
    o[17] = cg::inclusive_scan(g, t);
    o[18] = cg::exclusive_scan(g, t);
    o[19] = q.shfl(t, 0);
    f[t] = cg::reduce(g, 1.0f / (t + 1), cg::plus<float>());
    f[t + 64] = cg::inclusive_scan(g, 1.0f / (t + 3), cg::plus<float>());
    g.sync();
  }
}
)";

// ---- running them: each returns its output buffers' bytes

std::vector<Bytes> run_block_grid(EmuHarness& h) {
  Buffer& out = h.buffer(std::vector<std::uint64_t>(96 * 20));
  h.run("block_grid", Dim3{2, 3, 1}, Dim3{4, 2, 2}, out);
  return {h.read<std::uint8_t>(out)};
}

std::vector<Bytes> run_tiles(EmuHarness& h) {
  Buffer& out = h.buffer(std::vector<int>(7 * 64 * 16));
  h.run("tiles", Dim3{1, 1, 1}, Dim3{64, 1, 1}, out);
  return {h.read<std::uint8_t>(out)};
}

std::vector<Bytes> run_partial(EmuHarness& h) {
  Buffer& out = h.buffer(std::vector<int>(48 * 8));
  h.run("partial", Dim3{1, 1, 1}, Dim3{48, 1, 1}, out);
  return {h.read<std::uint8_t>(out)};
}

std::vector<Bytes> run_coalesced(EmuHarness& h) {
  Buffer& out = h.buffer(std::vector<int>(64 * 20));
  Buffer& f = h.buffer(std::vector<float>(128));
  h.run("coalesced", Dim3{1, 1, 1}, Dim3{64, 1, 1}, out, f);
  return {h.read<std::uint8_t>(out), h.read<std::uint8_t>(f)};
}

// ---- what the clang layer gives

TEST(ClangCooperativeGroups, ThreadBlockAndGrid) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(groups_source);
  const auto out = decode<std::uint64_t>(run_block_grid(h)[0]);
  const unsigned bz = 0; // the grid is 2 x 3 x 1 blocks of 4 x 2 x 2 threads
  for (unsigned bx = 0; bx < 2; ++bx)
    for (unsigned by = 0; by < 3; ++by)
      for (unsigned tz = 0; tz < 2; ++tz)
        for (unsigned ty = 0; ty < 2; ++ty)
          for (unsigned tx = 0; tx < 4; ++tx) {
            const unsigned block = bx + by * 2, t = tx + ty * 4 + tz * 8, rank = block * 16 + t;
            const std::uint64_t* o = &out[rank * 20];
            const std::vector<std::uint64_t> expected = {t,
                                                         16,
                                                         16,
                                                         bx + 10 * by + 100 * bz,
                                                         tx + 10 * ty + 100 * tz,
                                                         224,
                                                         224,
                                                         rank,
                                                         96,
                                                         96,
                                                         block,
                                                         6,
                                                         132,
                                                         bx + 10 * by,
                                                         t,
                                                         16,
                                                         t,
                                                         16,
                                                         96};
            for (std::size_t i = 0; i < expected.size(); ++i)
              EXPECT_EQ(o[i], expected[i]) << "thread " << rank << " field " << i;
          }
}

TEST(ClangCooperativeGroups, TilesOfEverySizeAndNested) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(groups_source);
  const auto out = decode<int>(run_tiles(h)[0]);
  const unsigned sizes[] = {1, 2, 4, 8, 16, 32, 4};
  for (int slot = 0; slot < 7; ++slot) {
    const int n = static_cast<int>(sizes[slot]);
    const bool nested = slot == 6;
    for (int t = 0; t < 64; ++t) {
      const int rank = t % n, base = t - rank;
      unsigned ballot = 0, match = 0;
      for (int r = 0; r < n; ++r) {
        ballot |= ((base + r) % 3 == 0 ? 1u : 0u) << r;
        match |= ((base + r) / 2 == t / 2 ? 1u : 0u) << r;
      }
      const std::vector<int> expected = {rank,
                                         n,
                                         n,
                                         nested ? t % 16 / 4 : t / n,
                                         nested ? 4 : 64 / n,
                                         (base + 1 % n) * 10,
                                         rank >= 1 ? t - 1 : t,
                                         rank + 1 < n ? t + 1 : t,
                                         t ^ (n / 2),
                                         static_cast<int>(ballot),
                                         base <= 5 && 5 < base + n,
                                         base + n - 1 < 60,
                                         static_cast<int>(match),
                                         n == 32 ? -1 : (1 << n) - 1,
                                         1,
                                         static_cast<int>(1.5 * (base + n - 1))};
      for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(out[(slot * 64 + t) * 16 + i], expected[i])
            << "tile of " << n << (nested ? " (nested)" : "") << ", thread " << t << ", field "
            << i;
    }
  }
}

TEST(ClangCooperativeGroups, PartialWarpAndDynamicPartitions) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(groups_source);
  const auto out = decode<int>(run_partial(h)[0]);
  for (int t = 0; t < 48; ++t) {
    // meta_group_size counts the half-full tile at the end of the block.
    const std::vector<int> expected = {t % 32, t / 32, 2, t / 16, 3, t % 8, 8, t % 4 * 100 + 4};
    for (std::size_t i = 0; i < expected.size(); ++i)
      EXPECT_EQ(out[t * 8 + i], expected[i]) << "thread " << t << ", field " << i;
  }
}

TEST(ClangCooperativeGroups, BarriersOfEveryKindOfGroup) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void k(int* out) {
  __shared__ int s[64];
  cg::thread_block block = cg::this_thread_block();
  const int t = block.thread_rank();
  s[t] = t;
  cg::thread_group g = block;
  g.sync();
  out[t] = s[63 - t];
  block.sync();
  cg::thread_group d = cg::tiled_partition(block, 8);
  s[t] = 2 * t;
  d.sync();
  out[64 + t] = s[t ^ 7];
  auto tile = cg::tiled_partition<16>(block);
  tile.sync();
  s[t] = 3 * t;
  cg::sync(tile);
  out[128 + t] = s[t ^ 15];
}
)");
  Buffer& out = h.buffer(std::vector<int>(192));
  h.run("k", Dim3{1, 1, 1}, Dim3{64, 1, 1}, out);
  const auto v = h.read<int>(out);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(v[t], 63 - t) << t;
    EXPECT_EQ(v[64 + t], 2 * (t ^ 7)) << t;
    EXPECT_EQ(v[128 + t], 3 * (t ^ 15)) << t;
  }
}

TEST(ClangCooperativeGroups, CoalescedThreadsRankInLaneOrder) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(coalesced_source);
  const auto outputs = run_coalesced(h);
  const auto out = decode<int>(outputs[0]);
  const auto f = decode<float>(outputs[1]);
  for (int warp = 0; warp < 2; ++warp) {
    std::vector<int> m; // the members, in lane order
    for (int t = warp * 32; t < warp * 32 + 32; ++t)
      if (t % 3 != 1)
        m.push_back(t);
    const int size = static_cast<int>(m.size());
    std::vector<float> reduce_in, scan_in;
    for (int t : m) {
      reduce_in.push_back(1.0f / static_cast<float>(t + 1));
      scan_in.push_back(1.0f / static_cast<float>(t + 3));
    }
    // A partial group reduces by an inclusive scan and takes the last rank's value.
    const float reduced = scan(reduce_in, size, fplus).back();
    const auto scanned = scan(scan_in, size, fplus);
    unsigned ballot = 0;
    for (int r = 0; r < size; ++r)
      ballot |= (m[r] % 2 == 0 ? 1u : 0u) << r;
    int sum = 0;
    for (int t : m)
      sum += t * 3 - 50;
    for (int r = 0; r < size; ++r) {
      const int t = m[r];
      int prefix = 0;
      for (int s = 0; s < r; ++s)
        prefix += m[s];
      const bool has4 = std::find(m.begin(), m.end(), 4) != m.end();
      const std::vector<int> expected = {r,
                                         size,
                                         size,
                                         m[0],
                                         m[size - 1],
                                         r >= 1 ? m[r - 1] : t,
                                         r + 2 < size ? m[r + 2] : t,
                                         static_cast<int>(ballot),
                                         has4,
                                         !has4,
                                         0,
                                         1,
                                         r % 4,
                                         std::min(4, size - r / 4 * 4),
                                         r / 4,
                                         (size + 3) / 4,
                                         sum,
                                         prefix + t,
                                         prefix,
                                         m[r / 4 * 4]};
      for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_EQ(out[t * 20 + i], expected[i]) << "thread " << t << ", field " << i;
      EXPECT_EQ(bits(f[t]), bits(reduced)) << t;
      EXPECT_EQ(bits(f[64 + t]), bits(scanned[r])) << t;
    }
  }
  for (int t = 1; t < 64; t += 3)
    EXPECT_EQ(out[t * 20], -1) << "not a member: " << t;
}

TEST(ClangCooperativeGroups, GridSyncStopsTheKernelUnlessItChecksIsValid) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void checked(int* out) {
  cg::grid_group grid = cg::this_grid();
  if (grid.is_valid())
    grid.sync();
  out[grid.thread_rank()] = 1 + grid.is_valid();
}
extern "C" __global__ void unchecked(int* out) {
  cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = 1;
  grid.sync();
}
)");
  Buffer& out = h.buffer(std::vector<int>(64));
  h.run("checked", Dim3{2, 1, 1}, Dim3{32, 1, 1}, out);
  EXPECT_EQ(h.read<int>(out), std::vector<int>(64, 1));
  try {
    h.run("unchecked", Dim3{2, 1, 1}, Dim3{32, 1, 1}, out);
    ADD_FAILURE() << "grid.sync() ran without a cooperative launch";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("trap"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cooperative_groups.h"), std::string::npos) << e.what();
  }
}

// ---- the same kernels under NVRTC with CUDA's headers

TEST(ClangCooperativeGroupsNvrtc, EveryOutputIsNvrtcsBitForBit) {
  GPURUN_SKIP_WITHOUT_CLANG();
  GPURUN_SKIP_WITHOUT_NVRTC();
  expect_nvrtcs_bits(groups_source, run_block_grid, "block_grid");
  expect_nvrtcs_bits(groups_source, run_tiles, "tiles");
  expect_nvrtcs_bits(groups_source, run_partial, "partial");
  expect_nvrtcs_bits(coalesced_source, run_coalesced, "coalesced");
}

} // namespace
} // namespace gpurun::test
