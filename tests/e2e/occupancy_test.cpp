// End-to-end: `gpurun compile --occupancy` from the resources of a cubin NVRTC compiles for a
// named architecture, no GPU involved; skips, saying why, without NVRTC.
#include <fstream>
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

class OccupancyNvrtcE2E : public ::testing::Test {
protected:
  void SetUp() override {
    const auto r = run_gpurun("devices --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto nvrtc = nlohmann::json::parse(r.out).at("compilers").at("nvrtc");
    if (nvrtc.at("available") == false)
      GTEST_SKIP() << "NVRTC unavailable: " << nvrtc.at("reason");
  }
};

TEST_F(OccupancyNvrtcE2E, SharedMemoryLimitsTheBlocksAndTheNextStepIsNamed) {
  const auto r = run_gpurun(
      "compile tests/data/e2e/shared_tile.cu --arch sm_90 --occupancy --block 128 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto o = nlohmann::json::parse(r.out).at("occupancy").at(0);
  EXPECT_EQ(o.at("arch"), "sm_90");
  EXPECT_EQ(o.at("block_size"), 128);
  EXPECT_EQ(o.at("active_blocks_per_sm"), 4) << o.dump(1);
  EXPECT_EQ(o.at("active_warps_per_sm"), 16);
  EXPECT_DOUBLE_EQ(o.at("occupancy").get<double>(), 0.25);
  EXPECT_EQ(o.at("limited_by"), nlohmann::json::array({"shared memory"}));
  EXPECT_EQ(o.at("allocated_shared_bytes_per_block"), 48 * 1024 + 1024);
  EXPECT_EQ(o.at("limits").at(2).at("next_step"),
            "45568 bytes of shared memory per block or fewer");
}

TEST_F(OccupancyNvrtcE2E, DynamicSharedMemoryAndTheArchitectureCount) {
  // 100 KiB more per block: two blocks on sm_90; on sm_86 (100 KiB per SM) none can launch.
  auto r = run_gpurun("compile tests/data/e2e/shared_tile.cu --arch sm_90 --occupancy "
                      "--block 128 --shared 51200 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("occupancy").at(0).at("active_blocks_per_sm"), 2);
  r = run_gpurun("compile tests/data/e2e/shared_tile.cu --arch sm_86 --occupancy --block 128 "
                 "--shared 65536");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cannot launch"), std::string::npos) << r.out;
}

TEST_F(OccupancyNvrtcE2E, HumanTableAndBestBlockSizes) {
  const auto r = run_gpurun("compile kernels/examples/saxpy.cu -k 'saxpy<float>' --arch sm_90 "
                            "--occupancy --block 96");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("occupancy on sm_90, 96 threads per block"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best block sizes (100.0%)"), std::string::npos) << r.out;
}

TEST_F(OccupancyNvrtcE2E, AnArchitectureWithoutRulesIsAUsageError) {
  const auto r =
      run_gpurun("compile tests/data/e2e/shared_tile.cu --arch sm_110 --occupancy --block 128");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("no occupancy rules for 'sm_110'"), std::string::npos) << r.err;
}

// The driver's own answers, recorded on an H100 (sm_90, the H200's architecture) by
// scripts/occupancy-gpu-check.py --record: gpurun gives them without a GPU. Kernels span register
// counts from 2 to 210, static shared memory up to 48 KiB and named barriers.
TEST_F(OccupancyNvrtcE2E, EqualsTheDriversAnswersRecordedOnAGpu) {
  const auto recorded =
      nlohmann::json::parse(slurp(source_dir() / "tests/data/occupancy/sm_90_driver.json"));
  const auto dir = temp_dir();
  {
    std::ofstream out(dir / "kernels.cu");
    out << recorded.at("kernels_cu").get<std::string>();
  }
  std::size_t compared = 0;
  for (const int block : {128, 512, 1024})
    for (const int dynamic : {0, 70000}) {
      const auto r = run_gpurun(fmt::format("compile '{}' --arch sm_90 --occupancy --json "
                                            "--block {} --shared {}",
                                            (dir / "kernels.cu").string(), block, dynamic));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::map<std::string, int> ours;
      const auto report = nlohmann::json::parse(r.out);
      for (const auto& o : report.at("occupancy"))
        ours[o.at("kernel").get<std::string>()] = o.at("active_blocks_per_sm").get<int>();
      for (const auto& c : recorded.at("cases")) {
        if (c.at("block") != block || c.at("dynamic_shared") != dynamic)
          continue;
        const std::string kernel = c.at("kernel");
        SCOPED_TRACE(fmt::format("{} block {} dynamic {}", kernel, block, dynamic));
        ASSERT_TRUE(ours.count(kernel));
        EXPECT_EQ(ours[kernel], c.at("active_blocks_per_sm").get<int>());
        ++compared;
      }
    }
  EXPECT_EQ(compared, 36u * 6);
}

} // namespace
} // namespace gpurun::test
