#include "backends/kit/ptx_entries.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "backends/compilers/nvrtc.hpp"

namespace gpurun::kit {
namespace {

void expect_layout(const PtxParam& p, std::size_t offset, std::size_t size, std::size_t align) {
  EXPECT_EQ(p.offset, offset) << p.name;
  EXPECT_EQ(p.size, size) << p.name;
  EXPECT_EQ(p.align, align) << p.name;
}

/// The PtxSyntaxError of parsing `ptx`; fails the test when there is none.
PtxSyntaxError syntax_error(const std::string& ptx) {
  try {
    (void)parse_ptx_entries(ptx);
  } catch (const PtxSyntaxError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << ptx;
  return PtxSyntaxError(0, "");
}

TEST(PtxEntries, HandWrittenEntriesWithQualifiersAndComments) {
  const auto entries = parse_ptx_entries(R"ptx(
.version 8.0
.target sm_80
// .entry not_a_kernel( in a comment is not a declaration )
/* nor is .entry hidden(.param .u32 x) in a block comment */
.file 1 "/tmp//odd.cu .entry in_a_string(.param .u32 y)"
.visible .entry first(
	.param .u64 .ptr .global .align 4 first_param_0, // a pointer
	.param .f32 first_param_1 /* a float, ) */
)
.maxntid 256, 1, 1
{
	ret;
}
.entry second()
{
	ret;
}
)ptx");
  ASSERT_EQ(entries.size(), 2u);
  const auto& first = entries[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(first.line, 7);
  ASSERT_EQ(first.params.size(), 2u);
  EXPECT_EQ(first.params[0].name, "first_param_0");
  EXPECT_EQ(first.params[0].line, 8);
  expect_layout(first.params[0], 0, 8, 8);
  EXPECT_EQ(first.params[1].name, "first_param_1");
  EXPECT_EQ(first.params[1].type, "f32");
  expect_layout(first.params[1], 8, 4, 4);
  EXPECT_EQ(first.param_bytes, 12u);
  EXPECT_EQ(entries[1].name, "second");
  EXPECT_TRUE(entries[1].params.empty());
  EXPECT_EQ(entries[1].param_bytes, 0u);
}

TEST(PtxEntries, ExplicitAlignmentPadsTheOffset) {
  const auto entries = parse_ptx_entries(".entry k(.param .u8 c, .param .align 16 .b8 v[16], "
                                         ".param .u16 h, .param .align 8 .u32 w, .param .f64 d)");
  ASSERT_EQ(entries.size(), 1u);
  const auto& p = entries[0].params;
  ASSERT_EQ(p.size(), 5u);
  expect_layout(p[0], 0, 1, 1);
  expect_layout(p[1], 16, 16, 16); // padded from 1 to its .align 16
  expect_layout(p[2], 32, 2, 2);
  expect_layout(p[3], 40, 4, 8); // .align 8 on a 4-byte scalar
  expect_layout(p[4], 48, 8, 8);
  EXPECT_EQ(entries[0].param_bytes, 56u);
}

TEST(PtxEntries, PtrAlignIsThePointeesAlignmentNotTheParameters) {
  const auto entries = parse_ptx_entries(".entry k(.param .u32 n, .param .u64 .ptr .align 16 p, "
                                         ".param .u64 .ptr .shared .align 4 s, .param .u64 .ptr "
                                         "g, .param .align 8 .u64 .ptr .global .align 2 q)");
  ASSERT_EQ(entries.size(), 1u);
  const auto& p = entries[0].params;
  ASSERT_EQ(p.size(), 5u);
  expect_layout(p[0], 0, 4, 4);
  expect_layout(p[1], 8, 8, 8); // not 16: the pointer itself is a .u64
  EXPECT_TRUE(p[1].is_ptr);
  EXPECT_EQ(p[1].pointee_align, 16u);
  EXPECT_EQ(p[1].pointee_space, "");
  expect_layout(p[2], 16, 8, 8);
  EXPECT_EQ(p[2].pointee_space, "shared");
  EXPECT_EQ(p[2].pointee_align, 4u);
  EXPECT_TRUE(p[3].is_ptr);
  EXPECT_EQ(p[3].pointee_align, 0u);
  expect_layout(p[4], 32, 8, 8); // .align before .ptr is the parameter's
  EXPECT_EQ(p[4].pointee_space, "global");
  EXPECT_EQ(p[4].pointee_align, 2u);
  EXPECT_FALSE(p[0].is_ptr);
}

TEST(PtxEntries, ArraysAreAggregatesOfTheirElements) {
  const auto entries = parse_ptx_entries(
      ".entry k(.param .u32 n, .param .align 8 .b8 p[16], .param .b8 q[3], .param .u16 m[2][3], "
      ".param .align 4 .b8 r[0x10])");
  ASSERT_EQ(entries.size(), 1u);
  const auto& p = entries[0].params;
  ASSERT_EQ(p.size(), 5u);
  EXPECT_FALSE(p[0].array_size.has_value());
  EXPECT_EQ(p[1].array_size, 16u);
  EXPECT_EQ(p[1].type, "b8");
  expect_layout(p[1], 8, 16, 8);
  EXPECT_EQ(p[2].array_size, 3u);
  expect_layout(p[2], 24, 3, 1); // no .align: the element's
  EXPECT_EQ(p[3].array_size, 6u);
  expect_layout(p[3], 28, 12, 2);
  expect_layout(p[4], 40, 16, 4);
  EXPECT_FALSE(p[1].is_pointer_sized_integer());
}

TEST(PtxEntries, VectorParametersTakeTheirWholeWidth) {
  const auto entries = parse_ptx_entries(".entry k(.param .u8 c, .param .v4 .f32 v, .param .v2 "
                                         ".u64 w)");
  ASSERT_EQ(entries.size(), 1u);
  const auto& p = entries[0].params;
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[1].vector_width, 4);
  expect_layout(p[1], 16, 16, 16);
  EXPECT_EQ(p[2].vector_width, 2);
  expect_layout(p[2], 32, 16, 16);
  EXPECT_FALSE(p[2].is_pointer_sized_integer());
}

TEST(PtxEntries, PointerSizedIntegers) {
  const auto entries = parse_ptx_entries(".entry k(.param .u64 a, .param .s64 b, .param .b64 c, "
                                         ".param .f64 d, .param .u32 e, .param .u64 .ptr f)");
  ASSERT_EQ(entries.size(), 1u);
  const auto& p = entries[0].params;
  ASSERT_EQ(p.size(), 6u);
  EXPECT_TRUE(p[0].is_pointer_sized_integer());
  EXPECT_TRUE(p[1].is_pointer_sized_integer());
  EXPECT_TRUE(p[2].is_pointer_sized_integer());
  EXPECT_FALSE(p[3].is_pointer_sized_integer());
  EXPECT_FALSE(p[4].is_pointer_sized_integer());
  EXPECT_TRUE(p[5].is_pointer_sized_integer());
  EXPECT_TRUE(p[5].is_ptr);
}

TEST(PtxEntries, MangledNamesAndSeveralEntriesInOrder) {
  const auto entries = parse_ptx_entries(R"ptx(
.weak .entry _Z5scaleItLi5EEvPT_S0_i(
	.param .u64 _Z5scaleItLi5EEvPT_S0_i_param_0,
	.param .u16 _Z5scaleItLi5EEvPT_S0_i_param_1,
	.param .u32 _Z5scaleItLi5EEvPT_S0_i_param_2
)
{ ret; }
.visible .entry $kernel$2(.param .u32 $p) { ret; }
.visible .entry _Z1kv() { ret; }
)ptx");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "_Z5scaleItLi5EEvPT_S0_i");
  ASSERT_EQ(entries[0].params.size(), 3u);
  EXPECT_EQ(entries[0].params[1].name, "_Z5scaleItLi5EEvPT_S0_i_param_1");
  expect_layout(entries[0].params[1], 8, 2, 2);
  expect_layout(entries[0].params[2], 12, 4, 4); // 8 + 2, then the u32 aligned to 12
  EXPECT_EQ(entries[0].param_bytes, 16u);
  EXPECT_EQ(entries[1].name, "$kernel$2");
  EXPECT_EQ(entries[1].params.at(0).name, "$p");
  EXPECT_EQ(entries[2].name, "_Z1kv");
}

TEST(PtxEntries, DeviceFunctionsAreNotKernels) {
  const auto entries = parse_ptx_entries(R"ptx(
.func  (.param .b32 func_retval0) square(.param .b32 square_param_0) { ret; }
.extern .func  (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);
.visible .entry k(.param .u32 n)
{
	.param .b32 retval;
	call.uni (retval), square, (n);
	ret;
}
.func tail() { ret; }
)ptx");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "k");
  ASSERT_EQ(entries[0].params.size(), 1u);
  EXPECT_EQ(entries[0].params[0].name, "n");
}

TEST(PtxEntries, AnEntryWithoutAParameterList) {
  const auto entries = parse_ptx_entries(".entry noparams\n{\nret;\n}\n.entry next(.param .u32 x)");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "noparams");
  EXPECT_TRUE(entries[0].params.empty());
  EXPECT_EQ(entries[1].params.size(), 1u);
}

TEST(PtxEntries, MalformedParameterListsNameTheLineAndToken) {
  auto e = syntax_error(".entry k(\n.param .u32 a,\n.reg .u32 b)");
  EXPECT_EQ(e.line(), 3);
  EXPECT_STREQ(e.what(), "expected .param in a parameter list near '.reg'");
  EXPECT_STREQ(syntax_error(".entry k(.param .align 3 .u32 a)").what(),
               "alignment must be a power of two near '.align'");
  EXPECT_STREQ(syntax_error(".entry k(.param a)").what(),
               "expected a type in a parameter declaration near 'a'");
  EXPECT_STREQ(syntax_error(".entry k(.param .u32 .f32 a)").what(),
               "second type in a parameter declaration near '.f32'");
  EXPECT_STREQ(syntax_error(".entry k(.param .u32)").what(), "expected a parameter name near ')'");
  EXPECT_STREQ(syntax_error(".entry k(.param .u32 a[])").what(), "expected an array size near ']'");
  EXPECT_STREQ(syntax_error(".entry k(.param .texref t)").what(),
               "unexpected directive in a parameter declaration near '.texref'");
  EXPECT_STREQ(syntax_error(".entry k(.param .u32 a .param .u32 b)").what(),
               "expected ',' or ')' after a parameter near '.param'");
  EXPECT_STREQ(syntax_error(".entry k(.param .u32 a,").what(),
               "expected .param in a parameter list at the end of the text");
}

// Sizes that wrapped around 64 bits once gave layouts whose offsets ran past param_bytes, and the
// CPU backend copied arguments to them.
TEST(PtxEntries, ParameterListsBeyondTheParameterSpaceAreRefused) {
  EXPECT_STREQ(syntax_error(".entry k(.param .b8 a[1024][1025])").what(),
               "array 'a' is larger than the parameter space near '1025'");
  EXPECT_STREQ(syntax_error(".entry k(.param .b8 a[18446744073709551615])").what(),
               "array 'a' is larger than the parameter space near '18446744073709551615'");
  EXPECT_STREQ(syntax_error(".entry k(.param .align 0x8000000000000000 .u32 a)").what(),
               "alignment 9223372036854775808 is larger than the parameter space near '.align'");
  auto e = syntax_error(".entry k(.param .u32 n,\n.param .v4 .b64 a[32768], .param .u32 m)");
  EXPECT_EQ(e.line(), 2);
  EXPECT_STREQ(e.what(), "the parameter list needs 1048608 bytes up to 'a', more than the 1048576 "
                         "bytes of parameter space");
  const auto fits = parse_ptx_entries(".entry k(.param .b8 a[32764])");
  ASSERT_EQ(fits.size(), 1u);
  EXPECT_EQ(fits[0].param_bytes, 32764u);
}

TEST(PtxEntries, OneParameterListFromTheMiddleOfAModule) {
  const std::string text = "(\n .param .u32 a,\n .param .align 8 .b8 s[12]\n) .maxntid 32 { }";
  const auto params = parse_ptx_param_list(text, 40);
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].line, 41);
  EXPECT_EQ(params[1].line, 42);
  expect_layout(params[1], 8, 12, 8);
}

TEST(PtxEntries, TypeSizes) {
  EXPECT_EQ(ptx_type_size("u8"), 1u);
  EXPECT_EQ(ptx_type_size("s16"), 2u);
  EXPECT_EQ(ptx_type_size("b32"), 4u);
  EXPECT_EQ(ptx_type_size("f64"), 8u);
  EXPECT_EQ(ptx_type_size("f16x2"), 4u);
  EXPECT_EQ(ptx_type_size("bf16"), 2u);
  EXPECT_EQ(ptx_type_size("bf16x2"), 4u);
  EXPECT_EQ(ptx_type_size("e4m3x2"), 2u);
  EXPECT_EQ(ptx_type_size("tf32"), 4u);
  EXPECT_EQ(ptx_type_size("b128"), 16u);
  EXPECT_EQ(ptx_type_size("pred"), 1u);
  EXPECT_EQ(ptx_type_size("f8"), 0u);
  EXPECT_EQ(ptx_type_size("u128"), 0u);
  EXPECT_EQ(ptx_type_size("q32"), 0u);
  EXPECT_EQ(ptx_type_size(""), 0u);
}

// Whatever the text, the parser answers with entries or a PtxSyntaxError: never a crash, a hang
// or another exception.
TEST(PtxEntries, RandomTokenSoupOnlyEverFailsWithASyntaxError) {
  const std::vector<std::string> vocab = {".entry",
                                          ".func",
                                          ".param",
                                          ".reg",
                                          ".u64",
                                          ".b8",
                                          ".align",
                                          ".ptr",
                                          ".v4",
                                          "8",
                                          "0x10",
                                          "3",
                                          "k",
                                          "(",
                                          ")",
                                          "[",
                                          "]",
                                          ",",
                                          "{",
                                          "}",
                                          "//",
                                          "/*",
                                          "*/",
                                          "\"",
                                          "\n",
                                          ".global",
                                          ".entry k(",
                                          ".entry k(",
                                          ".param .u32 p",
                                          ".param .u32 p"};
  std::uint64_t state = 2024;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(state >> 33);
  };
  int parsed = 0;
  int failed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const std::size_t n = next() % 30;
    for (std::size_t i = 0; i < n; ++i)
      text += vocab[next() % vocab.size()] + " ";
    try {
      parsed += parse_ptx_entries(text).empty() ? 0 : 1;
    } catch (const PtxSyntaxError&) {
      ++failed;
    }
  }
  // Both outcomes occur, so the soup does reach the parameter parser.
  EXPECT_GT(parsed, 0);
  EXPECT_GT(failed, 0);
}

// What NVRTC emits for C parameters lays out as the C ABI does (the driver packs arguments at
// these offsets).
TEST(PtxEntries, LayoutOfNvrtcOutputMatchesCAlignment) {
  if (!nvrtc::probe().available)
    GTEST_SKIP() << nvrtc::probe().reason;
  const auto r = nvrtc::compile(KernelSource{R"(struct S { float a; double b; char c; };
extern "C" __global__ void k(float* x, int n, S s, char c, short h, double d, float4 v) {
  x[0] = s.a + n + c + h + d + v.x;
}
extern "C" __global__ void empty() {}
)",
                                             {},
                                             Language::cuda},
                                {}, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  const auto entries = parse_ptx_entries(
      std::string_view(reinterpret_cast<const char*>(r.binary.data()), r.binary.size()));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "k");
  ASSERT_EQ(entries[0].params.size(), 7u);
  expect_layout(entries[0].params[0], 0, 8, 8);    // float*
  expect_layout(entries[0].params[1], 8, 4, 4);    // int
  expect_layout(entries[0].params[2], 16, 24, 8);  // S
  expect_layout(entries[0].params[3], 40, 1, 1);   // char
  expect_layout(entries[0].params[4], 42, 2, 2);   // short
  expect_layout(entries[0].params[5], 48, 8, 8);   // double
  expect_layout(entries[0].params[6], 64, 16, 16); // float4
  EXPECT_EQ(entries[0].param_bytes, 80u);
  EXPECT_EQ(entries[1].name, "empty");
  EXPECT_TRUE(entries[1].params.empty());
}

} // namespace
} // namespace gpurun::kit
