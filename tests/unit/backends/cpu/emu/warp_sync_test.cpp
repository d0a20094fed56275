// `.sync` collectives wait for every lane of their member mask, also when lanes reach them at
// different PCs; exited members and collectives nobody completes are device errors. Also the
// per-variable shared-memory memcheck and %smid.
#include <gtest/gtest.h>

#include <set>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

ContextOptions options(int threads, bool memcheck = false) {
  ContextOptions o;
  o.settings.host_threads = threads;
  o.settings.memcheck = memcheck;
  return o;
}

template <class... A> std::string expect_device_error(EmuHarness& h, Dim3 block, const A&... args) {
  try {
    h.run("k", Dim3{1, 1, 1}, block, args...);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    return e.what();
  }
  ADD_FAILURE() << "expected a device error";
  return {};
}

// Odd lanes reach the first shfl (the lower PC) while even lanes are still on the other path;
// each lane must get its partner's value from the partner's own shfl.
TEST(WarpSync, ShuffleReachedAtDifferentPcs) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  mul.lo.u32 %r3, %r1, 10;
  shfl.sync.bfly.b32 %r4, %r3, 1, 31, -1;
  bra DONE;
EVEN:
  mul.lo.u32 %r5, %r1, 100;
  shfl.sync.bfly.b32 %r4, %r5, 1, 31, -1;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<std::uint32_t>(out);
  for (std::uint32_t l = 0; l < 32; ++l) {
    std::uint32_t partner = l ^ 1;
    EXPECT_EQ(r[l], partner * (partner % 2 ? 10 : 100)) << "lane " << l;
  }
}

// Odd and even lanes ballot at different PCs over different predicate registers; every lane
// must see the whole warp's vote (0xff), not just its own half's (0xaa / 0x55).
TEST(WarpSync, BallotReachedAtDifferentPcs) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  setp.lt.u32 %p2, %r1, 8;
  vote.sync.ballot.b32 %r4, %p2, -1;
  bra DONE;
EVEN:
  setp.ge.u32 %p3, %r1, 8;
  vote.sync.ballot.b32 %r4, !%p3, -1;
DONE:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<std::uint32_t>(out);
  for (std::uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(r[l], 0xffu) << "lane " << l;
}

// Readers (the lower PC) wait at bar.warp.sync until the writers have written and arrived at
// theirs; without the wait they would read zeros.
TEST(WarpSync, WarpBarrierAtDifferentPcs) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[64];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, buf;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra WRITER;
  bar.warp.sync -1;
  shl.b32 %r3, %r1, 2;
  add.u32 %r4, %r2, %r3;
  ld.shared.u32 %r5, [%r4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
WRITER:
  sub.u32 %r6, %r1, 16;
  shl.b32 %r3, %r6, 2;
  add.u32 %r4, %r2, %r3;
  add.u32 %r7, %r1, 500;
  st.shared.u32 [%r4], %r7;
  bar.warp.sync -1;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(16, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<std::uint32_t>(out);
  for (std::uint32_t l = 0; l < 16; ++l)
    EXPECT_EQ(r[l], 516 + l) << "lane " << l;
}

// A shuffle inside a loop whose trip count differs per lane group, compiled by NVRTC; the
// active lanes name exactly themselves, as CUDA requires.
TEST(WarpSync, ShuffleInDivergentLoop) {
  const char* src = R"(
extern "C" __global__ void k(int* out) {
  int lane = threadIdx.x;
  int v = lane;
  int trips = lane < 16 ? 3 : 5;
  for (int i = 0; i < trips; ++i) {
    unsigned mask = i < 3 ? 0xffffffffu : 0xffff0000u;
    v += __shfl_xor_sync(mask, v, 1);
  }
  out[lane] = v;
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<int>(out);
  std::vector<int> v(32);
  for (int l = 0; l < 32; ++l)
    v[l] = l;
  for (int i = 0; i < 5; ++i) {
    std::vector<int> next = v;
    for (int l = 0; l < 32; ++l)
      if (i < (l < 16 ? 3 : 5))
        next[l] = v[l] + v[l ^ 1];
    v = next;
  }
  EXPECT_EQ(r, v);
}

TEST(WarpSync, ExitedMemberIsADeviceError) {
  const char* src = R"(
extern "C" __global__ void k(int* out) {
  if (threadIdx.x == 5)
    return;
  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, (int)threadIdx.x, 1);
}
)";
  EmuHarness h(src, Language::cuda);
  Buffer& out = h.buffer(std::vector<int>(32, 0));
  std::string what = expect_device_error(h, Dim3{32, 1, 1}, out);
  EXPECT_NE(what.find("shfl.sync"), std::string::npos) << what;
  EXPECT_NE(what.find("lane 5"), std::string::npos) << what;
  EXPECT_NE(what.find("exited"), std::string::npos) << what;
}

// Lanes 0-15 wait in a shuffle for lanes 16-31, which wait at bar.sync instead: on a GPU this
// hangs; the emulator says so.
TEST(WarpSync, CollectiveNobodyCompletesIsADeadlockError) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 16;
  @%p1 bra OTHER;
  shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;
  ret;
OTHER:
  bar.sync 0;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(1, 0));
  std::string what = expect_device_error(h, Dim3{32, 1, 1}, out);
  EXPECT_NE(what.find("deadlocked"), std::string::npos) << what;
  EXPECT_NE(what.find("shfl.sync"), std::string::npos) << what;
  EXPECT_NE(what.find("0x0000ffff"), std::string::npos) << what;
}

// Thread 0 writes one element past `first`; memcheck names `first`, not the array after it.
TEST(WarpSync, SharedOverflowIntoNextArrayNamesTheVariable) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 who)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .shared .align 4 .b8 first[128];
  .shared .align 4 .b8 second[128];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, first;
  add.u32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  ld.param.u32 %r5, [who];
  setp.eq.u32 %p1, %r1, %r5;
  @%p1 st.shared.u32 [first+128], %r1;
  ret;
}
)";
  {
    EmuHarness h(ptx, Language::ptx, options(1, true));
    Buffer& out = h.buffer(std::vector<std::uint32_t>(1, 0));
    std::string what = expect_device_error(h, Dim3{32, 1, 1}, out, 0u);
    EXPECT_NE(what.find("out-of-bounds shared write of 4 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("0 bytes past the end of shared variable 'first' (128 bytes"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("thread (0,0,0)"), std::string::npos) << what;
  }
  {
    // No thread takes the overflowing store: no finding.
    EmuHarness h(ptx, Language::ptx, options(1, true));
    Buffer& out = h.buffer(std::vector<std::uint32_t>(1, 0));
    EXPECT_NO_THROW(h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out, 1000u));
  }
}

TEST(WarpSync, DynamicSharedOverflowNamesTheExternArray) {
  const char* src = R"(
extern "C" __global__ void k(int* out, int n) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x + n] = 1;
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x];
}
)";
  EmuHarness h(src, Language::cuda, options(1, true));
  Buffer& out = h.buffer(std::vector<int>(32, 0));
  h.launch("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, 32 * sizeof(int), out, 0);
  EXPECT_NO_THROW(h.context().synchronize());
  h.launch("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, 32 * sizeof(int), out, 1);
  try {
    h.context().synchronize();
    FAIL() << "expected a memcheck finding";
  } catch (const Error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("shared variable 'dyn' (128 bytes"), std::string::npos) << what;
    EXPECT_NE(what.find("dynamic"), std::string::npos) << what;
    EXPECT_NE(what.find("thread (31,0,0)"), std::string::npos) << what;
  }
}

// %smid is the index of the worker thread that ran the block, %nsmid the number of workers.
TEST(WarpSync, SmidIsTheWorkerIndex) {
  const char* src = R"(
extern "C" __global__ void k(unsigned* out) {
  unsigned smid, nsmid;
  asm("mov.u32 %0, %%smid;" : "=r"(smid));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsmid));
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = smid;
    out[2 * blockIdx.x + 1] = nsmid;
  }
  for (volatile int i = 0; i < 2000; ++i) {
  }
}
)";
  EmuHarness h(src, Language::cuda, options(2));
  const unsigned blocks = 16;
  Buffer& out = h.buffer(std::vector<unsigned>(2 * blocks, 99));
  h.run("k", Dim3{blocks, 1, 1}, Dim3{32, 1, 1}, out);
  auto r = h.read<unsigned>(out);
  std::set<unsigned> seen;
  for (unsigned b = 0; b < blocks; ++b) {
    EXPECT_LT(r[2 * b], 2u) << "block " << b;
    EXPECT_EQ(r[2 * b + 1], 2u) << "block " << b;
    seen.insert(r[2 * b]);
  }
  EXPECT_EQ(seen.size(), 2u) << "both workers should have run blocks";
}

} // namespace
} // namespace gpurun::test

namespace gpurun::test {
namespace {

// barrier.cluster.arrive / .wait without a cluster launch: the block is the cluster, so the
// split barrier orders every thread's store before any thread's load after it (NVRTC emits it
// for a generic cooperative-groups sync on sm_90). 128 threads: four warps run apart.
TEST(WarpSync, ClusterBarrierOfAOneBlockClusterIsTheBlocksBarrier) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .shared .align 4 .b8 tile[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, tile;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  st.shared.u32 [%r4], %r1;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  add.s32 %r5, %r1, 37;
  and.b32 %r5, %r5, 127;
  shl.b32 %r6, %r5, 2;
  add.s32 %r7, %r2, %r6;
  ld.shared.u32 %r5, [%r7];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(128, 0));
  h.run("k", Dim3{2, 1, 1}, Dim3{128, 1, 1}, out);
  auto r = h.read<std::uint32_t>(out);
  for (std::uint32_t t = 0; t < 128; ++t)
    EXPECT_EQ(r[t], (t + 37) % 128) << "thread " << t;
}

} // namespace
} // namespace gpurun::test
