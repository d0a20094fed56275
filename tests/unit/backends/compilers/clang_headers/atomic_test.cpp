// Atomics of gpurun's clang layer (__gpurun_atomic.h) on the CPU backend, with many threads on
// one address: the final value and the old values returned must be those of some serial order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

constexpr unsigned kThreads = 256;

TEST(ClangAtomic, AddReturnsEveryOldValueOnce) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(int* i, unsigned* u, unsigned long long* ull, float* f, double* d,
                             int* old) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  old[t] = atomicAdd(i, 1);
  atomicAdd(u, 2u);
  atomicAdd(ull, 1ull << 33);
  atomicAdd(f, 0.5f);
  atomicAdd(d, 0.25);
  atomicAdd_block(i, 0);
}
)");
  Buffer& i = h.buffer(std::vector<int>{0});
  Buffer& u = h.buffer(std::vector<unsigned>{7});
  Buffer& ull = h.buffer(std::vector<unsigned long long>{1});
  Buffer& f = h.buffer(std::vector<float>{0});
  Buffer& d = h.buffer(std::vector<double>{0});
  Buffer& old = h.buffer(std::vector<int>(kThreads * 2));
  h.run("k", Dim3{2, 1, 1}, Dim3{kThreads, 1, 1}, i, u, ull, f, d, old);
  EXPECT_EQ(h.read<int>(i)[0], 2 * static_cast<int>(kThreads));
  EXPECT_EQ(h.read<unsigned>(u)[0], 7u + 4 * kThreads);
  EXPECT_EQ(h.read<unsigned long long>(ull)[0], 1ull + (2ull * kThreads << 33));
  EXPECT_EQ(h.read<float>(f)[0], static_cast<float>(kThreads));
  EXPECT_EQ(h.read<double>(d)[0], kThreads * 0.5);
  auto seen = h.read<int>(old);
  std::sort(seen.begin(), seen.end());
  for (int k = 0; k < static_cast<int>(2 * kThreads); ++k)
    ASSERT_EQ(seen[k], k);
}

TEST(ClangAtomic, SubExchMinMaxAndBitwise) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(int* v, unsigned* w, long long* ll, unsigned long long* ull,
                             float* f) {
  int t = threadIdx.x;
  atomicSub(&v[0], 3);
  atomicMin(&v[1], 100 - t);
  atomicMax(&v[2], t - 100);
  atomicExch(&v[3], 42);
  atomicAnd(&w[0], ~(1u << (t % 32)));
  atomicOr(&w[1], 1u << (t % 32));
  atomicXor(&w[2], 1u << (t % 4));
  atomicMin(&w[3], 1000u + t);
  atomicMax(&w[4], unsigned(t) * 3u);
  atomicMin(&ll[0], -(1LL << 40) - t);
  atomicMax(&ll[1], (1LL << 40) + t);
  atomicMin(&ull[0], (1ULL << 50) + t);
  atomicMax(&ull[1], (1ULL << 50) + t);
  atomicAnd(&ull[2], ~(1ULL << (t % 64)));
  atomicExch(&f[0], 2.5f);
}
)");
  Buffer& v = h.buffer(std::vector<int>{0, 1 << 20, -(1 << 20), 0});
  Buffer& w = h.buffer(std::vector<unsigned>{0xffffffffu, 0, 0, 0xffffffffu, 0});
  Buffer& ll = h.buffer(std::vector<long long>{0, 0});
  Buffer& ull = h.buffer(std::vector<unsigned long long>{~0ULL, 0, ~0ULL});
  Buffer& f = h.buffer(std::vector<float>{0});
  h.run("k", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1}, v, w, ll, ull, f);
  const int n = static_cast<int>(kThreads);
  EXPECT_EQ(h.read<int>(v), (std::vector<int>{-3 * n, 100 - (n - 1), n - 1 - 100, 42}));
  // 256 threads flip each of the 4 low bits 64 times: back to 0.
  EXPECT_EQ(h.read<unsigned>(w), (std::vector<unsigned>{0, 0xffffffffu, 0, 1000u, 3u * (n - 1)}));
  EXPECT_EQ(h.read<long long>(ll),
            (std::vector<long long>{-(1LL << 40) - (n - 1), (1LL << 40) + (n - 1)}));
  EXPECT_EQ(h.read<unsigned long long>(ull),
            (std::vector<unsigned long long>{1ULL << 50, (1ULL << 50) + (n - 1), 0}));
  EXPECT_EQ(h.read<float>(f)[0], 2.5f);
}

TEST(ClangAtomic, IncDecWrapAndCasCounts) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(unsigned* inc, unsigned* dec, int* cas_counter,
                             unsigned long long* cas64) {
  atomicInc(inc, 9u);      // counts 0..9 and wraps to 0
  atomicDec(dec, 9u);      // counts down and wraps from 0 to 9
  int old = *cas_counter, assumed;
  do {
    assumed = old;
    old = atomicCAS(cas_counter, assumed, assumed + 1);
  } while (old != assumed);
  unsigned long long o = *cas64, a;
  do {
    a = o;
    o = atomicCAS(cas64, a, a + (1ULL << 32));
  } while (o != a);
}
)");
  Buffer& inc = h.buffer(std::vector<unsigned>{0});
  Buffer& dec = h.buffer(std::vector<unsigned>{0});
  Buffer& cas = h.buffer(std::vector<int>{5});
  Buffer& cas64 = h.buffer(std::vector<unsigned long long>{0});
  h.run("k", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1}, inc, dec, cas, cas64);
  EXPECT_EQ(h.read<unsigned>(inc)[0], kThreads % 10);
  EXPECT_EQ(h.read<unsigned>(dec)[0], (10 - kThreads % 10) % 10);
  EXPECT_EQ(h.read<int>(cas)[0], 5 + static_cast<int>(kThreads));
  EXPECT_EQ(h.read<unsigned long long>(cas64)[0], static_cast<unsigned long long>(kThreads) << 32);
}

TEST(ClangAtomic, SharedMemoryAtomicsOfAHistogram) {
  GPURUN_SKIP_WITHOUT_CLANG();
  EmuHarness h = clang_harness(R"(
extern "C" __global__ void k(const unsigned char* data, unsigned* hist, int n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}
)");
  std::vector<unsigned char> data(5000);
  std::vector<unsigned> expected(16);
  for (std::size_t i = 0; i < data.size(); ++i) {
    data[i] = static_cast<unsigned char>((i * 37 + 11) % 251);
    ++expected[data[i] % 16];
  }
  Buffer& in = h.buffer(data);
  Buffer& hist = h.buffer(std::vector<unsigned>(16));
  h.run("k", Dim3{4, 1, 1}, Dim3{128, 1, 1}, in, hist, static_cast<int>(data.size()));
  EXPECT_EQ(h.read<unsigned>(hist), expected);
}

} // namespace
} // namespace gpurun::test
