// End-to-end: `gpurun help TOPIC`, examples in every command's --help, colour only when asked or
// on a terminal, and plots of a benchmark sweep through gnuplot.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string seed = "kernels/examples/scalar_add.json --backend cpu --no-cache ";

TEST(Help, TopicsPrintTheDocsThatShipInTheBinary) {
  auto r = run_gpurun("help args");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("# Argument grammar\n", 0), 0u) << r.out.substr(0, 200);
  EXPECT_NE(r.out.find("BUFFER := TYPE '[' DIMS ']'"), std::string::npos);
  r = run_gpurun("help exit-codes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("`unavailable`"), std::string::npos);
  r = run_gpurun("help spec");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"grid\""), std::string::npos);
  // The overview lists topics with their titles, and the commands.
  r = run_gpurun("help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  args           Argument grammar"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  bench "), std::string::npos);
  EXPECT_NE(r.out.find("  threads "), std::string::npos);
  // A command's name gives its help.
  r = run_gpurun("help devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Usage: gpurun devices"), std::string::npos) << r.out;
}

TEST(Help, UnknownTopicIsAUsageErrorWithASuggestion) {
  const auto r = run_gpurun("help exit-code");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: help: no topic or command 'exit-code' (did you mean "
                   "'exit-codes'?) (gpurun help lists them)\n");
}

TEST(Help, EveryCommandEndsWithExamplesThatRun) {
  for (const std::string command :
       {"run", "bench", "compare", "compile", "devices", "merge", "threads", "cache", "plot"}) {
    const auto r = run_gpurun(command + " --help");
    ASSERT_EQ(r.exit_code, 0) << command;
    EXPECT_NE(r.out.find("\nExamples:\n  gpurun "), std::string::npos) << command << "\n" << r.out;
  }
  // The run examples are real command lines (on the CPU backend here).
  auto r = run_gpurun("kernels/examples/scalar_add.cu --grid 1 --block 20 --arg "
                      "'vector=f32[20]:iota' --arg size=20 --arg scalar=20.0 --backend cpu");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("kernels/examples/saxpy.cu -k 'saxpy<float>' -g 4 -b 256 -a a=2.0 -a "
                 "'x=f32[1024]:iota' -a 'y=f32[1024]:ones' -a n=1024 --expect "
                 "'y=f32[1024]:iota(1,2)' --backend cpu");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("threads --block 96 --where 'warp==2 && lane<4'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(Color, OffWhenPipedOnWhenAskedAndNoColorHonoured) {
  auto r = run_gpurun(seed + "--expect 'vector=f32[20]:iota(20,1)'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check vector: ok ("), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos); // piped: no colour
  r = run_gpurun(seed + "--expect 'vector=f32[20]:iota(20,1)' --color always");
  EXPECT_NE(r.out.find("check vector: \x1b[32mok\x1b[0m ("), std::string::npos) << r.out;
  r = run_gpurun(seed + "--expect 'vector=f32[20]:0' --color always");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FAILED\x1b[0m, 20 of 20"), std::string::npos) << r.out;
  // --color never, and an error's prefix in colour when asked.
  r = run_gpurun(seed + "--expect 'vector=f32[20]:0' --color never");
  EXPECT_EQ(r.out.find("\x1b["), std::string::npos);
  r = run_gpurun(seed + "--grid 0 --color always");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("gpurun: \x1b[1m\x1b[31merror:\x1b[0m ", 0), 0u) << r.err;
  // NO_COLOR with the automatic choice: none even on a terminal (script gives one).
  const auto tty = run_shell("command -v script >/dev/null && TERM=xterm NO_COLOR=1 script -qec '" +
                             gpurun_bin() + " " + seed + "--expect vector=f32[20]:iota\\(20,1\\)' "
                             "/dev/null");
  if (tty.exit_code == 0) {
    EXPECT_EQ(tty.out.find("\x1b[32m"), std::string::npos) << tty.out;
  }
  r = run_gpurun(seed + "--color sometimes");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: --color: 'sometimes' is not one of auto, always, never\n");
}

TEST(Color, OnATerminalTheVerdictIsColoured) {
  if (run_shell("command -v script").exit_code != 0)
    GTEST_SKIP() << "script (util-linux) not installed: no terminal to test with";
  const auto tty = run_shell("TERM=xterm script -qec '" + gpurun_bin() + " " + seed +
                             "--expect vector=f32[20]:iota\\(20,1\\)' /dev/null",
                             source_dir());
  EXPECT_EQ(tty.exit_code, 0) << tty.err;
  EXPECT_NE(tty.out.find("\x1b[32mok\x1b[0m"), std::string::npos) << tty.out;
}

bool have_gnuplot() { return run_shell("command -v gnuplot").exit_code == 0; }

TEST(Plot, BenchDrawsTheSweepAsSvg) {
  if (!have_gnuplot())
    GTEST_SKIP() << "gnuplot not installed (apt install gnuplot-nox)";
  const auto dir = temp_dir();
  const auto svg = dir / "sweep.svg";
  const auto json = dir / "sweep.json";
  const auto r = run_gpurun(
      "bench kernels/examples/saxpy.cu -k 'saxpy<float>' -a 'N[pow2]=[8:11]' -g '(N+255)/256' "
      "-b 256 --arg a=2.0 --arg 'x=f32[N]:rand(seed=1)' --arg 'y=f32[N]:rand(seed=2)' --arg n=N "
      "--bytes '3*N*4' --backend cpu --min-samples 3 --min-time 0 --max-noise 50 "
      "--plot " + svg.string() + " --json " + json.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("<svg"), std::string::npos);
  EXPECT_NE(text.find("bandwidth (GB/s)"), std::string::npos);
  EXPECT_NE(text.find("<text>saxpy</text>"), std::string::npos) << text.substr(0, 2000);
  EXPECT_NE(text.find("<text>N</text>"), std::string::npos);
  EXPECT_NE(text.find(">2</tspan><tspan"), std::string::npos); // 2^k ticks: a log2 axis
  // The same plot from the JSON, as time.
  const auto again = run_gpurun("plot " + json.string() + " --y time");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, "wrote " + (dir / "sweep.svg").string() + " (1 series against N)\n");
  std::ifstream in2(svg);
  const std::string text2((std::istreambuf_iterator<char>(in2)), std::istreambuf_iterator<char>());
  EXPECT_NE(text2.find("median time"), std::string::npos);
}

TEST(Plot, RooflineFromAResultFileAndWhyNotWithoutRoofs) {
  if (!have_gnuplot())
    GTEST_SKIP() << "gnuplot not installed (apt install gnuplot-nox)";
  const auto dir = temp_dir();
  // The CPU backend has no roofs: its results say so when asked for a roofline.
  const auto cpu = dir / "cpu.json";
  auto r = run_gpurun("bench kernels/suites/stream.json --backend cpu -a 'N[pow2]=[10:10]' "
                      "--filter '^triad/' --min-samples 3 --max-samples 3 --min-time 0 --json " +
                      cpu.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_gpurun("plot " + cpu.string() + " --roofline -o " + (dir / "cpu.svg").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(cpu.string() + ": no roofline"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "cpu.svg"));
  // A GPU's result, as bench --metrics roofline writes it: roofs and a point per case.
  const auto gpu = dir / "gpu.json";
  std::ofstream(gpu) << R"({"context": {"gpurun": {"suite": "mm", "device": "NVIDIA H100",
    "roofline": {"bandwidth_bytes_per_s": 3.35e12, "source": "counters",
                 "compute_flops_per_s": {"fp32": 6.68e13, "fp64": 3.34e13}}}},
    "benchmarks": [{"name": "tiled/N:1024", "gpurun": {"case": "tiled", "axes": {"N": "1024"},
      "samples_s": [1.35e-4], "median_s": 1.35e-4,
      "roofline": {"precision": "fp32", "intensity": 255, "achieved_flops_per_s": 1.59e13,
                   "bound": "compute", "fraction": 0.238, "source": "counters"}}}]})";
  r = run_gpurun("plot " + gpu.string() + " --roofline");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + (dir / "gpu.svg").string() + " (1 case on the counters roofline)\n");
  std::ifstream in(dir / "gpu.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(svg.find("fp32 roof 66.8 TFLOP/s (3.35 TB/s DRAM)"), std::string::npos)
      << svg.substr(0, 2000);
  EXPECT_NE(svg.find("tiled/N:1024 (fp32)"), std::string::npos);
}

TEST(Plot, BadTargetsFailBeforeTheSuiteRuns) {
  const auto dir = temp_dir();
  auto r = run_gpurun("bench kernels/suites/stream.json --backend cpu --plot " + dir.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: --plot " + dir.string() + ": is a folder, not a file\n");
  r = run_gpurun("bench kernels/suites/stream.json --backend cpu --plot /nonexistent/x.svg");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("the folder '/nonexistent' does not exist"), std::string::npos) << r.err;
  r = run_gpurun("bench kernels/suites/stream.json --backend cpu --plot-y speed");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "gpurun: error: --plot-y: 'speed' is not one of auto, time, bandwidth, flops\n");
  // Without gnuplot on PATH: exit 5, before any case ran.
  r = run_shell("PATH=/nonexistent " + gpurun_bin() +
                    " bench kernels/suites/stream.json --backend cpu --plot " +
                    (dir / "x.svg").string(),
                source_dir());
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_NE(r.err.find("gnuplot is not installed (Debian: apt install gnuplot-nox)"),
            std::string::npos)
      << r.err;
  r = run_gpurun("plot kernels/suites/stream.json -o " + (dir / "y.svg").string());
  EXPECT_EQ(r.exit_code, have_gnuplot() ? 2 : 5);
}

} // namespace
} // namespace gpurun::test
