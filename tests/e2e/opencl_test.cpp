// End-to-end: OpenCL C kernels through the real binary on the OpenCL backend (PoCL in CI). The
// bundled .cl examples must give exactly what their .cu twins give on the CPU backend; errors
// (build, arguments, faults, hangs, flags OpenCL has no counterpart of) exit with their
// documented codes and one clear line.
#include <algorithm>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

const char* const examples[] = {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial",
                                "print_threads"};

class OpenclE2E : public ::testing::Test {
protected:
  void SetUp() override {
    static const RunResult probe = run_gpurun("devices --check opencl");
    if (probe.exit_code != 0)
      GTEST_SKIP() << "OpenCL unavailable: " << probe.err;
  }
};

TEST_F(OpenclE2E, EveryBundledExampleRunsAndPassesItsChecks) {
  for (const char* name : examples) {
    const auto r = run_gpurun(std::string("kernels/examples/opencl/") + name + ".json");
    EXPECT_EQ(r.exit_code, 0) << name << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("opencl:0"), std::string::npos) << name << ": " << r.out;
  }
}

TEST_F(OpenclE2E, ExamplesGiveTheirCudaTwinsBuffersOnTheCpuBackend) {
  for (const char* name : {"scalar_add", "vector_add", "saxpy", "reduce_sum"}) {
    const fs::path dir = temp_dir();
    auto cu = run_gpurun(std::string("kernels/examples/") + name + ".json --backend cpu -q --save " +
                         (dir / "cu").string());
    if (cu.exit_code == 5)
      GTEST_SKIP() << "no CUDA compiler for the twins: " << cu.err;
    ASSERT_EQ(cu.exit_code, 0) << name << ".cu\n" << cu.err;
    auto cl = run_gpurun(std::string("kernels/examples/opencl/") + name + ".json -q --save " +
                         (dir / "cl").string());
    ASSERT_EQ(cl.exit_code, 0) << name << ".cl\n" << cl.err;
    int compared = 0;
    for (const auto& entry : fs::directory_iterator(dir / "cu")) {
      const fs::path twin = dir / "cl" / entry.path().filename();
      if (!fs::exists(twin))
        continue; // a buffer only one side has (none of these kernels has one)
      EXPECT_EQ(slurp(entry.path()), slurp(twin)) << name << ": " << twin.filename();
      ++compared;
    }
    EXPECT_GE(compared, 1) << name;
  }
}

TEST_F(OpenclE2E, DevicePrintfMatchesTheCudaTwinLineForLine) {
  const auto cl = run_gpurun("kernels/examples/opencl/print_threads.json -q");
  ASSERT_EQ(cl.exit_code, 0) << cl.err;
  const auto lines = sorted_lines(cl.out);
  EXPECT_EQ(lines.size(), 2u * 2 * 4 * 4 * 2) << cl.out;
  EXPECT_NE(cl.out.find("block_idx: [1, 1, 0]\tthread_idx: [3, 3, 1]\tglobal_idx: [7, 7, 1]"),
            std::string::npos);
  const auto cu = run_gpurun("kernels/examples/print_threads.json --backend cpu -q");
  if (cu.exit_code == 0)
    EXPECT_EQ(lines, sorted_lines(cu.out));
  // With --json the printf text is part of the document, not printed into it.
  const auto json = run_gpurun("kernels/examples/opencl/print_threads.json --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto doc = nlohmann::json::parse(json.out);
  EXPECT_NE(doc.dump().find("global_idx: [7, 7, 1]"), std::string::npos);
}

TEST_F(OpenclE2E, DevicesListsThePlatformAndItsDevices) {
  const auto r = run_gpurun("devices --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& backend : doc["backends"])
    if (backend["name"] == "opencl") {
      found = true;
      EXPECT_TRUE(backend["available"].get<bool>());
      ASSERT_FALSE(backend["devices"].empty());
      // The platform is named with the device.
      EXPECT_NE(backend["devices"][0]["name"].get<std::string>().find('('), std::string::npos);
    }
  EXPECT_TRUE(found) << r.out;
}

TEST_F(OpenclE2E, BuildErrorsExitThreeWithTheFileAndLine) {
  const auto r = run_gpurun("tests/data/opencl/build_error.cl --grid 1 --block 1 --arg x=f32[1]");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.err.find("build_error.cl:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undeclared_name"), std::string::npos) << r.err;
}

TEST_F(OpenclE2E, LocalMemoryArgumentsAreCheckedAgainstTheSignature) {
  const std::string base = "kernels/examples/reduce_sum.cl --grid 4 --block 256 "
                           "--arg in=f32[1024]:ones --arg out=f32[4] --arg n=1024 ";
  auto r = run_gpurun(base + "--arg partial=f32[256]");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("takes a size of local memory"), std::string::npos) << r.err;
  r = run_gpurun(base + "--arg partial=local:1024 --expect out=[256,256,256,256]");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = run_gpurun(base + "--arg partial=local:1024 --shared 1024");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("__local pointer parameters"), std::string::npos) << r.err;
}

TEST_F(OpenclE2E, AKernelDeclaredThroughMacrosTakesItsSignatureFromTheProgram) {
  const auto r = run_gpurun("tests/data/opencl/macro_kernel.cl --kernel scale --grid 1 --block 8 "
                            "--arg data=f32[8]:iota --arg factor=2 --arg n=8 "
                            "--expect 'data=f32[8]:iota(0,2)'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // Its scalar is a float in the program: a value of another kind is refused before the launch.
  const auto wrong = run_gpurun("tests/data/opencl/macro_kernel.cl --kernel scale --grid 1 "
                                "--block 8 --arg data=f32[8] --arg factor=i32:2 --arg n=8");
  EXPECT_EQ(wrong.exit_code, 2) << wrong.err;
  EXPECT_NE(wrong.err.find("float factor"), std::string::npos) << wrong.err;
}

TEST_F(OpenclE2E, FlagsOpenclHasNoCounterpartOfAreRefusedNamingTheBackend) {
  for (const char* flag : {"--memcheck", "--racecheck", "--initcheck", "--stats"}) {
    const auto r = run_gpurun(std::string("kernels/examples/opencl/scalar_add.json ") + flag);
    EXPECT_EQ(r.exit_code, 2) << flag << ": " << r.err;
    EXPECT_NE(r.err.find("opencl backend"), std::string::npos) << flag << ": " << r.err;
  }
  const auto r = run_gpurun("kernels/examples/opencl/scalar_add.json --std c++17");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("CL3.0"), std::string::npos) << r.err;
  EXPECT_EQ(run_gpurun("kernels/examples/opencl/scalar_add.json --std CL3.0 -q").exit_code, 0);
}

TEST_F(OpenclE2E, DefinesReachTheBuild) {
  // saxpy.cl's REAL becomes double: the f32 buffers no longer fit its parameters.
  const auto r = run_gpurun("kernels/examples/opencl/saxpy.json -D REAL=double");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("double"), std::string::npos) << r.err;
  const auto ok = run_gpurun("kernels/examples/saxpy.cl --kernel saxpy -D REAL=double --grid 1 "
                             "--block 256 --arg a=2 --arg x=f64[256]:iota --arg y=f64[256]:ones "
                             "--arg n=256 --expect 'y=f64[256]:iota(1,2)'");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
}

TEST_F(OpenclE2E, AFaultExitsFourNamingTheKernel) {
  const auto r = run_gpurun("tests/data/opencl/fault.cl --grid 1 --block 4 --arg x=f32[8]");
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel 'fault'"), std::string::npos) << r.err;
}

TEST_F(OpenclE2E, AGridBeyondWhatPoclCountsIsAUsageError) {
  // PoCL counts work-groups in 32 bits; past that it aborts inside its scheduler.
  const auto r = run_gpurun("tests/data/opencl/fault.cl --grid 65536,65536 --block 1 "
                            "--arg x=f32[8] --timeout 5");
  if (r.out.find("Portable Computing Language") == std::string::npos &&
      r.err.find("work-groups") == std::string::npos)
    GTEST_SKIP() << "opencl:0 is not PoCL";
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("4294967296 work-groups"), std::string::npos) << r.err;
}

TEST_F(OpenclE2E, AHangEndsAtTheTimeout) {
  const auto r = run_gpurun("tests/data/opencl/hang.cl --grid 1 --block 1 --arg flag=i32[1]:0 "
                            "--timeout 1");
  EXPECT_EQ(r.exit_code, 124) << r.out << r.err;
  EXPECT_NE(r.err.find("kernel 'hang' did not finish within 1 s"), std::string::npos) << r.err;
}

TEST_F(OpenclE2E, BenchTimesOpenclKernelsWithProfilingEvents) {
  const fs::path dir = temp_dir();
  const auto r = run_gpurun("bench tests/data/opencl/suite.json --min-samples 5 --max-samples 20 "
                            "--json " + (dir / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto doc = nlohmann::json::parse(slurp(dir / "r.json"));
  std::set<std::string> cases;
  for (const auto& b : doc["benchmarks"]) {
    cases.insert(b["run_name"].get<std::string>());
    EXPECT_GT(b["real_time"].get<double>(), 0) << b.dump();
  }
  EXPECT_EQ(cases.size(), 4u) << doc.dump(); // vector_add at three sizes, reduce_sum
}

TEST_F(OpenclE2E, ThreadsRunCapturesEveryWorkItemWhereTheArithmeticSaysIt) {
  const auto r = run_gpurun("threads --run --backend opencl --grid 2,2 --block 8,3 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("backend"), "opencl");
  EXPECT_EQ(j.at("check").at("status"), "ok");
  EXPECT_EQ(j.at("check").at("compared"), 96);
  EXPECT_EQ(j.at("check").at("arrivals"), 96);
  std::vector<bool> seen(96, false);
  for (const auto& row : j.at("rows")) {
    const auto arrival = row.at("arrival").get<std::size_t>();
    ASSERT_LT(arrival, 96u);
    EXPECT_FALSE(seen[arrival]) << "arrival " << arrival << " twice";
    seen[arrival] = true;
  }
}

TEST_F(OpenclE2E, CompileListAndResourcesKnowOpenclC) {
  const fs::path out = temp_dir() / "k.bin";
  auto r = run_gpurun("compile kernels/examples/reduce_sum.cl -o " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(fs::file_size(out), 0u);
  r = run_gpurun("compile kernels/examples/reduce_sum.cl --ptx");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_gpurun("compile kernels/examples/reduce_sum.cl --resources");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("reduce_sum"), std::string::npos) << r.out;
  r = run_gpurun("list kernels/examples/reduce_sum.cl");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("__local float* partial"), std::string::npos) << r.out;
}

} // namespace
} // namespace gpurun::test
