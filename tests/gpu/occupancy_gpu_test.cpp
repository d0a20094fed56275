// A run's report on a CUDA device carries the launch's theoretical occupancy, from the loaded
// function's registers and shared memory; compile --occupancy computes the same without the GPU.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

TEST(GpuOccupancy, RunReportEqualsCompileOccupancyForTheDevicesArchitecture) {
  if (run_gpurun("devices --check cuda").exit_code != 0)
    GTEST_SKIP() << "no CUDA device";
  const auto run = run_gpurun("tests/data/e2e/shared_tile.cu --backend cuda --no-cache --json "
                              "--grid 4 --block 128 --shared 8192 --arg 'out=f32[512]' "
                              "--arg n=512");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_TRUE(report.contains("occupancy")) << run.out;
  const auto& o = report.at("occupancy");
  const auto arch = o.at("arch").get<std::string>();
  const auto compile = run_gpurun("compile tests/data/e2e/shared_tile.cu --occupancy --json "
                                  "--block 128 --shared 8192 --arch " + arch);
  ASSERT_EQ(compile.exit_code, 0) << compile.err;
  const auto offline = nlohmann::json::parse(compile.out).at("occupancy").at(0);
  EXPECT_EQ(o.at("active_blocks_per_sm"), offline.at("active_blocks_per_sm")) << run.out;
  EXPECT_EQ(o.at("limited_by"), nlohmann::json::array({"shared memory"}));
}

} // namespace
} // namespace gpurun::test
