#include "backends/cuda/ptx_params.hpp"

#include <gtest/gtest.h>

#include "backends/compilers/nvrtc.hpp"

namespace gpurun {
namespace {

void expect_param(const ParamLayout& p, std::size_t offset, std::size_t size, std::size_t align) {
  EXPECT_EQ(p.offset, offset);
  EXPECT_EQ(p.size, size);
  EXPECT_EQ(p.align, align);
}

TEST(PtxParams, HandWrittenEntriesWithQualifiersAndComments) {
  const auto entries = cuda::parse_ptx_entries(R"(
.version 8.0
.target sm_80
// .entry not_a_kernel( in a comment is not a declaration )
/* nor is .entry hidden(.param .u32 x) in a block comment */
.file 1 "/tmp//odd.cu"
.visible .entry first(
	.param .u64 .ptr .global .align 4 first_param_0, // a pointer
	.param .f32 first_param_1
)
.maxntid 256, 1, 1
{
	ret;
}
.entry second()
{
	ret;
}
)");
  ASSERT_EQ(entries.size(), 2u);
  const auto& first = entries[0];
  EXPECT_EQ(first.name, "first");
  ASSERT_EQ(first.params.size(), 2u);
  expect_param(first.params[0], 0, 8, 4);
  expect_param(first.params[1], 8, 4, 4);
  EXPECT_EQ(entries.back().name, "second");
  EXPECT_TRUE(entries.back().params.empty());
}

TEST(PtxParams, LayoutOfNvrtcOutputMatchesCAlignment) {
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
  const auto entries = cuda::parse_ptx_entries(
      std::string_view(reinterpret_cast<const char*>(r.binary.data()), r.binary.size()));
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "k");
  ASSERT_EQ(entries[0].params.size(), 7u);
  expect_param(entries[0].params[0], 0, 8, 8);    // float*
  expect_param(entries[0].params[1], 8, 4, 4);    // int
  expect_param(entries[0].params[2], 16, 24, 8);  // S
  expect_param(entries[0].params[3], 40, 1, 1);   // char
  expect_param(entries[0].params[4], 42, 2, 2);   // short
  expect_param(entries[0].params[5], 48, 8, 8);   // double
  expect_param(entries[0].params[6], 64, 16, 16); // float4
  EXPECT_EQ(entries[1].name, "empty");
  EXPECT_TRUE(entries[1].params.empty());
}

} // namespace
} // namespace gpurun
