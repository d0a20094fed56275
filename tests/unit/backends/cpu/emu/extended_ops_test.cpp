// Carry chains, 24-bit multiplies, byte dot products, packed halves, redux.sync and named
// barriers with thread counts, on hand-written PTX.
#include <gtest/gtest.h>

#include "unit/backends/cpu/emu/instruction_harness.hpp"

namespace gpurun::test {
namespace {

std::uint32_t r32(const std::string& body, std::uint32_t a, std::uint32_t b = 0,
                  std::uint32_t c = 0) {
  return run_snippet(body, SnippetInputs{a, b, c}).r;
}

TEST(ExtendedOps, CarryChains) {
  // The carry of the low word lands in the high word.
  const char* add = "add.cc.u32 %r5, %r1, %r2;\n addc.u32 %r4, %r3, 0;";
  EXPECT_EQ(r32(add, 0xffffffffu, 1, 7), 8u);
  EXPECT_EQ(r32(add, 1, 1, 7), 7u);
  // Three words: the carry ripples through addc.cc.
  const char* three =
      "add.cc.u32 %r5, %r1, %r2;\n addc.cc.u32 %r6, %r1, 0;\n addc.u32 %r4, %r3, 0;";
  EXPECT_EQ(r32(three, 0xffffffffu, 1, 40), 41u);
  EXPECT_EQ(r32(three, 0xfffffffeu, 1, 40), 40u);
  // addc without .cc keeps the flag: a second addc sees the same carry.
  EXPECT_EQ(r32("add.cc.u32 %r5, %r1, %r2;\n addc.u32 %r6, 0, 0;\n addc.u32 %r4, %r3, %r6;",
                0xffffffffu, 1, 5),
            7u);
  // Borrow.
  const char* sub = "sub.cc.u32 %r5, %r1, %r2;\n subc.u32 %r4, %r3, 0;";
  EXPECT_EQ(r32(sub, 1, 2, 10), 9u);
  EXPECT_EQ(r32(sub, 3, 2, 10), 10u);
  EXPECT_EQ(r32("sub.cc.u32 %r4, %r1, %r2;", 3, 5), 0xfffffffeu);
  // 64-bit carry out.
  auto o = run_snippet("add.cc.u64 %rd5, %rd1, %rd2;\n addc.u32 %r4, 0, 0;", {0, 0, 0, ~0ull, 1});
  EXPECT_EQ(o.r, 1u);
  o = run_snippet("add.cc.u64 %rd4, %rd1, %rd2;\n addc.u32 %r4, 0, 0;", {0, 0, 0, 5, 6});
  EXPECT_EQ(o.r, 0u);
  EXPECT_EQ(o.rd, 11u);
}

TEST(ExtendedOps, MadWithCarryChains) {
  // A 64-bit product from 32-bit halves, as libdevice's argument reduction computes it:
  // 0xffffffff * 0xffffffff + 0xffffffff = 0xffffffff'00000000.
  const char* lo = "mad.lo.cc.u32 %r5, %r1, %r2, %r3;\n madc.hi.u32 %r4, %r1, %r2, 0;";
  EXPECT_EQ(r32(lo, 0xffffffffu, 0xffffffffu, 0xffffffffu), 0xffffffffu);
  EXPECT_EQ(r32("mad.lo.cc.u32 %r4, %r1, %r2, %r3;", 0x10000u, 0x10000u, 5), 5u);
  // The carry of mad.lo.cc reaches madc: 3 * 0x80000000 + 0x80000000 = 0x2'00000000.
  EXPECT_EQ(r32("mad.lo.cc.u32 %r5, %r1, %r2, %r3;\n madc.hi.cc.u32 %r4, %r1, %r2, 0;", 3,
                0x80000000u, 0x80000000u),
            2u);
  // madc.lo without .cc keeps the flag for the next addc.
  EXPECT_EQ(r32("add.cc.u32 %r5, %r1, %r1;\n madc.lo.u32 %r6, %r2, %r2, 0;\n"
                " addc.u32 %r4, %r3, 0;",
                0x80000000u, 3, 10),
            11u);
  // Signed high half: -2 * 3 = -6, high word all ones.
  EXPECT_EQ(r32("mad.hi.cc.s32 %r4, %r1, %r2, 0;", 0xfffffffeu, 3), 0xffffffffu);
  // (2^64-1)^2 >> 64 = 2^64-2, plus 1: no carry out.
  auto o = run_snippet("mad.hi.cc.u64 %rd4, %rd1, %rd2, 1;\n addc.u32 %r4, 0, 0;",
                       {0, 0, 0, ~0ull, ~0ull});
  EXPECT_EQ(o.rd, ~0ull);
  EXPECT_EQ(o.r, 0u);
}

TEST(ExtendedOps, Mul24AndMad24) {
  // Only the low 24 bits of each operand count.
  EXPECT_EQ(r32("mul24.lo.u32 %r4, %r1, %r2;", 0x01000003u, 5), 15u);
  EXPECT_EQ(r32("mul24.hi.u32 %r4, %r1, %r2;", 0xffffffu, 0xffffffu), 0xfffffe00u);
  // Signed: 0xfffffe is -2 in 24 bits.
  EXPECT_EQ(r32("mad24.lo.s32 %r4, %r1, %r2, %r3;", 0x00fffffeu, 3, 10), 4u);
  EXPECT_EQ(r32("mad24.hi.u32 %r4, %r1, %r2, %r3;", 0xffffffu, 0xffffffu, 1), 0xfffffe01u);
}

TEST(ExtendedOps, DotProducts) {
  EXPECT_EQ(r32("dp4a.u32.u32 %r4, %r1, %r2, %r3;", 0x01020304u, 0x01010101u, 100), 110u);
  // Signed bytes: 0xff is -1.
  EXPECT_EQ(r32("dp4a.s32.s32 %r4, %r1, %r2, %r3;", 0x000000ffu, 0x00000002u, 0),
            static_cast<std::uint32_t>(-2));
  EXPECT_EQ(r32("dp4a.u32.s32 %r4, %r1, %r2, %r3;", 0x000000ffu, 0x000000ffu, 0),
            static_cast<std::uint32_t>(-255));
  // dp2a: halves (3, 2) of a times bytes (1, 2) (.lo) or (3, 4) (.hi) of b.
  EXPECT_EQ(r32("dp2a.lo.u32.u32 %r4, %r1, %r2, %r3;", 0x00020003u, 0x04030201u, 1000), 1007u);
  EXPECT_EQ(r32("dp2a.hi.u32.u32 %r4, %r1, %r2, %r3;", 0x00020003u, 0x04030201u, 1000), 1017u);
}

TEST(ExtendedOps, FindNthSet) {
  const char* fns = "fns.b32 %r4, %r1, %r2, %r3;";
  const std::uint32_t mask = 0b10110; // bits 1, 2, 4
  EXPECT_EQ(r32(fns, mask, 0, 1), 1u);
  EXPECT_EQ(r32(fns, mask, 0, 2), 2u);
  EXPECT_EQ(r32(fns, mask, 0, 3), 4u);
  EXPECT_EQ(r32(fns, mask, 0, 4), 0xffffffffu);
  EXPECT_EQ(r32(fns, mask, 4, static_cast<std::uint32_t>(-2)), 2u); // downwards from bit 4
  EXPECT_EQ(r32(fns, mask, 2, 0), 2u);
  EXPECT_EQ(r32(fns, mask, 3, 0), 0xffffffffu);
}

TEST(ExtendedOps, PackedHalves) {
  // f16: 1.0 = 0x3c00, 2.0 = 0x4000, 0.5 = 0x3800, 0.25 = 0x3400, 1.5 = 0x3e00, 2.25 = 0x4080.
  EXPECT_EQ(r32("add.f16x2 %r4, %r1, %r2;", 0x40003c00u, 0x34003800u), 0x40803e00u);
  EXPECT_EQ(r32("add.rn.f16x2 %r4, %r1, %r2;", 0x40003c00u, 0x34003800u), 0x40803e00u);
  EXPECT_EQ(r32("sub.f16x2 %r4, %r1, %r2;", 0x40003c00u, 0x3c003800u), 0x3c003800u);
  EXPECT_EQ(r32("mul.f16x2 %r4, %r1, %r2;", 0x40003c00u, 0x34004000u), 0x38004000u);
  // (1*2+0.5, 2*0.25+1) = (2.5, 1.5); 2.5 = 0x4100.
  EXPECT_EQ(r32("fma.rn.f16x2 %r4, %r1, %r2, %r3;", 0x40003c00u, 0x34004000u, 0x3c003800u),
            0x3e004100u);
  EXPECT_EQ(r32("neg.f16x2 %r4, %r1;", 0xc0003c00u), 0x4000bc00u);
  EXPECT_EQ(r32("abs.f16x2 %r4, %r1;", 0xc0003c00u), 0x40003c00u);
  EXPECT_EQ(r32("min.f16x2 %r4, %r1, %r2;", 0x3c004000u, 0x40003c00u), 0x3c003c00u);
  EXPECT_EQ(r32("max.f16x2 %r4, %r1, %r2;", 0x3c004000u, 0x40003c00u), 0x40004000u);
  // .sat clamps each half to [0, 1]: 0.75 + 0.75 -> 1.0; -1 + 0.5 -> 0.
  EXPECT_EQ(r32("add.sat.f16x2 %r4, %r1, %r2;", 0xbc003a00u, 0x38003a00u), 0x00003c00u);
  // bf16: 1.0 = 0x3f80, 2.0 = 0x4000, 3.0 = 0x4040.
  EXPECT_EQ(r32("add.bf16x2 %r4, %r1, %r2;", 0x3f804000u, 0x40003f80u), 0x40404040u);
  EXPECT_EQ(r32("fma.rn.bf16x2 %r4, %r1, %r2, %r3;", 0x3f804000u, 0x40003f80u, 0x3f803f80u),
            0x40404040u);
}

TEST(ExtendedOps, PackAndUnpackHalves) {
  // cvt.rn.f16x2.f32 d, a, b puts a in the high half.
  EXPECT_EQ(r32("cvt.rn.f16x2.f32 %r4, %f1, %f2;", fbits(1.0f), fbits(2.0f)), 0x3c004000u);
  EXPECT_EQ(r32("cvt.rn.bf16x2.f32 %r4, %f1, %f2;", fbits(1.0f), fbits(2.0f)), 0x3f804000u);
  // mov.b32 {lo, hi} unpacks; packing them back in the other order swaps the halves.
  EXPECT_EQ(r32("mov.b32 {%rs1, %rs2}, %r1;\n mov.b32 %r4, {%rs2, %rs1};", 0x11112222u),
            0x22221111u);
}

// 32 threads: out[tid] = redux.sync.<op> over in[tid] for the whole warp.
std::vector<std::uint32_t> redux_warp(const std::string& op, const std::vector<std::uint32_t>& v) {
  std::string ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  redux.sync.)" + op +
                    R"( %r3, %r2, -1;
  add.s64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r3;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& in = h.buffer(v);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out, in);
  return h.read<std::uint32_t>(out);
}

TEST(ExtendedOps, ReduxSync) {
  std::vector<std::uint32_t> v(32);
  for (int i = 0; i < 32; ++i)
    v[i] = static_cast<std::uint32_t>(i * 3 - 40); // -40 .. 53
  auto all = [](const std::vector<std::uint32_t>& r, std::uint32_t x) {
    for (auto e : r)
      if (e != x)
        return false;
    return true;
  };
  EXPECT_TRUE(all(redux_warp("add.u32", v), static_cast<std::uint32_t>(3 * 496 - 40 * 32)));
  EXPECT_TRUE(all(redux_warp("min.s32", v), static_cast<std::uint32_t>(-40)));
  EXPECT_TRUE(all(redux_warp("max.s32", v), 53u));
  EXPECT_TRUE(all(redux_warp("min.u32", v), 2u)); // -40, -37 … are huge unsigned; 2 is i = 14
  EXPECT_TRUE(all(redux_warp("max.u32", v), static_cast<std::uint32_t>(-1)));
  std::uint32_t a = ~0u, o = 0, x = 0;
  for (auto e : v) {
    a &= e;
    o |= e;
    x ^= e;
  }
  EXPECT_TRUE(all(redux_warp("and.b32", v), a));
  EXPECT_TRUE(all(redux_warp("or.b32", v), o));
  EXPECT_TRUE(all(redux_warp("xor.b32", v), x));
}

// Warp 0 waits at barrier 1 for 64 threads; warp 1 writes shared memory and only arrives there.
// The emulator runs warp 0 first, so a barrier that did not wait would read zeros.
TEST(ExtendedOps, NamedBarrierWithThreadCountAndArrive) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 buf[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, buf;
  add.u32 %r4, %r4, %r3;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra CONSUMER;
  add.u32 %r5, %r1, 1000;
  st.shared.u32 [%r4], %r5;
  bar.arrive 1, 64;
  ret;
CONSUMER:
  barrier.sync.aligned 1, 64;
  ld.shared.u32 %r5, [%r4];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)";
  EmuHarness h(ptx);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(32, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{64, 1, 1}, out);
  auto r = h.read<std::uint32_t>(out);
  for (std::uint32_t i = 0; i < 32; ++i)
    EXPECT_EQ(r[i], 1032 + i) << i;
}

TEST(ExtendedOps, BarrierThreadCountMustBeAWarpMultiple) {
  const char* ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  bar.sync 2, 48;
  ret;
}
)";
  EmuHarness h(ptx);
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{64, 1, 1});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_NE(std::string(e.what()).find("thread count of 48"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace gpurun::test
