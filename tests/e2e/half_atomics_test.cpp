// End-to-end: 16-bit and packed 16-bit atomicAdd (llm.c's bf16 gradient kernels use the packed
// form) on the CPU backend, compiled by NVRTC (atom.add.noftz.*) and by clang (its layer's
// compare-and-swap loops).
#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

class HalfAtomics : public ::testing::TestWithParam<std::string> {};

TEST_P(HalfAtomics, EveryThreadsAddLands) {
  const auto probe =
      run_gpurun("kernels/examples/scalar_add.json -q --backend cpu --compiler " + GetParam());
  if (probe.exit_code == 5)
    GTEST_SKIP() << probe.err;
  // 4 blocks of 64 threads: 256 adds of 1 and 2, exact in f16 and bf16.
  const auto r =
      run_gpurun("tests/data/e2e/half_atomics.cu --grid 4 --block 64 --backend cpu "
                 "--no-cache -a 'h=f16[1]' -a 'h2=f16[2]' -a 'b=bf16[1]' -a 'b2=bf16[2]' "
                 "--expect 'h=[256]' --expect 'h2=[256,512]' --expect 'b=[256]' "
                 "--expect 'b2=[512,256]' --compiler " +
                 GetParam());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
}

INSTANTIATE_TEST_SUITE_P(Compilers, HalfAtomics, ::testing::Values("nvrtc", "clang"),
                         [](const auto& info) { return std::string(info.param); });

} // namespace
} // namespace gpurun::test
