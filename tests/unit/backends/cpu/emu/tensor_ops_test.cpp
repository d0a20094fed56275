// Tensor-core instructions on hand-written PTX: forms the GPU refuses or the emulator does not
// implement are named at decode time, and a warp-wide instruction run by part of a warp is a
// device error, never a result made of stale registers.
#include <gtest/gtest.h>

#include <string>

#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

std::string kernel_with(const std::string& body) {
  return R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 k_out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<40>;
  .reg .f32 %f<40>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_out];
)" + body +
         R"(
  ret;
}
)";
}

std::string launch_error(const std::string& body, unsigned threads = 32) {
  EmuHarness h(kernel_with(body));
  Buffer& out = h.buffer(std::vector<float>(1024, 0.0f));
  try {
    h.run("k", Dim3{1, 1, 1}, Dim3{threads, 1, 1}, out);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::device);
    return e.what();
  }
  return {};
}

TEST(TensorOps, FormsOutsideTheImplementedSetAreNamed) {
  // An f16 result from an f32 accumulator: ptxas refuses it for mma.sync.
  auto err = launch_error("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32 {%r1,%r2}, "
                          "{%r3,%r4,%r5,%r6}, {%r7,%r8}, {%f1,%f2,%f3,%f4};");
  EXPECT_NE(err.find("unsupported PTX instruction 'mma.sync.aligned.m16n8k16.row.col.f16.f16."
                     "f16.f32'"),
            std::string::npos)
      << err;
  // Volta's m8n8k4 f16 form and the sparse one are not implemented.
  err = launch_error("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,"
                     "%f8}, {%r1,%r2}, {%r3,%r4}, {%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16};");
  EXPECT_NE(err.find("unsupported PTX instruction 'mma.sync.aligned.m8n8k4"), std::string::npos)
      << err;
  // A fragment with the wrong number of registers.
  err = launch_error("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, "
                     "{%r3,%r4,%r5}, {%r7,%r8}, {%f5,%f6,%f7,%f8};");
  EXPECT_NE(err.find("fragment register count"), std::string::npos) << err;
}

TEST(TensorOps, PartOfAWarpIsADeviceError) {
  const std::string body = R"(
  mov.u32 %r1, 0;
  mov.f32 %f5, 0f00000000;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r1,%r1,%r1},
      {%r1,%r1}, {%f5,%f5,%f5,%f5};
  st.global.f32 [%rd1], %f1;
)";
  EXPECT_EQ(launch_error(body, 32), "");
  const auto err = launch_error(body, 16);
  EXPECT_NE(err.find("ran mma.sync with 16 of the warp's 32 lanes"), std::string::npos) << err;
}

TEST(TensorOps, LdmatrixTransposes) {
  // One 8×8 matrix of b16 values 0…63 in shared memory; lane l gives row l's address. Plain,
  // lane 5 holds row 1, columns 2 and 3 (values 10, 11); transposed, rows 2 and 3 of column 1
  // (17, 25).
  const std::string body = R"(
  .shared .align 16 .b8 m[128];
  .reg .b16 %h<2>;
  mov.u32 %r1, %laneid;
  shl.b32 %r2, %r1, 1;
  mov.u32 %r3, m;
  add.u32 %r4, %r3, %r2;
  cvt.u16.u32 %h1, %r1;
  st.shared.u16 [%r4], %h1;
  add.u32 %r5, %r1, 32;
  cvt.u16.u32 %h1, %r5;
  st.shared.u16 [%r4+64], %h1;
  bar.warp.sync -1;
  and.b32 %r6, %r1, 7;
  shl.b32 %r6, %r6, 4;
  add.u32 %r6, %r3, %r6;
  ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r7}, [%r6];
  ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r8}, [%r6];
  mul.wide.u32 %rd2, %r1, 8;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r7, %r8};
)";
  EmuHarness h(kernel_with(body));
  Buffer& out = h.buffer(std::vector<std::uint32_t>(64, 0));
  h.run("k", Dim3{1, 1, 1}, Dim3{32, 1, 1}, out);
  const auto v = h.read<std::uint32_t>(out);
  EXPECT_EQ(v[2 * 5], 10u | 11u << 16);
  EXPECT_EQ(v[2 * 5 + 1], 17u | 25u << 16);
  EXPECT_EQ(v[2 * 0], 0u | 1u << 16);
  EXPECT_EQ(v[2 * 31 + 1], 55u | 63u << 16); // lane 31: rows 6, 7 of column 7
}

} // namespace
} // namespace gpurun::test
