// Whole kernels compiled by NVRTC and run by the emulator, checked against host references.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <optional>
#include <sstream>

#include "support/test_support.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ContextOptions threads(int n, bool memcheck = false) {
  ContextOptions o;
  o.settings.host_threads = n;
  o.settings.memcheck = memcheck;
  return o;
}

TEST(Kernels, EveryNvrtcFixtureDecodes) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() / "tests/data/ptx")) {
    if (entry.path().extension() != ".ptx")
      continue;
    SCOPED_TRACE(entry.path().filename().string());
    EXPECT_NO_THROW(EmuHarness h(slurp(entry.path())));
    ++count;
  }
  EXPECT_GE(count, 10);
}

TEST(Kernels, ReductionWithDynamicSharedMemoryAndBarriers) {
  EmuHarness h(slurp(source_dir() / "kernels/examples/reduce_sum.cu"), Language::cuda, threads(2));
  const unsigned n = 1000;
  std::vector<float> in(n);
  for (unsigned i = 0; i < n; ++i)
    in[i] = static_cast<float>(i % 17);
  Buffer& inb = h.buffer(in);
  Buffer& outb = h.buffer(std::vector<float>(4, -1.0f));
  h.launch("reduce_sum", Dim3{4, 1, 1}, Dim3{256, 1, 1}, 256 * sizeof(float), inb, outb, n);
  h.context().synchronize();
  auto out = h.read<float>(outb);
  for (unsigned b = 0; b < 4; ++b) {
    float expect = 0;
    for (unsigned i = b * 256; i < std::min(n, (b + 1) * 256); ++i)
      expect += in[i];
    EXPECT_EQ(out[b], expect) << "block " << b;
  }
}

TEST(Kernels, WarpShuffleBallotAndAny) {
  const char* src = R"(
extern "C" __global__ void k(int* out) {
  int v = threadIdx.x;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  int x = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1);
  int up = __shfl_up_sync(0xffffffff, (int)threadIdx.x, 3);
  int idx = __shfl_sync(0xffffffff, (int)threadIdx.x * 10, 7);
  unsigned b = __ballot_sync(0xffffffff, threadIdx.x & 1);
  int any = __any_sync(0xffffffff, threadIdx.x == 31);
  int all = __all_sync(0xffffffff, threadIdx.x < 31);
  int lane = threadIdx.x;
  out[lane * 4 + 0] = x;
  out[lane * 4 + 1] = up;
  out[lane * 4 + 2] = idx;
  out[lane * 4 + 3] = lane == 0 ? v : (lane == 1 ? (int)b : (lane == 2 ? any : all));
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(128, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<int>(out);
  EXPECT_EQ(r[0 * 4 + 3], 496);                                // sum of 0..31
  EXPECT_EQ(static_cast<unsigned>(r[1 * 4 + 3]), 0xaaaaaaaau); // odd lanes
  EXPECT_EQ(r[2 * 4 + 3], 1);
  EXPECT_EQ(r[3 * 4 + 3], 0);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(r[l * 4 + 0], l ^ 1);
    EXPECT_EQ(r[l * 4 + 1], l >= 3 ? l - 3 : l);
    EXPECT_EQ(r[l * 4 + 2], 70);
  }
}

TEST(Kernels, HistogramWithSharedAndGlobalAtomicsAcrossWorkers) {
  EmuHarness h(slurp(source_dir() / "tests/data/ptx/src/histogram.cu"), Language::cuda, threads(2));
  const int n = 20000;
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i)
    data[i] = static_cast<unsigned char>((i * 7 + i / 3) & 0xff);
  Buffer& d = h.buffer(data);
  Buffer& hist = h.buffer(std::vector<unsigned>(64, 0));
  h.run("histogram", Dim3{8, 1, 1}, Dim3{128, 1, 1}, d, hist, n);
  auto r = h.read<unsigned>(hist);
  std::vector<unsigned> expect(64, 0);
  for (auto c : data)
    ++expect[c % 64];
  EXPECT_EQ(r, expect);
}

TEST(Kernels, DevicePrintfWritesEachThreadsLine) {
  const char* src = R"(
#include <cstdio>
extern "C" __global__ void k(float f) {
  printf("block %d thread %d value %.2f\n", (int)blockIdx.x, (int)threadIdx.x, f);
}
)";
  EmuHarness h(src, Language::cuda, threads(1));
  testing::internal::CaptureStdout();
  h.run("k", Dim3{2, 1, 1}, Dim3{3, 1, 1}, 1.5f);
  std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "block 0 thread 0 value 1.50\nblock 0 thread 1 value 1.50\n"
                 "block 0 thread 2 value 1.50\nblock 1 thread 0 value 1.50\n"
                 "block 1 thread 1 value 1.50\nblock 1 thread 2 value 1.50\n");
}

TEST(Kernels, EarlyExitThenBarrierCountsOnlyLiveThreads) {
  const char* src = R"(
extern "C" __global__ void k(int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (t % 3 == 0) return;
  s[t] = t;
  __syncthreads();
  int partner = (t + 1) % blockDim.x;
  out[t] = partner % 3 == 0 ? -1 : s[partner];
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(96, 7));
  h.run("k", Dim3{1, 1, 1}, Dim3{96, 1, 1}, out);
  auto r = h.read<int>(out);
  for (int t = 0; t < 96; ++t) {
    int partner = (t + 1) % 96;
    int expect = t % 3 == 0 ? 7 : (partner % 3 == 0 ? -1 : partner);
    EXPECT_EQ(r[t], expect) << t;
  }
}

TEST(Kernels, DivergentBranchesReconvergeBeforeAShuffle) {
  const char* src = R"(
extern "C" __global__ void k(int* out) {
  int t = threadIdx.x;
  int v;
  if (t & 1) {
    v = t * 3;
    for (int i = 0; i < t; ++i) v += i;
  } else {
    v = -t;
  }
  v += __shfl_xor_sync(0xffffffff, v, 1);
  out[t] = v;
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<int>(out);
  auto value = [](int t) {
    if (t & 1)
      return t * 3 + t * (t - 1) / 2;
    return -t;
  };
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ(r[t], value(t) + value(t ^ 1)) << t;
}

TEST(Kernels, RecursiveDeviceFunctionKeepsItsRegistersPerCall) {
  const char* src = R"(
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
extern "C" __global__ void k(int* out) { out[threadIdx.x] = fib(threadIdx.x); }
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(16, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{16, 1, 1}, out);
  auto r = h.read<int>(out);
  int a = 0, b = 1;
  for (int t = 0; t < 16; ++t) {
    EXPECT_EQ(r[t], a) << t;
    int c = a + b;
    a = b;
    b = c;
  }
}

TEST(Kernels, TrapNamesKernelBlockThreadAndLine) {
  const char* src = R"(
extern "C" __global__ void boom(int* out) {
  if (threadIdx.x == 3) asm volatile("trap;");
  out[threadIdx.x] = 1;
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(8, 0));
  try {
    h.run("boom", Dim3{1, 1, 1}, Dim3{8, 1, 1}, out);
    FAIL() << "expected a trap";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    std::string m = e.what();
    EXPECT_NE(m.find("kernel 'boom' executed trap at block (0,0,0) thread (3,0,0), PTX line "),
              std::string::npos)
        << m;
  }
}

TEST(Kernels, OutOfBoundsWithMemcheckNamesTheBufferAndLine) {
  const char* src = R"(
extern "C" __global__ void k(float* out, int n) {
  int i = threadIdx.x;
  out[i + 3] = 1.0f;
}
)";
  EmuHarness h(src, Language::cuda, threads(1, true));
  Buffer& out = h.buffer(std::vector<float>(20, 0.0f), "out");
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{20, 1, 1}, out, 20);
    FAIL() << "expected a fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    std::string m = e.what();
    EXPECT_NE(m.find("out-of-bounds global write of 4 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("0 bytes past the end of allocation #1 'out' (80 bytes at"), std::string::npos)
        << m;
    EXPECT_NE(m.find("thread (17,0,0)"), std::string::npos) << m;
    EXPECT_NE(m.find("test.cu:4)"), std::string::npos) << m;
  }
}

TEST(Kernels, OutOfBoundsWithoutMemcheckIsStillADeviceErrorNotACrash) {
  const char* src = R"(
extern "C" __global__ void k(int* p) { p[threadIdx.x * 1000000] = 5; }
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(4, 0));
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_NE(std::string(e.what()).find("thread (1,0,0)"), std::string::npos) << e.what();
  }
}

TEST(Kernels, InfiniteLoopTimesOut) {
  const char* src = R"(
extern "C" __global__ void spin(volatile int* flag) { while (*flag == 0) { } }
)";
  EmuHarness h(src, Language::cuda, threads(2));
  Buffer& flag = h.buffer(std::vector<int>(1, 0));
  h.launch("spin", Dim3{4, 1, 1}, Dim3{64, 1, 1}, 0, flag);
  auto start = std::chrono::steady_clock::now();
  try {
    h.context().synchronize(0.3);
    FAIL() << "expected a timeout";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::timeout);
    EXPECT_EQ(std::string(e.what()), "kernel 'spin' did not finish within 0.3 s (--timeout)");
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

// Workers take blocks in chunks: whatever their number, every block of the grid runs once, and
// the instruction counts add up to the same totals.
TEST(Kernels, EveryBlockRunsOnceWhateverTheWorkers) {
  const char* src = R"(
extern "C" __global__ void hits(unsigned* per_block) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  atomicAdd(&per_block[b], 1u);
})";
  std::optional<double> lanes;
  for (const int workers : {1, 2, 3, 5}) {
    for (const Dim3 grid : {Dim3{37, 5, 3}, Dim3{2, 1, 1}, Dim3{1000, 1, 1}}) {
      ContextOptions o = threads(workers);
      o.settings.stats = true;
      EmuHarness h(src, Language::cuda, o);
      const std::size_t blocks = grid.volume();
      Buffer& per_block = h.buffer(std::vector<unsigned>(blocks, 0));
      h.run("hits", grid, Dim3{32, 1, 1}, per_block);
      const auto r = h.read<unsigned>(per_block);
      EXPECT_EQ(std::count(r.begin(), r.end(), 32u), static_cast<std::ptrdiff_t>(blocks))
          << workers << " workers, " << blocks << " blocks";
      if (blocks == 1000) {
        const double n = h.context().last_launch_stats()["lane_instructions"];
        EXPECT_EQ(n, lanes.value_or(n)) << workers << " workers";
        lanes = n;
      }
    }
  }
}

TEST(Kernels, StatsCountInstructions) {
  const auto test_start = std::chrono::steady_clock::now();
  ContextOptions o = threads(1);
  o.settings.stats = true;
  EmuHarness h(slurp(source_dir() / "kernels/examples/scalar_add.cu"), Language::cuda, o);
  Buffer& buf = h.buffer(std::vector<float>(64, 0.0f));
  h.run("scalar_add", Dim3{2, 1, 1}, Dim3{32, 1, 1}, buf, 64, 1.0f);
  auto stats = h.context().last_launch_stats();
  ASSERT_TRUE(stats.count("warp_instructions"));
  EXPECT_GT(stats["warp_instructions"], 10.0);
  // Two full warps: every lane executes every instruction.
  EXPECT_EQ(stats["lane_instructions"], stats["warp_instructions"] * 32);
  // The launch took some time, and less than the whole test so far.
  EXPECT_GT(stats["seconds"], 0.0);
  EXPECT_LT(stats["seconds"],
            std::chrono::duration<double>(std::chrono::steady_clock::now() - test_start).count());
}

} // namespace
} // namespace gpurun::test
