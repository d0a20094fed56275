// `gpurun threads --run --backend cuda` on a real GPU: the captured indices and lanes must match
// the arithmetic table, and the placement must name real SMs.
#include <gtest/gtest.h>

#include <set>

#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun {
namespace {

using test::run_gpurun;

class ThreadsGpu : public ::testing::Test {
protected:
  void SetUp() override {
    const auto check = run_gpurun("devices --check cuda");
    if (check.exit_code != 0)
      GTEST_SKIP() << "no CUDA device: " << check.out << check.err;
  }
};

int device_sms() {
  const auto r = run_gpurun("devices --json");
  const auto j = nlohmann::json::parse(r.out);
  for (const auto& b : j.at("backends"))
    if (b.at("name") == "cuda")
      return b.at("devices").at(0).at("multiprocessors").get<int>();
  return 0;
}

TEST_F(ThreadsGpu, CapturedIndicesAndLanesMatchTheArithmetic) {
  const auto r = run_gpurun("threads --run --backend cuda --grid 4,2 --block 100,2 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("check").at("status"), "ok") << j.at("check").dump(2);
  EXPECT_EQ(j.at("check").at("arrivals"), 1600);
  EXPECT_EQ(j.at("backend"), "cuda");
  EXPECT_EQ(j.at("timestamp_unit"), "globaltimer_ns");
  ASSERT_EQ(j.at("rows").size(), 1600u);
  const int sms = device_sms();
  ASSERT_GT(sms, 0);
  std::set<std::pair<int, int>> block_sm;
  for (const auto& row : j.at("rows")) {
    EXPECT_EQ(row.at("lane"), row.at("linear").get<unsigned>() % 32);
    EXPECT_LT(row.at("sm").get<int>(), sms);
    const int block = row.at("block_x").get<int>() + 4 * row.at("block_y").get<int>();
    block_sm.insert({block, row.at("sm").get<int>()});
  }
  EXPECT_EQ(block_sm.size(), 8u) << "every thread of a block reports the block's SM";
  EXPECT_EQ(j.at("placement").at("split_blocks"), 0);
  EXPECT_EQ(j.at("placement").at("device_sms"), sms);
}

TEST_F(ThreadsGpu, ManyBlocksSpreadOverSeveralSms) {
  const auto r = run_gpurun("threads --run --backend cuda --grid 264 --block 1024 --limit 8");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("capture check: all 270336 threads match"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("placement: 264 blocks on"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("placement: 264 blocks on 1 SM "), std::string::npos) << r.out;
}

TEST_F(ThreadsGpu, DeviceWarpSizeIsTheDefault) {
  const auto r = run_gpurun("threads --backend cuda --block 100 --format json --limit 0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("warp_size"), 32);
  EXPECT_NE(j.at("warp_size_source").get<std::string>().find("cuda:0"), std::string::npos);
}

} // namespace
} // namespace gpurun
