// Special registers and warp-level instructions on hand-written PTX (64 threads, 2 warps).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

std::vector<std::uint32_t> per_thread(const std::string& body, Dim3 grid = {1, 1, 1},
                                      Dim3 block = {64, 1, 1}) {
  std::string ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r9, 0;
)" + body + R"(
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(block.volume(), 0xdeadbeef));
  h.run("k", grid, block, out);
  return h.read<std::uint32_t>(out);
}

TEST(WarpOps, LaneAndWarpIds) {
  auto lane = per_thread("mov.u32 %r9, %laneid;");
  auto warp = per_thread("mov.u32 %r9, %warpid;");
  auto lt = per_thread("mov.u32 %r9, %lanemask_lt;");
  auto ge = per_thread("mov.u32 %r9, %lanemask_ge;");
  for (std::uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(lane[t], t % 32);
    EXPECT_EQ(warp[t], t / 32);
    EXPECT_EQ(lt[t], (1u << (t % 32)) - 1);
    EXPECT_EQ(ge[t], ~((1u << (t % 32)) - 1));
  }
}

TEST(WarpOps, GridAndBlockShape) {
  auto n = per_thread(
      "mov.u32 %r2, %nctaid.y;\n mov.u32 %r3, %ntid.x;\n mad.lo.s32 %r9, %r2, 1000, %r3;",
      {1, 3, 1}, {64, 1, 1});
  EXPECT_EQ(n[5], 3064u);
}

TEST(WarpOps, ActivemaskUnderDivergence) {
  auto m = per_thread(R"(
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra EVEN;
  activemask.b32 %r9;
  bra.uni DONE;
EVEN:
  activemask.b32 %r9;
DONE:
)");
  for (std::uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(m[t], t % 2 ? 0xaaaaaaaau : 0x55555555u) << t;
}

TEST(WarpOps, ReconvergedWarpSeesFullMask) {
  auto m = per_thread(R"(
  setp.lt.u32 %p1, %r1, 5;
  @%p1 bra SKIP;
  add.s32 %r3, %r1, 1;
SKIP:
  activemask.b32 %r9;
)");
  EXPECT_EQ(m[0], 0xffffffffu);
  EXPECT_EQ(m[40], 0xffffffffu);
}

TEST(WarpOps, ShflIdxWithSegmentWidth) {
  // width 8: c = ((32 - 8) << 8) | 31 → each 8-lane segment reads its own lane 2.
  auto v = per_thread("mov.u32 %r4, 6175;\n shfl.sync.idx.b32 %r9|%p1, %r1, 2, %r4, -1;");
  for (std::uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], t / 8 * 8 + 2) << t;
}

TEST(WarpOps, VoteUniAndBallotOfNegatedPredicate) {
  auto v = per_thread(R"(
  setp.lt.u32 %p1, %r1, 40;
  vote.sync.ballot.b32 %r9, !%p1, -1;
)");
  EXPECT_EQ(v[0], 0u);           // warp 0: every lane < 40
  EXPECT_EQ(v[32], 0xffffff00u); // warp 1: lanes 8..31 are >= 40
  auto u = per_thread(R"(
  setp.lt.u32 %p1, %r1, 40;
  vote.sync.uni.pred %p2, %p1, -1;
  selp.u32 %r9, 1, 0, %p2;
)");
  EXPECT_EQ(u[0], 1u);
  EXPECT_EQ(u[32], 0u);
}

TEST(WarpOps, MatchAnyGroupsLanesByValue) {
  // Lanes hold t / 8 (32-bit) or t % 3 widened to 64 bits with a high word.
  auto v = per_thread(R"(
  shr.u32 %r2, %r1, 3;
  match.any.sync.b32 %r9, %r2, -1;
)");
  for (std::uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], 0xffu << (t % 32 / 8 * 8)) << t;
  auto w = per_thread(R"(
  rem.u32 %r2, %r1, 3;
  cvt.u64.u32 %rd2, %r2;
  or.b64 %rd2, %rd2, 4294967296;
  match.any.sync.b64 %r9, %rd2, -1;
)");
  for (std::uint32_t t = 0; t < 64; ++t) {
    std::uint32_t expected = 0;
    for (std::uint32_t k = 0; k < 32; ++k)
      if ((t / 32 * 32 + k) % 3 == t % 3)
        expected |= 1u << k;
    EXPECT_EQ(w[t], expected) << t;
  }
}

TEST(WarpOps, MatchAllOverTheMemberMask) {
  // Warp 0 holds one value in every lane, warp 1 does not; only the low 16 lanes are members.
  auto v = per_thread(R"(
  shr.u32 %r2, %r1, 5;
  setp.eq.u32 %p3, %r2, 1;
  @%p3 mov.u32 %r2, %r1;
  setp.lt.u32 %p2, %r1, 48;
  and.b32 %r5, %r1, 31;
  setp.lt.u32 %p1, %r5, 16;
  @!%p1 bra SKIP;
  match.all.sync.b32 %r3|%p2, %r2, 65535;
  selp.u32 %r4, 1, 0, %p2;
  shl.b32 %r4, %r4, 31;
  or.b32 %r9, %r3, %r4;
SKIP:
)");
  for (std::uint32_t t = 0; t < 16; ++t)
    EXPECT_EQ(v[t], 0x8000ffffu) << t;
  for (std::uint32_t t = 32; t < 48; ++t)
    EXPECT_EQ(v[t], 0u) << t;
  EXPECT_EQ(v[20], 0u);
}

TEST(WarpOps, BarRedReducesAPredicateOverTheBlock) {
  // 64 threads, 2 warps: 13 of them (t % 5 == 0) have the predicate set.
  auto popc = per_thread(R"(
  rem.u32 %r2, %r1, 5;
  setp.eq.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r9, 0, %p1;
)");
  auto neg = per_thread(R"(
  rem.u32 %r2, %r1, 5;
  setp.eq.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r9, 1, !%p1;
)");
  auto logic = per_thread(R"(
  setp.lt.u32 %p1, %r1, 64;
  bar.red.and.pred %p2, 0, %p1;
  setp.eq.u32 %p1, %r1, 63;
  bar.red.or.pred %p3, 0, %p1;
  setp.gt.u32 %p1, %r1, 63;
  bar.red.or.pred %p1, 0, 64, %p1;
  selp.u32 %r3, 1, 0, %p2;
  selp.u32 %r4, 2, 0, %p3;
  selp.u32 %r5, 4, 0, %p1;
  or.b32 %r9, %r3, %r4;
  or.b32 %r9, %r9, %r5;
)");
  for (std::uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(popc[t], 13u) << t;
    EXPECT_EQ(neg[t], 51u) << t;
    EXPECT_EQ(logic[t], 3u) << t;
  }
}

// Disjoint groups (even and odd lanes, each with its own member mask) execute one collective
// together, as labeled_partition's tiles do: each group reduces, votes and matches on its own.
TEST(WarpOps, DisjointMemberMasksAtOneCollective) {
  auto r = per_thread(R"(
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p1, %r2, 0;
  selp.b32 %r3, 0x55555555, 0xaaaaaaaa, %p1;
  redux.sync.max.u32 %r4, %r1, %r3;
  setp.lt.u32 %p2, %r1, 4;
  vote.sync.ballot.b32 %r5, %p2, %r3;
  shr.u32 %r6, %r1, 2;
  match.any.sync.b32 %r7, %r6, %r3;
  xor.b32 %r9, %r4, %r5;
  shl.b32 %r7, %r7, 8;
  xor.b32 %r9, %r9, %r7;
)");
  for (std::uint32_t t = 0; t < 64; ++t) {
    const std::uint32_t lane = t % 32, odd = lane % 2;
    const std::uint32_t max = (t / 32) * 32 + 30 + odd;
    const std::uint32_t ballot = t < 32 ? (odd ? 0x0000000au : 0x00000005u) : 0u;
    const std::uint32_t same = (odd ? 0xaaaaaaaau : 0x55555555u) & (0xfu << (lane / 4 * 4));
    EXPECT_EQ(r[t], max ^ ballot ^ (same << 8)) << t;
  }
}

// A second read after some work is strictly later (a clock stuck at any value fails).
TEST(WarpOps, ClockAdvances) {
  auto c = per_thread(R"(
  mov.u64 %rd2, %clock64;
  mov.u32 %r2, 0;
$L_spin:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 1000;
  @%p2 bra $L_spin;
  mov.u64 %rd3, %clock64;
  sub.s64 %rd3, %rd3, %rd2;
  setp.gt.s64 %p1, %rd3, 0;
  selp.u32 %r9, 1, 0, %p1;
)");
  for (std::uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(c[t], 1u) << t;
}

// Every special register of sm_90 that a launch defines, read by thread 0 of block (0,0) into
// out[i] (u64 each): values follow the launch (grid 3x2, block 64, 100 bytes of dynamic shared
// memory, 48 of static) and a CTA launched without a cluster shape being a cluster of one.
TEST(WarpOps, EverySpecialRegisterHasItsLaunchValue) {
  struct Want {
    const char* name;
    std::uint64_t value;
  };
  const Want k_want[] = {{"%gridid", 1},
                         {"%is_explicit_cluster", 0},
                         {"%clusterid.x", 0},
                         {"%clusterid.z", 0},
                         {"%nclusterid.x", 3},
                         {"%nclusterid.y", 2},
                         {"%cluster_ctaid.x", 0},
                         {"%cluster_nctaid.z", 1},
                         {"%cluster_ctarank", 0},
                         {"%cluster_nctarank", 1},
                         {"%total_smem_size", 256},
                         {"%aggr_smem_size", 1280},
                         {"%dynamic_smem_size", 100},
                         {"%reserved_smem_offset_cap", 1024},
                         {"%pm3", 0},
                         {"%pm7_64", 0},
                         {"%envreg31", 0},
                         {"%current_graph_exec", 0},
                         {"%nwarpid", 2},
                         {"%warpid", 0}};
  std::string body;
  int offset = 0;
  for (const Want& w : k_want) {
    const std::string n = w.name;
    if (n == "%gridid" || n == "%current_graph_exec" || n.ends_with("_64"))
      body += fmt::format("  mov.u64 %rd2, {};\n", n);
    else
      body += fmt::format("  mov.u32 %r2, {};\n  cvt.u64.u32 %rd2, %r2;\n", n);
    body += fmt::format("  st.global.u64 [%rd1+{}], %rd2;\n", offset);
    offset += 8;
  }
  const std::string ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.shared .align 4 .b8 fixed[48];
.visible .entry k(.param .u64 k_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_out];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r2, %ctaid.y;
  or.b32 %r3, %r3, %r2;
  mov.u32 %r2, %tid.x;
  or.b32 %r3, %r3, %r2;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  mov.u32 %r2, %clusterid.y;
  st.shared.u32 [fixed], %r2;
)" + body + R"(
DONE:
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint64_t>(std::size(k_want), 0xdeadbeef));
  h.launch("k", Dim3{3, 2, 1}, Dim3{64, 1, 1}, 100, out);
  h.context().synchronize();
  auto v = h.read<std::uint64_t>(out);
  for (std::size_t j = 0; j < std::size(k_want); ++j)
    EXPECT_EQ(v[j], k_want[j].value) << k_want[j].name;
  // The next launch is the next grid.
  h.launch("k", Dim3{3, 2, 1}, Dim3{64, 1, 1}, 100, out);
  h.context().synchronize();
  EXPECT_EQ(h.read<std::uint64_t>(out)[0], 2u);
}

// The clocks: %clock_hi and %globaltimer_hi are the high words of %clock64 and %globaltimer.
TEST(WarpOps, HighWordsOfTheClocks) {
  auto c = per_thread(R"(
  mov.u64 %rd2, %globaltimer;
  mov.u32 %r2, %globaltimer_hi;
  shr.u64 %rd2, %rd2, 32;
  cvt.u32.u64 %r3, %rd2;
  sub.u32 %r4, %r2, %r3;
  mov.u32 %r5, %globaltimer_lo;
  mov.u32 %r6, %clock_hi;
  setp.le.u32 %p1, %r4, 1;
  setp.ne.u32 %p2, %r2, 0;
  and.pred %p1, %p1, %p2;
  selp.u32 %r9, 1, 0, %p1;
)");
  for (std::uint32_t t = 0; t < 64; ++t)
    EXPECT_EQ(c[t], 1u) << t;
}

// %reserved_smem_offset_*: a region of the block's shared memory that memcheck accepts, the same
// for every thread of a block; begin + cap = end, and offset_1 leaves cooperative groups' 288
// bytes before the end. The registers are named without '%', as CUDA's headers name them.
TEST(WarpOps, ReservedSharedMemoryIsUsableMemoryOfTheBlock) {
  const std::string ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [k_out];
  {
  .reg .u32 start;
  .reg .u64 extended;
  mov.u32 start, %reserved_smem_offset_1;
  cvt.u64.u32 extended, start;
  cvta.shared.u64 %rd2, extended;
  }
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.u32 [%rd4], %r1;
  bar.sync 0;
  ld.u32 %r2, [%rd2+4];
  add.s64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r2;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 ret;
  mov.u32 %r3, %reserved_smem_offset_begin;
  mov.u32 %r4, %reserved_smem_offset_end;
  mov.u32 %r5, %reserved_smem_offset_cap;
  mov.u32 %r6, %reserved_smem_offset_0;
  sub.u32 %r4, %r4, %r3;
  sub.u32 %r6, %r6, %r3;
  cvt.u32.u64 %r7, %rd2;
  sub.u32 %r7, %r7, %r3;
  st.global.v4.u32 [%rd1+256], {%r4, %r5, %r6, %r7};
  ret;
}
)";
  ContextOptions options;
  options.settings.memcheck = true;
  EmuHarness h(ptx, Language::ptx, options);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(68, 0));
  h.run("k", Dim3{2, 1, 1}, Dim3{64, 1, 1}, out);
  const auto v = h.read<std::uint32_t>(out);
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], 1u) << t; // thread 1's word, written before the barrier
  EXPECT_EQ(v[64], 1024u);    // end - begin
  EXPECT_EQ(v[65], 1024u);    // cap
  EXPECT_EQ(v[66], 0u);       // offset_0 is the start
  EXPECT_GE(1024u - v[67], 288u);
}

TEST(WarpOps, UnknownOpcodeNamesItselfAndTheLine) {
  try {
    (void)per_thread("bmsk.clamp.b32 %r9, %r1, %r1;");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_NE(std::string(e.what()).find("unsupported PTX instruction 'bmsk.clamp.b32' at line 13"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace gpurun::test
