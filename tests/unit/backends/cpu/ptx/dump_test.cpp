// The AST printer: readable single instructions, and whole modules that parse back unchanged.
#include <gtest/gtest.h>

#include "backends/cpu/ptx/dump.hpp"
#include "fixture_helpers.hpp"

namespace gpurun::ptx::test {
namespace {

class DumpRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(DumpRoundTrip, ParsesBackToTheSameModule) {
  const Module first = parse_fixture(GetParam());
  const std::string text = dump(first);
  const Module second = parse_module(text, "dumped.ptx");
  EXPECT_EQ(dump(second), text);
  ASSERT_EQ(second.functions.size(), first.functions.size());
  ASSERT_EQ(second.globals.size(), first.globals.size());
  for (std::size_t g = 0; g < first.globals.size(); ++g) {
    EXPECT_EQ(second.globals[g].init, first.globals[g].init) << first.globals[g].name;
    EXPECT_EQ(second.globals[g].init_symbols, first.globals[g].init_symbols);
    EXPECT_EQ(second.globals[g].size_bytes(), first.globals[g].size_bytes());
  }
  for (std::size_t f = 0; f < first.functions.size(); ++f) {
    const Function& a = first.functions[f];
    const Function& b = second.functions[f];
    EXPECT_EQ(b.name, a.name);
    EXPECT_EQ(b.param_bytes, a.param_bytes);
    ASSERT_EQ(b.body.size(), a.body.size()) << a.name;
    for (std::size_t i = 0; i < a.body.size(); ++i) {
      if (a.body[i].instruction) {
        ASSERT_TRUE(b.body[i].instruction);
        EXPECT_EQ(dump(*b.body[i].instruction), dump(*a.body[i].instruction));
        EXPECT_EQ(b.body[i].instruction->source_line, a.body[i].instruction->source_line);
      } else {
        ASSERT_TRUE(b.body[i].label);
        EXPECT_EQ(b.body[i].label->name, a.body[i].label->name);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, DumpRoundTrip,
                         ::testing::Values("scalar_add", "vector_add", "saxpy", "print_threads",
                                           "matmul_tiled", "reduce_block", "warp_reduce",
                                           "histogram", "transpose", "half_math", "math_mix",
                                           "device_funcs", "template_kernel", "globals_local"));

TEST(Dump, InstructionsReadLikePtx) {
  const Module m = parse_module(".version 8.8\n.target sm_90\n.address_size 64\n"
                                ".visible .entry k()\n{\n.reg .pred %p<3>;\n.reg .b32 %r<9>;\n"
                                ".reg .b64 %rd<3>;\n"
                                "@!%p1 ld.global.v2.u32 {%r1, _}, [%rd1+-8];\n"
                                "shfl.sync.down.b32 %r2|%p2, %r1, 16, 31, -1;\n"
                                "setp.lt.or.f32 %p1, %r1, 0f3F800000, !%p2;\n"
                                "mov.u32 %r3, %tid.x;\n"
                                "ret;\n}\n",
                                "k.ptx");
  const auto& b = m.functions.at(0).body;
  EXPECT_EQ(dump(*b[0].instruction), "@!%p1 ld.global.v2.u32 {%r1, _}, [%rd1+-8];");
  EXPECT_EQ(dump(*b[1].instruction), "shfl.sync.down.b32 %r2|%p2, %r1, 16, 31, -1;");
  EXPECT_EQ(dump(*b[2].instruction), "setp.lt.or.f32 %p1, %r1, 0f3F800000, !%p2;");
  EXPECT_EQ(dump(*b[3].instruction), "mov.u32 %r3, %tid.x;");
}

TEST(Dump, ModuleTextShowsDeclarationsAndCalls) {
  const std::string text = dump(parse_fixture("print_threads"));
  EXPECT_NE(text.find(".extern .func (\n\t.param .align 4 .b32 func_retval0\n) vprintf("),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(".global .align 1 .b8 $str[46] = {98, 108, 111,"), std::string::npos);
  EXPECT_NE(text.find("\tcall.uni (retval0), vprintf, (param0, param1);\n"), std::string::npos);
  EXPECT_NE(text.find("\t.loc 1 7 0\n"), std::string::npos);
  EXPECT_NE(text.find(".file 1 \""), std::string::npos);
}

} // namespace
} // namespace gpurun::ptx::test
