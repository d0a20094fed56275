#include "backends/compilers/ptxas_info.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

TEST(PtxasInfo, ParsesEveryEntryOfAVerboseLog) {
  const char* log = "ptxas info    : 0 bytes gmem\n"
                    "ptxas info    : Compiling entry function 'reduce_sum' for 'sm_90'\n"
                    "ptxas info    : Function properties for reduce_sum\n"
                    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                    "ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem, "
                    "372 bytes cmem[0]\n"
                    "ptxas info    : Compiling entry function '_Z5saxpyIfEvT_PKS0_PS0_i' for "
                    "'sm_90'\n"
                    "ptxas info    : Function properties for _Z5saxpyIfEvT_PKS0_PS0_i\n"
                    "    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
                    "ptxas info    : Used 40 registers, 380 bytes cmem[0]\n";
  auto kernels = parse_ptxas_info(log);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "reduce_sum");
  EXPECT_EQ(kernels[0].arch, "sm_90");
  EXPECT_EQ(kernels[0].registers, 10);
  EXPECT_EQ(kernels[0].barriers, 1);
  EXPECT_EQ(kernels[0].shared_bytes, 1024u);
  EXPECT_EQ(kernels[0].constant_bytes, 372u);
  EXPECT_EQ(kernels[1].name, "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(kernels[1].registers, 40);
  EXPECT_EQ(kernels[1].barriers, 0);
  EXPECT_EQ(kernels[1].stack_frame_bytes, 16u);
  EXPECT_EQ(kernels[1].spill_store_bytes, 8u);
  EXPECT_EQ(kernels[1].spill_load_bytes, 4u);
}

TEST(PtxasInfo, DeviceFunctionBlocksDoNotOverwriteTheKernel) {
  const char* log = "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
                    "ptxas info    : Function properties for helper\n"
                    "    64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                    "ptxas info    : Function properties for k\n"
                    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                    "ptxas info    : Used 12 registers\n";
  auto kernels = parse_ptxas_info(log);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].stack_frame_bytes, 0u);
  EXPECT_EQ(kernels[0].registers, 12);
}

TEST(PtxasInfo, EmptyLogHasNoKernels) {
  EXPECT_TRUE(parse_ptxas_info("").empty());
}

} // namespace
} // namespace gpurun
