// Integer and bit instructions on hand-written PTX, with the edge cases PTX defines.
#include <gtest/gtest.h>

#include "unit/backends/cpu/emu/instruction_harness.hpp"

namespace gpurun::test {
namespace {

std::uint32_t r32(const std::string& body, std::uint32_t a, std::uint32_t b = 0,
                  std::uint32_t c = 0) {
  return run_snippet(body, SnippetInputs{a, b, c}).r;
}

TEST(IntegerOps, AddSubMulWrap) {
  EXPECT_EQ(r32("add.s32 %r4, %r1, %r2;", 0x7fffffff, 1), 0x80000000u);
  EXPECT_EQ(r32("sub.u32 %r4, %r1, %r2;", 1, 2), 0xffffffffu);
  EXPECT_EQ(r32("mul.lo.s32 %r4, %r1, %r2;", 0x10000, 0x10001), 0x10000u);
  EXPECT_EQ(r32("mul.hi.u32 %r4, %r1, %r2;", 0x80000000u, 4), 2u);
  EXPECT_EQ(r32("mul.hi.s32 %r4, %r1, %r2;", static_cast<std::uint32_t>(-2), 0x40000000),
            0xffffffffu);
  EXPECT_EQ(r32("mad.lo.s32 %r4, %r1, %r2, %r3;", 3, 4, 5), 17u);
  EXPECT_EQ(r32("add.sat.s32 %r4, %r1, %r2;", 0x7fffffff, 5), 0x7fffffffu);
}

TEST(IntegerOps, WideMultiplies) {
  auto o =
      run_snippet("mul.wide.s32 %rd4, %r1, %r2;", {static_cast<std::uint32_t>(-3), 0x40000000});
  EXPECT_EQ(static_cast<std::int64_t>(o.rd), -3LL * 0x40000000LL);
  o = run_snippet("mul.wide.u32 %rd4, %r1, %r2;", {0xffffffffu, 0xffffffffu});
  EXPECT_EQ(o.rd, 0xfffffffe00000001ull);
  o = run_snippet("mad.wide.u32 %rd4, %r1, %r2, %rd1;", {0x10000, 0x10000, 0, 5});
  EXPECT_EQ(o.rd, 0x100000005ull);
}

TEST(IntegerOps, DivisionByZeroDoesNotCrash) {
  EXPECT_EQ(r32("div.u32 %r4, %r1, %r2;", 7, 0), 0xffffffffu);
  EXPECT_EQ(r32("rem.u32 %r4, %r1, %r2;", 7, 0), 7u);
  EXPECT_EQ(r32("div.s32 %r4, %r1, %r2;", 0x80000000u, static_cast<std::uint32_t>(-1)),
            0x80000000u);
  EXPECT_EQ(r32("rem.s32 %r4, %r1, %r2;", 0x80000000u, static_cast<std::uint32_t>(-1)), 0u);
  EXPECT_EQ(r32("div.s32 %r4, %r1, %r2;", static_cast<std::uint32_t>(-7), 2),
            static_cast<std::uint32_t>(-3));
  EXPECT_EQ(r32("rem.s32 %r4, %r1, %r2;", static_cast<std::uint32_t>(-7), 2),
            static_cast<std::uint32_t>(-1));
  auto o = run_snippet("div.u64 %rd4, %rd1, %rd2;", {0, 0, 0, 9, 0});
  EXPECT_EQ(o.rd, ~0ull);
}

TEST(IntegerOps, ShiftsClampPastWidth) {
  EXPECT_EQ(r32("shl.b32 %r4, %r1, %r2;", 1, 31), 0x80000000u);
  EXPECT_EQ(r32("shl.b32 %r4, %r1, %r2;", 1, 32), 0u);
  EXPECT_EQ(r32("shr.u32 %r4, %r1, %r2;", 0x80000000u, 40), 0u);
  EXPECT_EQ(r32("shr.s32 %r4, %r1, %r2;", 0x80000000u, 40), 0xffffffffu);
  EXPECT_EQ(r32("shr.s32 %r4, %r1, 4;", 0x80000000u), 0xf8000000u);
}

TEST(IntegerOps, MinMaxAbsNeg) {
  EXPECT_EQ(r32("min.s32 %r4, %r1, %r2;", static_cast<std::uint32_t>(-1), 1), 0xffffffffu);
  EXPECT_EQ(r32("min.u32 %r4, %r1, %r2;", static_cast<std::uint32_t>(-1), 1), 1u);
  EXPECT_EQ(r32("max.s32 %r4, %r1, -3;", static_cast<std::uint32_t>(-5)),
            static_cast<std::uint32_t>(-3));
  EXPECT_EQ(r32("abs.s32 %r4, %r1;", static_cast<std::uint32_t>(-5)), 5u);
  EXPECT_EQ(r32("abs.s32 %r4, %r1;", 0x80000000u), 0x80000000u);
  EXPECT_EQ(r32("neg.s32 %r4, %r1;", 5), static_cast<std::uint32_t>(-5));
}

TEST(IntegerOps, BitOperations) {
  EXPECT_EQ(r32("and.b32 %r4, %r1, %r2;", 0xff00ff00u, 0x0ff00ff0u), 0x0f000f00u);
  EXPECT_EQ(r32("or.b32 %r4, %r1, %r2;", 0xf0, 0x0f), 0xffu);
  EXPECT_EQ(r32("xor.b32 %r4, %r1, %r2;", 0xff, 0x0f), 0xf0u);
  EXPECT_EQ(r32("not.b32 %r4, %r1;", 0), 0xffffffffu);
  EXPECT_EQ(r32("cnot.b32 %r4, %r1;", 0), 1u);
  EXPECT_EQ(r32("cnot.b32 %r4, %r1;", 7), 0u);
  EXPECT_EQ(r32("popc.b32 %r4, %r1;", 0xf0f0f0f0u), 16u);
  EXPECT_EQ(r32("clz.b32 %r4, %r1;", 1), 31u);
  EXPECT_EQ(r32("clz.b32 %r4, %r1;", 0), 32u);
  EXPECT_EQ(r32("brev.b32 %r4, %r1;", 1), 0x80000000u);
  EXPECT_EQ(r32("bfe.u32 %r4, %r1, 4, 8;", 0x12345678u), 0x67u);
  EXPECT_EQ(r32("bfe.s32 %r4, %r1, 4, 8;", 0x12345f78u), 0xfffffff7u);
  EXPECT_EQ(r32("bfi.b32 %r4, %r1, %r2, 8, 8;", 0xab, 0x11111111u), 0x1111ab11u);
  EXPECT_EQ(r32("prmt.b32 %r4, %r1, %r2, %r3;", 0x03020100u, 0x07060504u, 0x4321), 0x04030201u);
  auto o = run_snippet("popc.b64 %r4, %rd1;", {0, 0, 0, ~0ull});
  EXPECT_EQ(o.r, 64u);
}

TEST(IntegerOps, SelpAndSlct) {
  EXPECT_EQ(r32("setp.lt.s32 %p1, %r1, %r2;\n selp.b32 %r4, 10, 20, %p1;", 1, 2), 10u);
  EXPECT_EQ(r32("setp.lt.s32 %p1, %r1, %r2;\n selp.b32 %r4, 10, 20, %p1;", 3, 2), 20u);
  EXPECT_EQ(r32("slct.u32.s32 %r4, 10, 20, %r1;", static_cast<std::uint32_t>(-1)), 20u);
  EXPECT_EQ(r32("slct.u32.s32 %r4, 10, 20, %r1;", 0), 10u);
}

TEST(IntegerOps, MovPacksAndUnpacks) {
  auto o = run_snippet("mov.b64 %rd4, {%r1, %r2};", {0x11111111u, 0x22222222u});
  EXPECT_EQ(o.rd, 0x2222222211111111ull);
  EXPECT_EQ(r32("mov.b64 {%r5, %r4}, %rd1;", 0, 0, 0), 0u);
  o = run_snippet("mov.b64 {%r5, %r4}, %rd1;", {0, 0, 0, 0xaaaaaaaabbbbbbbbull});
  EXPECT_EQ(o.r, 0xaaaaaaaau);
}

TEST(IntegerOps, PredicateLogic) {
  auto o = run_snippet("setp.eq.u32 %p1, %r1, 1;\n setp.eq.u32 %p2, %r2, 1;\n"
                       "and.pred %p3, %p1, %p2;",
                       {1, 1});
  EXPECT_EQ(o.p, 1u);
  o = run_snippet("setp.eq.u32 %p1, %r1, 1;\n setp.eq.u32 %p2, %r2, 1;\n"
                  "xor.pred %p3, %p1, %p2;",
                  {1, 1});
  EXPECT_EQ(o.p, 0u);
  o = run_snippet("setp.eq.u32 %p1, %r1, 1;\n not.pred %p3, %p1;", {0});
  EXPECT_EQ(o.p, 1u);
}

TEST(IntegerOps, CompareCombinations) {
  auto o = run_snippet("setp.eq.u32 %p1, %r3, 1;\n setp.lt.u32.and %p3, %r1, %r2, %p1;", {1, 2, 0});
  EXPECT_EQ(o.p, 0u);
  o = run_snippet("setp.eq.u32 %p1, %r3, 1;\n setp.lt.u32.or %p3, %r1, %r2, !%p1;", {5, 2, 0});
  EXPECT_EQ(o.p, 1u);
  o = run_snippet("setp.lt.u32 %p3|%p2, %r1, %r2;\n mov.pred %p3, %p2;", {1, 2});
  EXPECT_EQ(o.p, 0u);
  o = run_snippet("setp.lo.u32 %p3, %r1, %r2;", {0xffffffffu, 1});
  EXPECT_EQ(o.p, 0u);
  o = run_snippet("setp.lt.s32 %p3, %r1, %r2;", {0xffffffffu, 1});
  EXPECT_EQ(o.p, 1u);
}

TEST(IntegerOps, UnsupportedInstructionIsADecodeError) {
  try {
    (void)run_snippet("bmsk.clamp.b32 %r4, %r1, %r2;", {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    EXPECT_NE(std::string(e.what()).find("unsupported PTX instruction 'bmsk.clamp.b32'"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("line"), std::string::npos);
  }
}

TEST(IntegerOps, AnInstructionWithoutOperandsIsADecodeError) {
  // Found by the ptx_module fuzz target: the selectors took a first operand for granted.
  for (const char* snippet : {"add.s32;", "mov.u32;", "setp.eq.s32;", "ld.global.u32;",
                              "shfl.sync.idx.b32;", "cvt.rn.f32.s32;"}) {
    try {
      (void)run_snippet(snippet, {});
      FAIL() << "expected an error for " << snippet;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::device) << snippet;
      EXPECT_NE(std::string(e.what()).find("unsupported PTX instruction"), std::string::npos)
          << e.what();
    }
  }
}

} // namespace
} // namespace gpurun::test

namespace gpurun::test {
namespace {

TEST(IntegerOps, FunnelShiftAndLop3) {
  // shf.l: high word of (b:a) << n; rotate-left when a == b.
  EXPECT_EQ(run_snippet("shf.l.wrap.b32 %r4, %r1, %r1, %r2;", {0x80000001u, 4}).r, 0x00000018u);
  // clamp: amounts past 32 shift by 32, leaving b.
  EXPECT_EQ(run_snippet("shf.r.clamp.b32 %r4, %r1, %r2, %r3;", {0, 1, 40}).r, 1u);
  EXPECT_EQ(run_snippet("shf.r.wrap.b32 %r4, %r1, %r2, %r3;", {0x10, 0x1, 36}).r, 0x10000001u);
  // 0xE8 is the majority function; 0x96 is a ^ b ^ c.
  EXPECT_EQ(run_snippet("lop3.b32 %r4, %r1, %r2, %r3, 0xE8;", {0b1100, 0b1010, 0b0110}).r, 0b1110u);
  EXPECT_EQ(run_snippet("lop3.b32 %r4, %r1, %r2, %r3, 0x96;", {0b1100, 0b1010, 0b0110}).r, 0b0000u);
}

} // namespace
} // namespace gpurun::test
