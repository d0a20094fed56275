// End-to-end: --racecheck, --initcheck, --synccheck and the device heap's --memcheck checks on the
// planted-bug corpus (tests/data/sanitizers/corpus.txt, the list scripts/sanitizer-compare.sh
// holds against compute-sanitizer): every planted bug is found by its tool, and no clean kernel
// gives a finding under any tool.
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu = " --backend cpu --no-cache --print none";
const std::string dir = "tests/data/sanitizers/";

struct Case {
  std::string id, tool, expect, file, args;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(' ');
  const auto e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<Case> corpus() {
  std::ifstream in(source_dir() / "tests/data/sanitizers/corpus.txt");
  std::vector<Case> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '|');)
      f.push_back(trim(part));
    if (f.size() == 5)
      cases.push_back({f[0], f[1], f[2], f[3], f[4]});
  }
  return cases;
}

// Each argument single-quoted for the shell (they hold brackets and parentheses).
std::string quoted(const std::string& args) {
  std::stringstream ss(args);
  std::string out;
  for (std::string word; ss >> word;)
    out += " '" + word + "'";
  return out;
}

std::string flags(const std::string& tool) {
  if (tool == "memcheck")
    return " --memcheck --leak-check";
  return " --" + tool;
}

RunResult run_case(const Case& c, const std::string& tool) {
  return run_gpurun(dir + c.file + quoted(c.args) + flags(tool) + cpu);
}

TEST(SanitizerCorpus, HasAtLeastSixBugsPerToolAndCleanKernels) {
  std::map<std::string, int> bugs;
  int clean = 0;
  for (const Case& c : corpus())
    c.expect == "bug" ? ++bugs[c.tool] : ++clean;
  for (const char* tool : {"racecheck", "initcheck", "synccheck", "memcheck"})
    EXPECT_GE(bugs[tool], 6) << tool;
  EXPECT_GE(clean, 6);
}

TEST(SanitizerCorpus, EveryPlantedBugIsFound) {
  for (const Case& c : corpus()) {
    if (c.expect != "bug")
      continue;
    SCOPED_TRACE(c.id);
    const RunResult r = run_case(c, c.tool);
    if (c.id == "race_flag") { // same-value writes: a warning, the run succeeds
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_NE(r.err.find("racecheck found 1 warning"), std::string::npos) << r.err;
      continue;
    }
    EXPECT_EQ(r.exit_code, 4) << r.err;
  }
}

TEST(SanitizerCorpus, NoCleanKernelGivesAFinding) {
  for (const Case& c : corpus()) {
    if (c.expect != "clean")
      continue;
    for (const char* tool : {"racecheck", "initcheck", "synccheck", "memcheck"}) {
      SCOPED_TRACE(c.id + " " + tool);
      const RunResult r = run_case(c, tool);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.err, "");
    }
  }
}

TEST(Racecheck, NamesBothAccessesTheVariableAndTheSourceLines) {
  const RunResult r = run_gpurun(dir +
                                 "race_transpose_missing_barrier.cu --kernel transpose "
                                 "--grid 1 --block 32,32 --arg 'f32[1024]:iota' "
                                 "--arg 'f32[1024]' --arg 32 --racecheck" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("gpurun: error: kernel 'transpose': racecheck found 2 errors"),
            std::string::npos)
      << r.err;
  // The tile is written at line 7 and read transposed at line 11: warp 0 reads what warp 1
  // writes later (write-after-read) and warp 1 reads what warp 0 wrote (read-after-write).
  EXPECT_NE(r.err.find("racecheck error: read-after-write hazard on shared variable "
                       "'transpose::tile' offset 4 (4 bytes) in kernel 'transpose' block (0,0,0): "
                       "write by thread (1,0,0) at PTX line"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(race_transpose_missing_barrier.cu:7), then a read by thread (0,1,0) at "
                       "PTX line"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(race_transpose_missing_barrier.cu:11), with no barrier between [496 "
                       "times]"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("racecheck error: write-after-read hazard"), std::string::npos) << r.err;
}

TEST(Racecheck, SilentWithoutTheFlag) {
  const RunResult r = run_gpurun(dir +
                                 "race_reduce_missing_barrier.cu --kernel reduce --grid 4 "
                                 "--block 256 --arg 'f32[1024]:ones' --arg 'f32[4]'" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(Racecheck, SameValueWritesAreAWarning) {
  const RunResult r = run_gpurun(dir +
                                 "race_flag_same_value.cu --kernel any_negative --grid 2 "
                                 "--block 128 --arg 'f32[256]:rand(seed=3,-1,1)' "
                                 "--arg 'i32[2]' --racecheck --json" +
                                 cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc.contains("warnings"));
  const auto& w = doc.at("warnings");
  EXPECT_EQ(w.at(0), "kernel 'any_negative': racecheck found 1 warning");
  EXPECT_NE(w.at(1).get<std::string>().find(
                "racecheck warning: write-after-write hazard (the same value written) on shared "
                "variable"),
            std::string::npos)
      << w;
}

TEST(Findings, AreLimitedThenCounted) {
  // The transpose has two hazards; --max-findings 1 shows the first and counts the other.
  const RunResult r = run_gpurun(dir +
                                 "race_transpose_missing_barrier.cu --kernel transpose "
                                 "--grid 1 --block 32,32 --arg 'f32[1024]:iota' "
                                 "--arg 'f32[1024]' --arg 32 --racecheck --max-findings 1" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("racecheck found 2 errors\nracecheck error: write-after-read hazard"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\n… and 1 more not shown (--max-findings 1): racecheck 1 error\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 3) << r.err;
}

TEST(Findings, JsonCarriesTheSummaryAndTheDetails) {
  const RunResult r =
      run_gpurun(dir +
                 "init_accumulate_output.cu --kernel axpy_accumulate --grid 4 --block 256 "
                 "--arg 'f32[1024]:ones' --arg 'out=f32[1024]:uninit' --arg 2.0 "
                 "--arg 1024 --initcheck --json" +
                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("exit_code"), 4);
  EXPECT_EQ(doc.at("error").at("message"), "kernel 'axpy_accumulate': initcheck found 1 error");
  const std::string details = doc.at("error").at("details");
  EXPECT_NE(details.find("initcheck error: read of 4 bytes of uninitialized global memory at"),
            std::string::npos)
      << details;
  EXPECT_NE(details.find("offset 0 of allocation #2 'out' (4096 bytes"), std::string::npos)
      << details;
  EXPECT_NE(details.find("[1024 times]"), std::string::npos) << details;
}

TEST(Initcheck, AZeroFilledBufferIsInitialized) {
  // Without `uninit` the host writes zeros into the output: nothing to report.
  const RunResult r =
      run_gpurun(dir +
                 "init_accumulate_output.cu --kernel axpy_accumulate --grid 4 --block 256 "
                 "--arg 'f32[1024]:ones' --arg 'out=f32[1024]' --arg 2.0 --arg 1024 "
                 "--initcheck" +
                 cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(Initcheck, NamesTheSharedVariable) {
  const RunResult r = run_gpurun(dir +
                                 "init_shared_partial_tile.cu --kernel edge_tile --grid 4 "
                                 "--block 32 --arg 'f32[100]:ones' --arg 'f32[128]' "
                                 "--arg 100 --initcheck" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("uninitialized shared variable 'edge_tile::tile' offset 124 in kernel "
                       "'edge_tile' block (3,0,0) thread (0,0,0)"),
            std::string::npos)
      << r.err;
}

TEST(Synccheck, NamesTheThreadsThatDidAndDidNotArrive) {
  const RunResult r = run_gpurun(dir +
                                 "sync_half_warp_barrier.cu --kernel half_warp --grid 1 "
                                 "--block 64 --arg 'i32[64]' --synccheck" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("divergent barrier in kernel 'half_warp' block (0,0,0): threads (0..15, "
                       "32..47) reached 1 block-wide barrier"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("threads (16..31, 48..63) reached fewer (as few as 0)"), std::string::npos)
      << r.err;
}

TEST(Synccheck, AMaskWithoutTheCallerIsReported) {
  const RunResult r = run_gpurun(dir +
                                 "sync_syncwarp_bad_mask.cu --kernel lower_half_sync "
                                 "--grid 1 --block 32 --arg 'i32[32]' --synccheck" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("invalid member mask 0x0000ffff of bar.warp.sync"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("(warp 0 lane 16)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("it does not include the calling lane"), std::string::npos) << r.err;
}

TEST(Synccheck, ADeadlockNamesWhoWaits) {
  const RunResult r = run_gpurun(dir +
                                 "sync_named_barrier_count.cu --kernel producer_consumer "
                                 "--grid 1 --block 128 --arg 'i32[128]'" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("deadlocked at bar.sync in block (0,0,0): 64 of 64 live threads arrived: "
                       "threads (64..127) wait at bar.sync (PTX line"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("barrier 1 waits for a thread count of 128, which the live threads never "
                       "reach"),
            std::string::npos)
      << r.err;
}

TEST(DeviceHeap, MallocAndFreeRun) {
  const RunResult r = run_gpurun("tests/data/sanitizers/clean_heap.cu --kernel scratch --grid 2 "
                                 "--block 64 --arg 'i32[128]:iota' --arg 'out=i32[128]' "
                                 "--backend cpu --no-cache --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto values = doc.at("buffers").at("out").at("values").get<std::vector<int>>();
  ASSERT_EQ(values.size(), 128u);
  for (int i = 0; i < 128; ++i)
    EXPECT_EQ(values[i], 28 * i); // sum of i * k for k < 8
}

TEST(DeviceHeap, ASmallHeapRunsOut) {
  const RunResult r = run_gpurun("tests/data/sanitizers/clean_heap.cu --kernel scratch --grid 2 "
                                 "--block 64 --arg 'i32[128]:iota' --arg 'out=i32[128]' "
                                 "--heap-size 512 --cpu-threads 1 --backend cpu --no-cache --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const auto values = doc.at("buffers").at("out").at("values").get<std::vector<int>>();
  // One worker runs the warps one after the other: each warp's first 16 blocks of 32 bytes fill
  // the heap, its other 16 lanes get NULL, and the warp frees its blocks before the next runs.
  EXPECT_EQ(std::count(values.begin(), values.end(), -1), 4 * 16);
  EXPECT_EQ(values[1], 28);
  EXPECT_EQ(values[17], -1);
}

TEST(DeviceHeap, MemcheckFindsADoubleFree) {
  const RunResult r = run_gpurun(dir +
                                 "heap_double_free.cu --kernel work --grid 1 --block 32 "
                                 "--arg 'i32[32]:iota(-4,1)' --arg 'i32[32]' --memcheck" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("memcheck error: double free of 0x"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(heap_double_free.cu:9) [4 times]"), std::string::npos) << r.err;
}

TEST(DeviceHeap, LeakCheckListsTheBlocks) {
  const RunResult r = run_gpurun(dir +
                                 "heap_leak.cu --kernel leaky --grid 1 --block 32 "
                                 "--arg 'i32[32]' --memcheck --leak-check --max-findings 2" +
                                 cpu);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("memcheck found 32 errors"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("memcheck error: leak: 128 bytes at 0x"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("… and 30 more not shown (--max-findings 2): memcheck 30 errors"),
            std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurun::test
