#include "backends/cpu/emu/contract.hpp"

#include <bit>
#include <cmath>

#include <gtest/gtest.h>

#include "backends/cpu/ptx/parser.hpp"
#include "unit/backends/cpu/emu/instruction_harness.hpp"

namespace gpurun::test {
namespace {

ptx::Module parse_body(const std::string& body) {
  return ptx::parse_module(snippet_ptx(body), "t");
}

/// The instructions of the snippet's kernel as "opcode.modifiers" strings.
std::vector<std::string> opcodes(const ptx::Module& m) {
  std::vector<std::string> out;
  for (const auto& st : m.functions.front().body) {
    if (!st.instruction)
      continue;
    std::string s = st.instruction->opcode;
    for (const auto& mod : st.instruction->modifiers)
      s += "." + mod;
    out.push_back(s);
  }
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

SnippetInputs floats(float a, float b) {
  return {std::bit_cast<std::uint32_t>(a), std::bit_cast<std::uint32_t>(b), 0, 0, 0};
}

TEST(Contract, MulThenSubBecomesOneRounding) {
  // 3 * 0.1f - 0.1f: the separately rounded product differs from the fused result, which is what
  // the GPU's FFMA gives for PTX that ptxas contracts.
  const float a = 3.0f, b = 0.1f;
  auto out = run_snippet("mul.f32 %f5, %f1, %f2;\n  sub.f32 %f4, %f5, %f2;", floats(a, b));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(out.f), std::bit_cast<std::uint32_t>(std::fma(a, b, -b)));
  EXPECT_NE(std::bit_cast<std::uint32_t>(out.f), std::bit_cast<std::uint32_t>(a * b - b));
}

TEST(Contract, AddAndReversedSubAreFused) {
  const float a = 3.0f, b = 0.1f;
  auto add = run_snippet("mul.f32 %f5, %f1, %f2;\n  add.f32 %f4, %f2, %f5;", floats(a, b));
  EXPECT_EQ(add.f, std::fma(a, b, b));
  auto sub = run_snippet("mul.f32 %f5, %f1, %f2;\n  sub.f32 %f4, %f2, %f5;", floats(a, b));
  EXPECT_EQ(sub.f, std::fma(-a, b, b));
}

TEST(Contract, ExplicitRoundingIsNeverFused) {
  auto m = parse_body("mul.rn.f32 %f5, %f1, %f2;\n  sub.f32 %f4, %f5, %f2;");
  EXPECT_EQ(emu::contract_multiply_adds(m), 0u);
  auto n = parse_body("mul.f32 %f5, %f1, %f2;\n  sub.rn.f32 %f4, %f5, %f2;");
  EXPECT_EQ(emu::contract_multiply_adds(n), 0u);
}

TEST(Contract, ProductWithTwoUsesIsKept) {
  auto m = parse_body("mul.f32 %f5, %f1, %f2;\n  add.f32 %f4, %f5, %f2;\n"
                      "  add.f32 %f6, %f5, %f1;");
  EXPECT_EQ(emu::contract_multiply_adds(m), 0u);
  EXPECT_FALSE(contains(opcodes(m), "fma.rn.f32"));
}

TEST(Contract, OperandRewrittenInBetweenBlocksFusion) {
  auto m = parse_body("mul.f32 %f5, %f1, %f2;\n  mov.f32 %f1, 0f00000000;\n"
                      "  add.f32 %f4, %f5, %f2;");
  EXPECT_EQ(emu::contract_multiply_adds(m), 0u);
}

TEST(Contract, DoubleIsFusedToo) {
  auto m = parse_body("mul.f64 %fd5, %fd1, %fd2;\n  add.f64 %fd4, %fd5, %fd2;");
  EXPECT_EQ(emu::contract_multiply_adds(m), 1u);
  EXPECT_TRUE(contains(opcodes(m), "fma.rn.f64"));
}

} // namespace
} // namespace gpurun::test
