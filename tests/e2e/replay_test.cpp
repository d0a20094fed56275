// End-to-end: the argument grammar a captured launch is replayed with (pointers into named
// buffers, records for structs passed by value, --memory buffers, --exact) and capture folders
// replayed on the CPU backend.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu = " --backend cpu --no-cache";

TEST(ReplayE2E, ARecordPassesAStructWhosePointerReachesAMemoryBuffer) {
  // View{&pool[4], 4, 2.0f}, marker = &pool[15]: one buffer, reached only through pointers.
  const auto r = run_gpurun(
      "tests/data/replay/views.cu --kernel scale_view --grid 1 --block 32 "
      "--memory 'pool=f32[16]:iota' --arg 'v={&pool+16, i32:4, f32:2}' --arg 'marker=&pool+60' "
      "--expect 'pool=f32[16]:[0,1,2,3,8,10,12,14,8,9,10,11,12,13,14,-1]' --exact --json" +
      cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["checks"][0]["passed"], true);
  EXPECT_EQ(doc["buffers"]["pool"]["values"][15], -1.0);
}

// Launches `gpurun capture` recorded on the H200 from an nvcc-built program (its fatbin holds
// sm_90 SASS and compute_90 PTX): the CPU backend replays them from the PTX and reproduces the
// GPU's after-images bit for bit — a struct by value with a pointer inside, a pointer 256 bytes
// into its allocation.
TEST(ReplayE2E, CapturesMadeOnTheGpuReplayBitForBitOnTheCpu) {
  for (const char* capture : {"tests/data/capture/h200/_Z10scale_bias5ScalePf-1/capture.json",
                              "tests/data/capture/h200/_Z5saxpyfPKfPfi-1/capture.json"}) {
    const auto r = run_gpurun(std::string(capture) + " --json" + cpu);
    ASSERT_EQ(r.exit_code, 0) << capture << r.err << r.out;
    const auto doc = nlohmann::json::parse(r.out);
    ASSERT_EQ(doc["checks"].size(), 2u) << capture;
    for (const auto& c : doc["checks"]) {
      EXPECT_EQ(c["passed"], true) << capture << c.dump();
      EXPECT_EQ(c["mismatches"], 0) << capture;
    }
  }
}

TEST(ReplayE2E, TwoPointersIntoOneBufferSeeEachOthersWrites) {
  // y = pool[8..16), x = pool[0..8): y[i] += x[i] in place.
  const auto r = run_gpurun("tests/data/replay/views.cu --kernel shift_add --grid 1 --block 8 "
                            "--memory 'pool=f32[16]:iota' --arg '&pool' --arg '&pool+32' "
                            "--arg n=8 --expect 'pool=f32[16]:[0,1,2,3,4,5,6,7,8,10,12,14,16,"
                            "18,20,22]' --exact" +
                            cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
}

TEST(ReplayE2E, ExactFailsOnANegativeZeroThatTolerancesAccept) {
  const std::string run = "tests/data/replay/views.cu --kernel shift_add --grid 1 --block 2 "
                          "--arg 'x=f32[2]:[-0.0, 1]' --arg 'y=f32[2]:[0, 1]' --arg n=2 "
                          "--expect 'y=f32[2]:[0, 2]'";
  EXPECT_EQ(run_gpurun(run + cpu).exit_code, 0);
  // 0 + -0 is +0: the same bits. Expecting -0 passes by value, fails bit for bit.
  const std::string negative = "tests/data/replay/views.cu --kernel shift_add --grid 1 --block 2 "
                               "--arg 'x=f32[2]:[0, 1]' --arg 'y=f32[2]:[0, 1]' --arg n=2 "
                               "--expect 'y=f32[2]:[-0.0, 2]'";
  EXPECT_EQ(run_gpurun(negative + cpu).exit_code, 0);
  const auto r = run_gpurun(negative + " --exact" + cpu);
  EXPECT_EQ(r.exit_code, 1) << r.err << r.out;
}

TEST(ReplayE2E, BadPointersAndRecordsAreUsageErrorsNamingTheArgument) {
  const std::string base = "tests/data/replay/views.cu --kernel scale_view --grid 1 --block 1 "
                           "--memory 'pool=f32[16]'";
  auto r = run_gpurun(base + " --arg 'v={&nosuch, i32:4, f32:2}' --arg '&pool'" + cpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no buffer named 'nosuch' (buffers: pool)"), std::string::npos) << r.err;
  r = run_gpurun(base + " --arg 'v={&pool, i32:4, f32:2}' --arg '&pool+65'" + cpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("byte 65 is past the end of buffer 'pool' (64 bytes)"), std::string::npos)
      << r.err;
  r = run_gpurun(base + " --arg 'v={&pool}' --arg '&pool'" + cpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("a record of 8 bytes for parameter 'View v' (16 bytes)"), std::string::npos)
      << r.err;
  r = run_gpurun(base + " --arg 'v={&pool, i32:4, f32:2}' --arg 'marker=5'" + cpu);
  EXPECT_EQ(r.exit_code, 2);
  r = run_gpurun(base + " --arg 'v={&pool, i32:4, f32:2}' --arg '&pool' --memory pool=f32[2]" +
                 cpu);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'pool' is given twice"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
