// Loads, stores and atomics in every state space on hand-written PTX.
#include <gtest/gtest.h>

#include "unit/backends/cpu/emu/instruction_harness.hpp"

namespace gpurun::test {
namespace {

TEST(MemoryOps, NarrowLoadsExtendPerType) {
  auto o = run_snippet("ld.global.s8 %r4, [%rd9+3];", {0x80000000u});
  EXPECT_EQ(o.r, 0xffffff80u);
  o = run_snippet("ld.global.u8 %r4, [%rd9+3];", {0x80000000u});
  EXPECT_EQ(o.r, 0x80u);
  o = run_snippet("ld.global.s16 %r4, [%rd9+2];", {0x80010000u});
  EXPECT_EQ(o.r, 0xffff8001u);
  o = run_snippet("ld.global.s32 %rd4, [%rd9];", {0xfffffffeu});
  EXPECT_EQ(o.rd, 0xfffffffffffffffeull);
}

TEST(MemoryOps, StoreFromAWiderRegisterTruncates) {
  auto o = run_snippet("st.global.u32 [%rd8], %rd1;\n ld.global.u32 %r4, [%rd8];\n"
                       "st.global.u8 [%rd8+40], %r2;\n ld.global.u32 %r5, [%rd8+40];\n"
                       "add.s32 %r4, %r4, %r5;",
                       {0, 0x1ff, 0, 0x1122334455667788ull});
  EXPECT_EQ(o.r, 0x55667788u + 0xffu);
}

TEST(MemoryOps, VectorLoadsAndStores) {
  auto o = run_snippet("ld.global.v2.u32 {%r5, %r6}, [%rd9];\n"
                       "st.global.v2.u32 [%rd8+48], {%r6, %r5};\n"
                       "ld.global.u64 %rd4, [%rd8+48];",
                       {0x11111111u, 0x22222222u});
  EXPECT_EQ(o.rd, 0x1111111122222222ull);
  o = run_snippet("ld.global.v4.u32 {%r5, %r6, %r7, %r8}, [%rd9];\n add.s32 %r4, %r5, %r7;",
                  {1, 2, 3});
  EXPECT_EQ(o.r, 4u);
}

TEST(MemoryOps, LocalDepotAndGenericAddressing) {
  const char* body = R"(
  .local .align 8 .b8 depot[16];
  mov.u64 %rd5, depot;
  cvta.local.u64 %rd6, %rd5;
  st.local.u32 [%rd5+4], %r1;
  ld.u32 %r4, [%rd6+4];
  st.u32 [%rd6+8], %r2;
  ld.local.u32 %r5, [depot+8];
  add.s32 %r4, %r4, %r5;
)";
  auto o = run_snippet(body, {40, 2});
  EXPECT_EQ(o.r, 42u);
}

TEST(MemoryOps, AtomicsReturnTheOldValue) {
  auto o = run_snippet("st.global.u32 [%rd8+40], %r1;\n atom.global.add.u32 %r5, [%rd8+40], %r2;\n"
                       "ld.global.u32 %r6, [%rd8+40];\n mad.lo.s32 %r4, %r5, 1000, %r6;",
                       {7, 5});
  EXPECT_EQ(o.r, 7u * 1000 + 12);
  o = run_snippet("st.global.u32 [%rd8+40], %r1;\n atom.global.cas.b32 %r5, [%rd8+40], %r1, %r2;\n"
                  "ld.global.u32 %r4, [%rd8+40];",
                  {7, 9});
  EXPECT_EQ(o.r, 9u);
  o = run_snippet("st.global.u32 [%rd8+40], %r1;\n atom.global.inc.u32 %r5, [%rd8+40], %r2;\n"
                  "ld.global.u32 %r4, [%rd8+40];",
                  {5, 5});
  EXPECT_EQ(o.r, 0u); // inc wraps to 0 when old >= limit
  o = run_snippet("st.global.u32 [%rd8+40], %r1;\n atom.global.dec.u32 %r5, [%rd8+40], %r2;\n"
                  "ld.global.u32 %r4, [%rd8+40];",
                  {0, 5});
  EXPECT_EQ(o.r, 5u);
  o = run_snippet("st.global.u32 [%rd8+40], %r1;\n atom.global.max.s32 %r5, [%rd8+40], %r2;\n"
                  "ld.global.u32 %r4, [%rd8+40];",
                  {static_cast<std::uint32_t>(-4), static_cast<std::uint32_t>(-9)});
  EXPECT_EQ(static_cast<std::int32_t>(o.r), -4);
  o = run_snippet("st.global.f32 [%rd8+40], %f1;\n red.global.add.f32 [%rd8+40], %f2;\n"
                  "ld.global.f32 %f4, [%rd8+40];",
                  {fbits(1.5f), fbits(2.0f)});
  EXPECT_EQ(o.f, 3.5f);
  o = run_snippet("st.global.u64 [%rd8+40], %rd1;\n atom.global.exch.b64 %rd5, [%rd8+40], %rd2;\n"
                  "ld.global.u64 %rd4, [%rd8+40];\n sub.s64 %rd4, %rd4, %rd5;",
                  {0, 0, 0, 10, 25});
  EXPECT_EQ(o.rd, 15u);
}

TEST(MemoryOps, SharedMemoryAtomicsAcrossAWarp) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b8 counter[4];
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd2, counter;
  atom.shared.add.u32 %r2, [%rd2], 1;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  ld.shared.u32 %r3, [counter];
  st.global.u32 [%rd1], %r3;
DONE:
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(1, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{100, 1, 1}, out);
  EXPECT_EQ(h.read<std::uint32_t>(out)[0], 100u);
}

TEST(MemoryOps, MisalignedAccessIsReportedUnderMemcheck) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.global.u32 %r1, [%rd1+2];
  ret;
}
)";
  ContextOptions o;
  o.settings.memcheck = true;
  EmuHarness h(ptx, Language::ptx, o);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(4, 0));
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, out);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_NE(std::string(e.what()).find("misaligned 4-byte access"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("PTX line 10"), std::string::npos) << e.what();
  }
}

TEST(MemoryOps, SharedOutOfBoundsIsAFault) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .shared .align 4 .b8 s[64];
  .reg .b32 %r<2>;
  mov.u32 %r1, 1;
  st.shared.u32 [s+64], %r1;
  ret;
}
)";
  EmuHarness h(ptx);
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(
        std::string(e.what()).find("out-of-bounds shared write of 4 bytes at shared offset 64"),
        std::string::npos)
        << e.what();
  }
}

// cp.async copies src-size bytes and zero-fills the rest of cp-size; with src-size 0 or ignore-src
// true the source is not read at all, so a pointer past the end is no fault.
TEST(MemoryOps, AsyncCopyZeroFillsPastSrcSize) {
  const char* body = R"(
  .shared .align 16 .b8 sm[48];
  mov.u32 %r5, sm;
  st.shared.v4.u32 [sm], {%r3, %r3, %r3, %r3};
  st.shared.v4.u32 [sm+16], {%r3, %r3, %r3, %r3};
  st.shared.v4.u32 [sm+32], {%r3, %r3, %r3, %r3};
  cp.async.ca.shared.global [%r5], [%rd9], 8, 5;
  setp.eq.u32 %p1, %r3, 0xffffffff;
  cp.async.cg.shared.global [sm+16], [%rd9+1048576], 16, %p1;
  cp.async.ca.shared.global [%r5+32], [%rd9+1048576], 4, 0;
  cp.async.ca.shared.global [%r5+40], [%rd9], 4;
  cp.async.commit_group;
  cp.async.wait_group 0;
  cp.async.wait_all;
  ld.shared.u64 %rd4, [sm];
  ld.shared.v4.u32 {%r4, %r6, %r7, %r8}, [sm+16];
  or.b32 %r4, %r4, %r6;
  or.b32 %r4, %r4, %r7;
  or.b32 %r4, %r4, %r8;
  ld.shared.u32 %r6, [sm+32];
  or.b32 %r4, %r4, %r6;
  ld.shared.u32 %r6, [sm+36];
  ld.shared.u32 %r7, [sm+40];
  setp.eq.u32 %p3, %r6, %r3;
  setp.eq.and.u32 %p3, %r7, %r1, %p3;
)";
  auto o = run_snippet(body, {0x44332211u, 0x88776655u, 0xffffffffu});
  EXPECT_EQ(o.rd, 0x0000005544332211ull); // 5 bytes copied, 3 zeroed
  EXPECT_EQ(o.r, 0u);                     // ignore-src and src-size 0: zeros, no fault
  EXPECT_EQ(o.p, 1u);                     // bytes past cp-size untouched; the plain form copies
}

TEST(MemoryOps, AsyncCopyFromOutsideAnAllocationIsAFault) {
  EXPECT_THROW(run_snippet(R"(
  .shared .align 16 .b8 sm[16];
  cp.async.cg.shared.global [sm], [%rd9+1048576], 16, 4;
)",
                           {}),
               Error);
}

TEST(MemoryOps, IsspacepTellsTheWindow) {
  const char* body = R"(
  .shared .align 4 .b8 sm[4];
  .local .align 4 .b8 depot[4];
  mov.u64 %rd5, sm;
  cvta.shared.u64 %rd5, %rd5;
  mov.u64 %rd6, depot;
  cvta.local.u64 %rd6, %rd6;
  isspacep.shared %p1, %rd5;
  selp.u32 %r4, 1, 0, %p1;
  isspacep.global %p1, %rd9;
  selp.u32 %r5, 2, 0, %p1;
  or.b32 %r4, %r4, %r5;
  isspacep.local %p1, %rd6;
  selp.u32 %r5, 4, 0, %p1;
  or.b32 %r4, %r4, %r5;
  isspacep.global %p1, %rd5;
  selp.u32 %r5, 8, 0, %p1;
  or.b32 %r4, %r4, %r5;
  isspacep.shared::cta %p1, %rd9;
  selp.u32 %r5, 16, 0, %p1;
  or.b32 %r4, %r4, %r5;
  isspacep.const %p1, %rd9;
  selp.u32 %r5, 32, 0, %p1;
  or.b32 %r4, %r4, %r5;
)";
  EXPECT_EQ(run_snippet(body, {}).r, 7u);
}

} // namespace
} // namespace gpurun::test
