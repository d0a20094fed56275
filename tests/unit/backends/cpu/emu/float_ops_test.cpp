// Floating-point, conversion and comparison instructions on hand-written PTX.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/emu/numeric.hpp"
#include "unit/backends/cpu/emu/instruction_harness.hpp"

namespace gpurun::test {
namespace {

float f32(const std::string& body, float a, float b = 0, float c = 0) {
  return run_snippet(body, SnippetInputs{fbits(a), fbits(b), fbits(c)}).f;
}
double f64(const std::string& body, double x, double y = 0) {
  return run_snippet(body, SnippetInputs{0, 0, 0, dbits(x), dbits(y)}).fd;
}

TEST(FloatOps, BasicArithmetic) {
  EXPECT_EQ(f32("add.f32 %f4, %f1, %f2;", 1.5f, 2.25f), 3.75f);
  EXPECT_EQ(f32("sub.f32 %f4, %f1, %f2;", 1.5f, 2.25f), -0.75f);
  EXPECT_EQ(f32("mul.rn.f32 %f4, %f1, %f2;", 3.0f, -2.0f), -6.0f);
  EXPECT_EQ(f32("div.rn.f32 %f4, %f1, %f2;", 1.0f, 3.0f), 1.0f / 3.0f);
  EXPECT_EQ(f32("sqrt.rn.f32 %f4, %f1;", 2.0f), std::sqrt(2.0f));
  EXPECT_EQ(f64("div.rn.f64 %fd4, %fd1, %fd2;", 1.0, 3.0), 1.0 / 3.0);
  EXPECT_EQ(f64("sqrt.rn.f64 %fd4, %fd1;", 2.0), std::sqrt(2.0));
  EXPECT_EQ(f32("add.f32 %f4, %f1, 0f3F800000;", 1.0f), 2.0f);
}

TEST(FloatOps, FmaIsFused) {
  // a*b+c where the product's rounding would lose the answer: 1+2^-12 squared minus (1+2^-11).
  float a = 1.0f + std::ldexp(1.0f, -12);
  float c = -(1.0f + std::ldexp(1.0f, -11));
  EXPECT_EQ(f32("fma.rn.f32 %f4, %f1, %f2, %f3;", a, a, c), std::ldexp(1.0f, -24));
  EXPECT_EQ(f32("mul.rn.f32 %f5, %f1, %f2;\n add.rn.f32 %f4, %f5, %f3;", a, a, c), 0.0f);
}

// fma.rn.f32 in every .ftz/.sat form over every triple of edge values, one thread per triple:
// the handler the decoder picks (one FMA3 instruction where the processor has it) against the
// numeric library's own fma.
TEST(FloatOps, FmaFormsAgreeWithTheNumericLibrary) {
  const std::vector<std::uint32_t> edges = {
      0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000,
      0x3f800800, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00001,
      0xffa00000, 0x33800000, 0x4b800001, 0x1e3ce508};
  const std::size_t n = edges.size();
  std::vector<std::uint32_t> a, b, c;
  for (std::uint32_t x : edges)
    for (std::uint32_t y : edges)
      for (std::uint32_t z : edges) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
      }
  const std::size_t count = a.size();
  EmuHarness h(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 po, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<8>;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r1, %r1, %r2, %r3;
  ld.param.u32 %r2, [n];
  setp.ge.u32 %p1, %r1, %r2;
  @%p1 bra done;
  mul.wide.u32 %rd1, %r1, 4;
  ld.param.u64 %rd2, [pa];
  add.s64 %rd2, %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  ld.param.u64 %rd3, [pb];
  add.s64 %rd3, %rd3, %rd1;
  ld.global.f32 %f2, [%rd3];
  ld.param.u64 %rd4, [pc];
  add.s64 %rd4, %rd4, %rd1;
  ld.global.f32 %f3, [%rd4];
  mul.wide.u32 %rd5, %r1, 16;
  ld.param.u64 %rd6, [po];
  add.s64 %rd6, %rd6, %rd5;
  fma.rn.f32 %f4, %f1, %f2, %f3;
  fma.rn.ftz.f32 %f5, %f1, %f2, %f3;
  fma.rn.sat.f32 %f6, %f1, %f2, %f3;
  fma.rn.ftz.sat.f32 %f7, %f1, %f2, %f3;
  st.global.v4.f32 [%rd6], {%f4, %f5, %f6, %f7};
done:
  ret;
}
)");
  Buffer& ba = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& bc = h.buffer(c);
  Buffer& out = h.buffer(std::vector<std::uint32_t>(4 * count));
  const auto blocks = static_cast<std::uint32_t>((count + 127) / 128);
  h.run("k", Dim3{blocks, 1, 1}, Dim3{128, 1, 1}, ba, bb, bc, out,
        static_cast<std::uint32_t>(count));
  const auto r = h.read<std::uint32_t>(out);
  namespace nm = emu::numeric;
  std::size_t differ = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const nm::FpMode modes[4] = {{nm::Round::rn, false, false},
                                 {nm::Round::rn, true, false},
                                 {nm::Round::rn, false, true},
                                 {nm::Round::rn, true, true}};
    for (int m = 0; m < 4; ++m) {
      const float want = nm::fma(std::bit_cast<float>(a[i]), std::bit_cast<float>(b[i]),
                                 std::bit_cast<float>(c[i]), modes[m]);
      if (r[4 * i + m] != std::bit_cast<std::uint32_t>(want) && differ++ < 5)
        ADD_FAILURE() << std::hex << "fma form " << m << " of " << a[i] << " " << b[i] << " "
                      << c[i] << ": " << r[4 * i + m] << " vs "
                      << std::bit_cast<std::uint32_t>(want);
    }
  }
  EXPECT_EQ(differ, 0u) << "of " << 4 * count << " (" << n << "^3 triples)";
}

TEST(FloatOps, RoundingModesOnAdd) {
  float one = 1.0f, tiny = std::ldexp(1.0f, -30);
  EXPECT_EQ(f32("add.rn.f32 %f4, %f1, %f2;", one, tiny), 1.0f);
  EXPECT_EQ(f32("add.rp.f32 %f4, %f1, %f2;", one, tiny), std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(f32("add.rz.f32 %f4, %f1, %f2;", one, -tiny), std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(f32("add.rm.f32 %f4, %f1, %f2;", one, -tiny), std::nextafter(1.0f, 0.0f));
}

TEST(FloatOps, MinMaxAbsNegNaNRules) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(f32("min.f32 %f4, %f1, %f2;", nan, 2.0f), 2.0f);
  EXPECT_EQ(f32("max.f32 %f4, %f1, %f2;", -1.0f, nan), -1.0f);
  EXPECT_TRUE(std::isnan(f32("max.NaN.f32 %f4, %f1, %f2;", -1.0f, nan)));
  EXPECT_EQ(f32("abs.f32 %f4, %f1;", -3.0f), 3.0f);
  EXPECT_EQ(f32("neg.f32 %f4, %f1;", 3.0f), -3.0f);
  EXPECT_TRUE(std::signbit(f32("min.f32 %f4, %f1, %f2;", 0.0f, -0.0f)));
}

TEST(FloatOps, FtzFlushesSubnormals) {
  float sub = std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(f32("add.f32 %f4, %f1, %f2;", sub, 0.0f), sub);
  EXPECT_EQ(f32("add.ftz.f32 %f4, %f1, %f2;", sub, 0.0f), 0.0f);
  EXPECT_EQ(f32("add.sat.f32 %f4, %f1, %f2;", 0.75f, 0.5f), 1.0f);
}

TEST(FloatOps, ApproxTranscendentalsAreClose) {
  EXPECT_NEAR(f32("ex2.approx.f32 %f4, %f1;", 3.0f), 8.0f, 1e-5f);
  EXPECT_NEAR(f32("lg2.approx.f32 %f4, %f1;", 8.0f), 3.0f, 1e-5f);
  EXPECT_NEAR(f32("sin.approx.f32 %f4, %f1;", 0.5f), std::sin(0.5f), 1e-5f);
  EXPECT_NEAR(f32("cos.approx.f32 %f4, %f1;", 0.5f), std::cos(0.5f), 1e-5f);
  EXPECT_NEAR(f32("rsqrt.approx.f32 %f4, %f1;", 4.0f), 0.5f, 1e-6f);
  // libdevice's double functions use it (NVRTC's PTX for acosh, for one).
  EXPECT_NEAR(f64("rcp.approx.ftz.f64 %fd4, %fd1;", 3.0), 1.0 / 3.0, 1e-7);
  EXPECT_NEAR(f32("rcp.approx.f32 %f4, %f1;", 4.0f), 0.25f, 1e-6f);
}

TEST(FloatOps, SetpOrderedAndUnordered) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  auto p = [&](const std::string& op, float a, float b) {
    return run_snippet("setp." + op + ".f32 %p3, %f1, %f2;", {fbits(a), fbits(b)}).p;
  };
  EXPECT_EQ(p("lt", 1.0f, 2.0f), 1u);
  EXPECT_EQ(p("lt", nan, 2.0f), 0u);
  EXPECT_EQ(p("ltu", nan, 2.0f), 1u);
  EXPECT_EQ(p("ne", nan, nan), 0u);
  EXPECT_EQ(p("neu", nan, nan), 1u);
  EXPECT_EQ(p("nan", nan, 1.0f), 1u);
  EXPECT_EQ(p("num", 1.0f, 1.0f), 1u);
  EXPECT_EQ(p("geu", 1.0f, 2.0f), 0u);
  EXPECT_EQ(run_snippet("testp.notanumber.f32 %p3, %f1;", {fbits(nan)}).p, 1u);
  EXPECT_EQ(run_snippet("testp.finite.f32 %p3, %f1;", {fbits(INFINITY)}).p, 0u);
}

TEST(FloatOps, Conversions) {
  auto o = run_snippet("cvt.rzi.s32.f32 %r4, %f1;", {fbits(-2.7f)});
  EXPECT_EQ(static_cast<std::int32_t>(o.r), -2);
  o = run_snippet("cvt.rni.s32.f32 %r4, %f1;", {fbits(2.5f)});
  EXPECT_EQ(o.r, 2u);
  o = run_snippet("cvt.rmi.s32.f32 %r4, %f1;", {fbits(-2.5f)});
  EXPECT_EQ(static_cast<std::int32_t>(o.r), -3);
  o = run_snippet("cvt.rzi.s32.f32 %r4, %f1;", {fbits(1e20f)});
  EXPECT_EQ(o.r, 0x7fffffffu); // saturates
  o = run_snippet("cvt.rzi.u32.f32 %r4, %f1;", {fbits(std::nanf(""))});
  EXPECT_EQ(o.r, 0u);
  o = run_snippet("cvt.rn.f32.s32 %f4, %r1;", {static_cast<std::uint32_t>(-7)});
  EXPECT_EQ(o.f, -7.0f);
  o = run_snippet("cvt.rn.f32.u32 %f4, %r1;", {0xffffffffu});
  EXPECT_EQ(o.f, 4294967296.0f);
  o = run_snippet("cvt.rz.f32.u32 %f4, %r1;", {0xffffffffu});
  EXPECT_EQ(o.f, std::nextafter(4294967296.0f, 0.0f));
  o = run_snippet("cvt.rn.f32.f64 %f4, %fd1;", {0, 0, 0, dbits(0.1)});
  EXPECT_EQ(o.f, 0.1f);
  o = run_snippet("cvt.f64.f32 %fd4, %f1;", {fbits(0.1f)});
  EXPECT_EQ(o.fd, static_cast<double>(0.1f));
  o = run_snippet("cvt.s64.s32 %rd4, %r1;", {static_cast<std::uint32_t>(-5)});
  EXPECT_EQ(static_cast<std::int64_t>(o.rd), -5);
  o = run_snippet("cvt.u64.u32 %rd4, %r1;", {0xffffffffu});
  EXPECT_EQ(o.rd, 0xffffffffull);
  o = run_snippet("cvt.u32.u64 %r4, %rd1;", {0, 0, 0, 0x123456789ull});
  EXPECT_EQ(o.r, 0x23456789u);
  o = run_snippet("cvt.sat.f32.f32 %f4, %f1;", {fbits(1.5f)});
  EXPECT_EQ(o.f, 1.0f);
  o = run_snippet("cvt.rni.f32.f32 %f4, %f1;", {fbits(2.5f)});
  EXPECT_EQ(o.f, 2.0f);
  o = run_snippet("cvt.s32.s8 %r4, %r1;", {0x80});
  EXPECT_EQ(static_cast<std::int32_t>(o.r), -128);
}

TEST(FloatOps, HalfPrecisionRoundTrip) {
  auto o = run_snippet("cvt.rn.f16.f32 %rs1, %f1;\n add.f16 %rs2, %rs1, %rs1;\n"
                       "cvt.f32.f16 %f4, %rs2;",
                       {fbits(1.25f)});
  EXPECT_EQ(o.f, 2.5f);
  o = run_snippet("cvt.rn.f16.f32 %rs1, %f1;\n mul.f16 %rs2, %rs1, %rs1;\n"
                  "cvt.f32.f16 %f4, %rs2;",
                  {fbits(3.0f)});
  EXPECT_EQ(o.f, 9.0f);
  o = run_snippet("cvt.rn.f16.f32 %rs1, %f1;\n mov.b16 %rs2, %rs1;\n cvt.u32.u16 %r4, %rs2;",
                  {fbits(1.0f)});
  EXPECT_EQ(o.r, 0x3c00u);
}

TEST(FloatOps, MovMovesRawBitsBetweenFloatAndInteger) {
  auto o = run_snippet("mov.b32 %r4, %f1;", {fbits(-1.0f)});
  EXPECT_EQ(o.r, 0xbf800000u);
  o = run_snippet("mov.b32 %f4, %r1;", {0x40490fdbu});
  EXPECT_EQ(o.f, std::bit_cast<float>(0x40490fdbu));
  o = run_snippet("mov.f64 %fd4, 0d4000000000000000;", {});
  EXPECT_EQ(o.fd, 2.0);
  o = run_snippet("copysign.f32 %f4, %f1, %f2;", {fbits(-1.0f), fbits(3.0f)});
  EXPECT_EQ(o.f, -3.0f);
}

} // namespace
} // namespace gpurun::test
