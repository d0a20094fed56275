// PTX beyond the common subset, run by the real binary on the CPU backend: CUDA's cooperative
// groups (inline asm with registers named without '%', the reserved shared memory, bar.red,
// match.sync), and a module whose one unsupported instruction stops only the kernel reaching it.
#include <gtest/gtest.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

bool nvrtc_available(std::string* why) {
  const auto devices = nlohmann::json::parse(run_gpurun("devices --json").out);
  const auto& nvrtc = devices.at("compilers").at("nvrtc");
  *why = nvrtc.value("reason", std::string());
  return nvrtc.at("available").get<bool>();
}

// in[i] = i over 2 blocks of 256 threads; out[8 i + k] as the kernel documents.
TEST(CooperativeGroupsNvrtcE2E, ReduceLabeledPartitionAndSyncthreadsCount) {
  std::string why;
  if (!nvrtc_available(&why))
    GTEST_SKIP() << "NVRTC unavailable: " << why;
  const auto dir = temp_dir();
  auto r = run_gpurun("tests/data/e2e/cg_reduce.cu --backend cpu --compiler nvrtc --grid 2 "
                      "--block 256 --arg 'in=i32[512]:iota' --arg 'out=i32[4096]:0' "
                      "--memcheck -q --save " +
                      dir.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const HostBuffer out = read_npy(dir / "out.npy");
  ASSERT_EQ(out.element_count(), 4096u);
  auto at = [&](std::size_t i) {
    std::int32_t v = 0;
    std::memcpy(&v, out.data() + 4 * i, 4);
    return v;
  };
  for (int i = 0; i < 512; ++i) {
    SCOPED_TRACE(i);
    const int warp_base = i / 32 * 32, quad_base = i / 128 * 128;
    EXPECT_EQ(at(8 * i + 0), 32 * warp_base + 31 * 32 / 2);
    EXPECT_EQ(at(8 * i + 1), 128 * quad_base + 127 * 128 / 2);
    EXPECT_EQ(at(8 * i + 2), quad_base + 127);
    // The lanes of i's warp with the same i % 3: the largest, how many, and i's rank among them.
    int largest = 0, members = 0, rank = 0;
    for (int j = warp_base; j < warp_base + 32; ++j)
      if (j % 3 == i % 3) {
        largest = j;
        ++members;
        rank += j < i ? 1 : 0;
      }
    EXPECT_EQ(at(8 * i + 3), largest);
    EXPECT_EQ(at(8 * i + 4), members * 100 + rank);
    EXPECT_EQ(at(8 * i + 5), 128); // the even values of the block
    EXPECT_EQ(at(8 * i + 6), 1);
    EXPECT_EQ(at(8 * i + 7), i >= 256 ? 1 : 0); // only block 1 has values above 300
  }
}

// bar.red is a block barrier to the sanitizers as bar.sync is.
TEST(BarRedE2E, OrdersSharedMemoryForRacecheckAndCountsForSynccheck) {
  const std::string base = "tests/data/e2e/bar_red_race.cu --backend cpu --grid 1 --block 128 "
                           "--arg 'out=i32[128]:0' -q ";
  auto r = run_gpurun(base + "--arg use_barrier=1 --arg divergent=0 --racecheck --synccheck");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_gpurun(base + "--arg use_barrier=0 --arg divergent=0 --racecheck");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("read-after-write hazard on shared variable"), std::string::npos) << r.err;
  r = run_gpurun(base + "--arg use_barrier=1 --arg divergent=1 --synccheck");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("divergent barrier in kernel 'bar_red_race'"), std::string::npos) << r.err;
}

TEST(UnsupportedInstructionE2E, OnlyTheKernelThatReachesItIsRefused) {
  auto r = run_gpurun("tests/data/e2e/two_kernels.ptx --kernel runs --backend cpu --grid 1 "
                      "--block 1 --arg 'runs_out=u32[1]:0' --json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["buffers"]["runs_out"]["values"][0], 42);
  r = run_gpurun("tests/data/e2e/two_kernels.ptx --kernel refused --backend cpu --grid 1 "
                 "--block 1 --arg 'refused_out=u32[1]:0'");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel 'refused': unsupported PTX instruction 'bmsk.clamp.b32' at line 14"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurun::test
