// The PTX tokenizer: token kinds, adjacency (which the parser uses to join modifiers), lines.
#include <gtest/gtest.h>

#include "backends/cpu/ptx/lexer.hpp"
#include "backends/cpu/ptx/literals.hpp"
#include "base/error.hpp"

namespace gpurun::ptx {
namespace {

using K = Token::Kind;

std::vector<std::pair<K, std::string>> kinds(std::string_view text) {
  std::vector<std::pair<K, std::string>> out;
  for (const Token& t : tokenize(text, "t.ptx")) {
    out.emplace_back(t.kind, std::string(t.text));
  }
  return out;
}

TEST(Lexer, OpcodeModifiersAreGluedDirectives) {
  const auto tokens = tokenize("ld.global.nc.f32 %f1, [%rd2+-4];", "t.ptx");
  ASSERT_EQ(tokens.size(), 14u);
  EXPECT_EQ(tokens[0].kind, K::identifier);
  EXPECT_EQ(tokens[0].text, "ld");
  EXPECT_EQ(tokens[1].kind, K::directive);
  EXPECT_EQ(tokens[1].text, ".global");
  EXPECT_FALSE(tokens[1].space_before);
  EXPECT_FALSE(tokens[3].space_before);
  EXPECT_EQ(tokens[4].text, "%f1");
  EXPECT_TRUE(tokens[4].space_before);
  EXPECT_TRUE(tokens[8].is_punct('+'));
  EXPECT_TRUE(tokens[9].is_punct('-'));
  EXPECT_EQ(tokens[10].kind, K::integer);
  EXPECT_EQ(tokens.back().kind, K::end);
}

TEST(Lexer, NumberForms) {
  EXPECT_EQ(kinds("12 0x1F 017 0b11 12U 9.0 1e300 2.5e-3 0f3F800000 0d4000000000000000"),
            (std::vector<std::pair<K, std::string>>{{K::integer, "12"},
                                                    {K::integer, "0x1F"},
                                                    {K::integer, "017"},
                                                    {K::integer, "0b11"},
                                                    {K::integer, "12U"},
                                                    {K::decimal_float, "9.0"},
                                                    {K::decimal_float, "1e300"},
                                                    {K::decimal_float, "2.5e-3"},
                                                    {K::f32_bits, "0f3F800000"},
                                                    {K::f64_bits, "0d4000000000000000"},
                                                    {K::end, ""}}));
  EXPECT_EQ(parse_integer_literal("0x1F"), 31u);
  EXPECT_EQ(parse_integer_literal("017"), 15u);
  EXPECT_EQ(parse_integer_literal("0b101"), 5u);
  EXPECT_EQ(parse_integer_literal("0"), 0u);
  EXPECT_EQ(parse_integer_literal("7U"), 7u);
  EXPECT_FALSE(parse_integer_literal("0b102"));
  EXPECT_FALSE(parse_integer_literal("99999999999999999999"));
  EXPECT_EQ(parse_float_bits("0f3F800000"), 0x3F800000u);
}

TEST(Lexer, SpecialRegistersLabelsStringsAndCacheHints) {
  EXPECT_EQ(kinds("%tid.x $L__BB0_2: \"nounroll\" .L1::evict_last"),
            (std::vector<std::pair<K, std::string>>{{K::identifier, "%tid"},
                                                    {K::directive, ".x"},
                                                    {K::identifier, "$L__BB0_2"},
                                                    {K::punct, ":"},
                                                    {K::string, "nounroll"},
                                                    {K::directive, ".L1::evict_last"},
                                                    {K::end, ""}}));
}

TEST(Lexer, CommentsAreSkippedAndLinesCounted) {
  const auto tokens = tokenize("a // one\n/* two\nthree */ b\n\nc", "t.ptx");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[0].line, 1);
  EXPECT_EQ(tokens[1].text, "b");
  EXPECT_EQ(tokens[1].line, 3);
  EXPECT_TRUE(tokens[1].space_before);
  EXPECT_EQ(tokens[2].line, 5);
}

TEST(Lexer, ErrorsCarryFileAndLine) {
  try {
    (void)tokenize("ok\n\n  ` bad", "k.ptx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::compile);
    EXPECT_STREQ(e.what(), "k.ptx:3: unexpected character near '`'");
  }
  EXPECT_THROW((void)tokenize("\"open\n", "k.ptx"), Error);
}

} // namespace
} // namespace gpurun::ptx
