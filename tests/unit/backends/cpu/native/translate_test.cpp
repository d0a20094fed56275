#include "backends/cpu/native/translate.hpp"

#include <string>

#include <gtest/gtest.h>

#include "backends/cpu/emu/contract.hpp"
#include "backends/cpu/emu/decode.hpp"
#include "backends/cpu/ptx/parser.hpp"
#include "support/test_support.hpp"

namespace gpurun::native {
namespace {

constexpr std::string_view k_header = ".version 8.0\n.target sm_90\n.address_size 64\n";

Translation translate_text(const std::string& ptx, const std::string& kernel) {
  ptx::Module parsed = ptx::parse_module(ptx, "t.ptx");
  emu::contract_multiply_adds(parsed);
  const emu::Program program = emu::decode(parsed);
  for (std::uint32_t i = 0; i < program.functions.size(); ++i)
    if (program.functions[i].name == kernel)
      return translate_kernel(program, parsed, i);
  ADD_FAILURE() << "no kernel " << kernel;
  return {};
}

Translation translate_file(const std::string& file, const std::string& kernel) {
  return translate_text(test::slurp(test::source_dir() / "tests/data/ptx" / file), kernel);
}

TEST(NativeTranslate, AKernelWithoutBarriersIsOneRegion) {
  const auto t = translate_file("vector_add.ptx", "vector_add");
  ASSERT_TRUE(t.ok) << t.refusal;
  EXPECT_EQ(t.regions, 1u);
  EXPECT_EQ(t.sites, 3u); // two loads and a store
  // The numeric functions the interpreter calls, and the instruction's PTX line above it.
  EXPECT_NE(t.source.find("nm::add("), std::string::npos);
  EXPECT_NE(t.source.find("// PTX line"), std::string::npos);
  EXPECT_NE(t.source.find("gpurun_native_kernel"), std::string::npos);
}

TEST(NativeTranslate, BarriersAndLoopHeadsStartRegions) {
  // Tiles in a loop with two bar.sync in its body: the entry, the loop head and one region after
  // each barrier.
  const auto t = translate_file("matmul_tiled.ptx", "matmul_tiled");
  ASSERT_TRUE(t.ok) << t.refusal;
  EXPECT_GE(t.regions, 4u);
}

TEST(NativeTranslate, AnAtomicWhoseOldValueIsUsedStaysOnTheInterpreter) {
  const auto t = translate_text(std::string(k_header) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  atom.global.add.u32 %r1, [%rd1], 1;
  st.global.u32 [%rd1+4], %r1;
  ret;
}
)",
                                "k");
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.refusal.find("PTX line 10"), std::string::npos) << t.refusal;
  EXPECT_NE(t.refusal.find("old value"), std::string::npos) << t.refusal;
}

TEST(NativeTranslate, AnOrderFreeAtomicIsCompiled) {
  const auto t = translate_text(std::string(k_header) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  red.global.add.u32 [%rd1], 1;
  ret;
}
)",
                                "k");
  ASSERT_TRUE(t.ok) << t.refusal;
  EXPECT_NE(t.source.find("__atomic_fetch_add"), std::string::npos);
}

TEST(NativeTranslate, WarpCollectivesAndUnknownSpecialRegistersAreRefusedNamingTheLine) {
  auto t = translate_text(std::string(k_header) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  shfl.sync.bfly.b32 %r2, %r1, 1, 31, -1;
  st.global.u32 [%rd1], %r2;
  ret;
}
)",
                          "k");
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.refusal.find("PTX line 11"), std::string::npos) << t.refusal;
  EXPECT_NE(t.refusal.find("warp collective"), std::string::npos) << t.refusal;
  t = translate_text(std::string(k_header) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %smid;
  st.global.u32 [%rd1], %r1;
  ret;
}
)",
                     "k");
  EXPECT_FALSE(t.ok);
  EXPECT_NE(t.refusal.find("special register"), std::string::npos) << t.refusal;
}

TEST(NativeTranslate, OnlyResultsNoInstructionSeesAsBitsSkipTheCanonicalNaN) {
  // %f3 is read only by a mul: its NaN, whatever the payload, makes the mul's NaN, which is made
  // canonical. %f4 is stored and %f5 is moved to an integer register: both must be canonical.
  const auto t = translate_text(std::string(k_header) + R"(
.visible .entry k(.param .u64 p)
{
  .reg .f32 %f<6>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.f32 %f1, [%rd1];
  ld.global.f32 %f2, [%rd1+4];
  add.f32 %f3, %f1, %f2;
  mul.f32 %f4, %f3, %f2;
  st.global.f32 [%rd1+8], %f4;
  sub.f32 %f5, %f1, %f2;
  mov.b32 %r1, %f5;
  st.global.u32 [%rd1+12], %r1;
  ret;
}
)",
                                "k");
  ASSERT_TRUE(t.ok) << t.refusal;
  EXPECT_EQ(t.source.find("nm::add("), std::string::npos) << "the add's NaN is never seen";
  EXPECT_NE(t.source.find("nm::mul("), std::string::npos) << "the stored product";
  EXPECT_NE(t.source.find("nm::sub("), std::string::npos) << "the difference seen as bits";
}

TEST(NativeTranslate, TheSameKernelGivesTheSameSource) {
  // The cache key is the source: it must not depend on anything but the PTX.
  EXPECT_EQ(translate_file("reduce_block.ptx", "reduce_block").source,
            translate_file("reduce_block.ptx", "reduce_block").source);
}

} // namespace
} // namespace gpurun::native
