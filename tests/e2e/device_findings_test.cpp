// End-to-end: what the CPU backend finds in a kernel that a GPU would not let pass silently —
// misaligned accesses (always checked, as the GPU faults on them), a full device printf buffer
// (bounded as the GPU's is) and barriers in divergent code.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu = " --backend cpu --no-cache";

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Alignment, AMisalignedLoadFaultsWithoutMemcheck) {
  auto r = run_gpurun("tests/data/e2e/misaligned_load.cu --grid 1 --block 1 "
                      "--arg 'in=f32[4]:iota' --arg 'out=f32[1]' --arg offset=2" +
                      cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("made a misaligned 4-byte access"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("offset 2 of allocation #1 'in'"), std::string::npos) << r.err;
  // An aligned offset is fine.
  r = run_gpurun("tests/data/e2e/misaligned_load.cu --grid 1 --block 1 "
                 "--arg 'in=f32[4]:iota' --arg 'out=f32[1]' --arg offset=8 -q" +
                 cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(DevicePrintf, ReturnsTheArgumentCount) {
  auto r = run_gpurun("tests/data/e2e/printf_count.cu --grid 1 --block 4 "
                      "--arg 'results=i32[4]' --arg n=4 --json" +
                      cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("buffers").at("results").at("values"), nlohmann::json({1, 1, 1, 1}));
  EXPECT_EQ(count_lines(doc.at("device_output").get<std::string>()), 4u);
  EXPECT_FALSE(doc.contains("warnings"));
}

// A record of printf("%d\n", i) takes 24 bytes (16-byte header, 8 per argument): a 12000-byte
// buffer holds 500 of 1000 calls. The rest are dropped, return -2, and the run says so.
TEST(DevicePrintf, AFullBufferDropsCallsAndSaysHowMany) {
  auto r = run_gpurun("tests/data/e2e/printf_count.cu --grid 4 --block 250 "
                      "--arg 'results=i32[1000]' --arg n=1000 --printf-buffer 12000 --json" +
                      cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(count_lines(doc.at("device_output").get<std::string>()), 500u);
  const auto values = doc.at("buffers").at("results").at("values").get<std::vector<int>>();
  EXPECT_EQ(std::count(values.begin(), values.end(), 1), 500);
  EXPECT_EQ(std::count(values.begin(), values.end(), -2), 500);
  const std::string warning = "500 of 1000 device printf calls were dropped: the printf buffer "
                              "(12000 bytes) was full (raise it with --printf-buffer)";
  ASSERT_TRUE(doc.contains("warnings"));
  EXPECT_NE(doc.at("warnings").at(0).get<std::string>().find(warning), std::string::npos)
      << doc.at("warnings");
  EXPECT_NE(r.err.find("gpurun: warning: kernel 'printf_count': " + warning), std::string::npos)
      << r.err;
}

// The default buffer is CUDA's 1 MiB: 43690 records of 24 bytes, however many threads print.
TEST(DevicePrintf, TheDefaultBufferIsOneMebibyte) {
  auto r = run_gpurun("tests/data/e2e/printf_count.cu --grid 200 --block 256 "
                      "--arg 'results=i32[51200]' --arg n=51200 --print none" +
                      cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t printed = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    printed += !line.empty() && line.find_first_not_of("0123456789") == std::string::npos;
  EXPECT_EQ(printed, 43690u);
  EXPECT_NE(r.err.find("7510 of 51200 device printf calls were dropped"), std::string::npos)
      << r.err;
}

TEST(Barriers, HalfAWarpAtABarrierIsReported) {
  auto r = run_gpurun("tests/data/e2e/divergent_barrier.cu --kernel half_warp_barrier --grid 1 "
                      "--block 64 --arg 'out=i32[64]' -q" +
                      cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("gpurun: warning: kernel 'half_warp_barrier' block (0,0,0): its threads "
                       "reached different numbers of block-wide barriers (__syncthreads): "
                       "thread (0,0,0) 1, thread (16,0,0) 0"),
            std::string::npos)
      << r.err;
}

TEST(Barriers, WarpsReachingDifferentCountsAreReported) {
  auto r = run_gpurun("tests/data/e2e/divergent_barrier.cu --kernel uneven_barriers --grid 3 "
                      "--block 96 --arg 'out=i32[96]' -q" +
                      cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("thread (64,0,0) 3, thread (0,0,0) 1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(and 2 more blocks)"), std::string::npos) << r.err;
}

TEST(Barriers, AgreeingBarriersSayNothing) {
  auto r = run_gpurun("tests/data/e2e/divergent_barrier.cu --kernel even_barriers --grid 2 "
                      "--block 64 --arg 'out=i32[64]' -q" +
                      cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

} // namespace
} // namespace gpurun::test
