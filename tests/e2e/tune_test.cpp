// End-to-end: `gpurun tune` through the real binary on the CPU backend — a small space with a
// configuration that does not compile and one that computes a wrong answer, a resumed search
// that evaluates nothing twice, and --simulate replaying a cache deterministically.
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

// ITEMS 8 gives a wrong answer, ITEMS 16 does not compile (tests/data/e2e/tune_scale.cu).
const std::string k_tune =
    "tune tests/data/e2e/tune_scale.cu --backend cpu -p 'ITEMS=[1,2,4,8,16]' "
    "-p 'BLOCK=[32,64]' --restrict 'BLOCK*ITEMS <= 512' "
    "-g '(1024+BLOCK*ITEMS-1)/(BLOCK*ITEMS)' -b BLOCK --arg 'x=f32[1024]:rand(seed=3)' "
    "--arg 'y=f32[1024]:0' --arg n=1024 --min-samples 2 --min-time 0 --max-noise 50";

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::map<std::string, std::string> statuses(const nlohmann::json& report) {
  std::map<std::string, std::string> out;
  for (const auto& e : report.at("evaluations"))
    out[e.at("key").get<std::string>()] = e.at("status").get<std::string>();
  return out;
}

TEST(TuneE2E, FailuresAreRecordedAndAWrongAnswerNeverWins) {
  const auto dir = temp_dir();
  const auto r = run_gpurun(k_tune + " --json " + (dir / "t.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const auto report = read_json(dir / "t.json");
  EXPECT_EQ(report.at("space_size"), 9); // 16·64 = 1024 > 512
  EXPECT_EQ(report.at("visited"), 9);
  const auto s = statuses(report);
  EXPECT_EQ(s.at("8,32"), "wrong_answer");
  EXPECT_EQ(s.at("8,64"), "wrong_answer");
  EXPECT_EQ(s.at("16,32"), "compile_error");
  EXPECT_EQ(s.at("4,64"), "ok");
  const std::string best = report.at("best").at("key");
  EXPECT_EQ(s.at(best), "ok");
  for (const auto& t : report.at("top"))
    EXPECT_EQ(t.at("status"), "ok");
  EXPECT_EQ(report.at("convergence").size(), 9u);
  EXPECT_NE(r.out.find("2 wrong answers"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("best: "), std::string::npos) << r.out;
}

TEST(TuneE2E, ACachedSearchResumesWithoutEvaluatingAnythingTwice) {
  const auto dir = temp_dir();
  const std::string cache = " --cache " + (dir / "c.cache").string();
  // First 4 configurations of a random walk, then all 9 with the same seed.
  auto r = run_gpurun(k_tune + cache + " --strategy random --seed 5 --budget 4 --json " +
                      (dir / "a.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "a.json").at("evaluated"), 4);
  r = run_gpurun(k_tune + cache + " --strategy random --seed 5 --json " +
                 (dir / "b.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto b = read_json(dir / "b.json");
  EXPECT_EQ(b.at("visited"), 9);
  EXPECT_EQ(b.at("evaluated"), 5);
  std::size_t from_cache = 0;
  for (const auto& e : b.at("evaluations"))
    from_cache += e.at("from_cache").get<bool>() ? 1 : 0;
  EXPECT_EQ(from_cache, 4u);
  // Everything is known now: a third run evaluates nothing.
  r = run_gpurun(k_tune + cache + " --json " + (dir / "c.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "c.json").at("evaluated"), 0);
  // The cache holds one line per configuration, after its header.
  std::ifstream in(dir / "c.cache");
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);)
    ++lines;
  EXPECT_EQ(lines, 10u);

  // --simulate: the same seed gives the same walk; the cache's timings, no device.
  const std::string sim = "tune --simulate " + (dir / "c.cache").string() +
                          " --strategy bayes --budget 6 --seed 11 --json ";
  ASSERT_EQ(run_gpurun(sim + (dir / "s1.json").string()).exit_code, 0);
  ASSERT_EQ(run_gpurun(sim + (dir / "s2.json").string()).exit_code, 0);
  const auto s1 = read_json(dir / "s1.json");
  const auto s2 = read_json(dir / "s2.json");
  EXPECT_EQ(s1.at("evaluations"), s2.at("evaluations"));
  EXPECT_EQ(s1.at("visited"), 6);
  EXPECT_EQ(s1.at("evaluated"), 0);
  // A line cut short (a crash while writing) is skipped, with a warning.
  std::ofstream(dir / "c.cache", std::ios::app) << "{\"key\": \"cut";
  r = run_gpurun(k_tune + cache + " --json " + (dir / "d.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1 damaged line(s) skipped"), std::string::npos) << r.err;
  EXPECT_EQ(read_json(dir / "d.json").at("evaluated"), 0);
}

TEST(TuneE2E, TheReferenceConfigurationAndExpectVerifyTheOutputs) {
  const auto dir = temp_dir();
  // A reference that itself gives the wrong answer: every correct configuration now "differs".
  auto r = run_gpurun(k_tune + " --reference 'ITEMS=8,BLOCK=32' --json " +
                      (dir / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto s = statuses(read_json(dir / "r.json"));
  EXPECT_EQ(s.at("1,32"), "wrong_answer");
  EXPECT_EQ(s.at("8,64"), "ok");
  // --expect: fixed values, no reference run.
  r = run_gpurun(k_tune + " --expect 'y=f32[1024]:0' --json " + (dir / "e.json").string());
  EXPECT_EQ(r.exit_code, 1) << r.err; // nothing writes zeros: no configuration passes
  EXPECT_NE(r.out.find("best: none"), std::string::npos) << r.out;
}

// A cache made on the H200 by brute force over Kernel Tuner's matmul example (40 configurations,
// 4 of which ptxas refuses: too much shared memory), replayed without a device.
TEST(TuneE2E, ReplaysACacheMadeOnTheGpu) {
  const auto dir = temp_dir();
  const std::string cache = "tests/data/tune/matmul_h200.cache";
  auto r = run_gpurun("tune --simulate " + cache + " --json " + (dir / "b.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto brute = read_json(dir / "b.json");
  EXPECT_EQ(brute.at("strategy"), "brute_force");
  EXPECT_EQ(brute.at("visited"), 40);
  EXPECT_EQ(brute.at("best").at("key"), "32,4,4,8");
  EXPECT_EQ(brute.at("device"), "NVIDIA H200");
  std::size_t failed = 0;
  for (const auto& e : brute.at("evaluations"))
    failed += e.at("status") == "compile_error" ? 1 : 0;
  EXPECT_EQ(failed, 4u);
  // A guided search finds the same best within the budget, the same way for the same seed.
  const std::string bayes = "tune --simulate " + cache + " --strategy bayes --budget 20 --seed 4";
  r = run_gpurun(bayes + " --json " + (dir / "s1.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(run_gpurun(bayes + " --json " + (dir / "s2.json").string()).exit_code, 0);
  EXPECT_EQ(read_json(dir / "s1.json").at("evaluations"),
            read_json(dir / "s2.json").at("evaluations"));
  // Strategies compared over seeds.
  r = run_gpurun("tune --simulate " + cache + " --repeat 5 --budget 40 --json " +
                 (dir / "cmp.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_json(dir / "cmp.json").at("strategies").size(), 4u);
  EXPECT_NE(r.out.find("bayes"), std::string::npos) << r.out;
}

TEST(TuneE2E, BadInputIsAOneLineUsageError) {
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {" --strategy hill", "--strategy hill: not a strategy"},
           {" --budget 5x", "--budget 5x: the unit 'x'"},
           {" --restrict 'Q > 2'", "'Q' is not a parameter"},
           {" --reference 'ITEMS=3,BLOCK=32'", "--reference ITEMS=3,BLOCK=32: not a configuration"},
           {" --objective gbs", "--objective gbs: needs --bytes"},
       }) {
    const auto r = run_gpurun(k_tune + args);
    EXPECT_EQ(r.exit_code, 2) << args << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << args << ": " << r.err;
  }
  const auto r = run_gpurun("tune --simulate /nonexistent.cache");
  EXPECT_EQ(r.exit_code, 2);
}

TEST(TuneE2E, ListsTheSpaceAndTemplateArgumentsAreNotMacros) {
  auto r = run_gpurun(k_tune + " --list");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ITEMS=4, BLOCK=64"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ITEMS=16, BLOCK=64"), std::string::npos) << r.out;
  // saxpy<T>: T is a template argument (a macro T=float would break the template's own T).
  r = run_gpurun("tune kernels/examples/saxpy.cu -k 'saxpy<T>' -p 'T=[float,double]' --backend cpu "
                 "-g 4 -b 64 --arg a=2 --arg 'x=f32[256]:1' --arg 'y=f32[256]:2' --arg n=256 "
                 "--min-samples 2 --min-time 0 --max-noise 50");
  EXPECT_NE(r.out.find("T=float"), std::string::npos) << r.out << r.err;
}

} // namespace
} // namespace gpurun::test
