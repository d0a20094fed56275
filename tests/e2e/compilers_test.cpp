// End-to-end: `--compiler clang` through the real binary on the CPU backend. Skips, saying why,
// when clang is not installed.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string cpu_clang = " --backend cpu --no-cache --compiler clang";

class CompilersE2E : public ::testing::Test {
protected:
  void SetUp() override {
    // Exit 5 names what is missing when clang cannot be used.
    static const RunResult probe = run_gpurun("kernels/examples/scalar_add.json -q" + cpu_clang);
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
};

TEST_F(CompilersE2E, SeedScalarAddWithClang) {
  auto r = run_gpurun("kernels/examples/scalar_add.cu --grid 1 --block 20 "
                      "--arg 'vector=f32[20]:iota' --arg 'size=20' --arg 'scalar=20.0'" +
                      cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("39."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(clang "), std::string::npos) << "the timing line names the compiler\n"
                                                      << r.out;
}

TEST_F(CompilersE2E, JsonReportNamesTheCompiler) {
  auto r = run_gpurun("kernels/examples/saxpy.json --json" + cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_TRUE(doc["compiler"].is_string()) << doc.dump();
  EXPECT_EQ(doc["compiler"].get<std::string>().rfind("clang ", 0), 0u) << doc["compiler"];
  EXPECT_EQ(doc["kernel"], "saxpy<float>");
  EXPECT_EQ(doc["lowered_name"], "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

TEST_F(CompilersE2E, EveryBundledExamplePassesItsChecksWithClang) {
  for (const char* spec : {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial"}) {
    auto r = run_gpurun(std::string("kernels/examples/") + spec + ".json" + cpu_clang);
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.out << r.err;
  }
  auto r = run_gpurun("kernels/examples/print_threads.json" + cpu_clang);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("block_idx: [1, 1, 0]\tthread_idx: [3, 3, 1]\tglobal_idx: [7, 7, 1]"),
            std::string::npos)
      << r.out;
}

std::string file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The conformance kernels (IEEE edge cases, __half, warp shuffles and votes, shared-memory atomics,
// tiling) give the same bits whichever compiler built them.
TEST_F(CompilersE2E, ConformanceKernelsMatchNvrtcBitForBit) {
  const auto dir = temp_dir();
  std::size_t compared = 0;
  for (const char* spec : {"half_math", "histogram", "matmul_tiled", "numeric_edges", "transpose",
                           "warp_reduce", "block_collectives", "minmax_ftz", "convert_modifiers",
                           "async_copy", "mma_forms", "tf32_convert", "wmma_gemm", "wmma_shapes"}) {
    SCOPED_TRACE(spec);
    const std::string path = std::string("tests/data/conformance/") + spec + ".json";
    const auto clang_dir = dir / spec / "clang";
    auto r = run_gpurun(path + cpu_clang + " -q --save " + clang_dir.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto nvrtc_dir = dir / spec / "nvrtc";
    r = run_gpurun(path + " --backend cpu --no-cache --compiler nvrtc -q --save " +
                   nvrtc_dir.string());
    if (r.exit_code == 5)
      GTEST_SKIP() << "no NVRTC to compare with: " << r.err;
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& entry : std::filesystem::directory_iterator(nvrtc_dir)) {
      const auto other = clang_dir / entry.path().filename();
      ASSERT_TRUE(std::filesystem::exists(other)) << other;
      EXPECT_EQ(file_bytes(entry.path()), file_bytes(other)) << entry.path().filename();
      ++compared;
    }
  }
  EXPECT_GE(compared, 16u); // every buffer, inputs included
}

TEST_F(CompilersE2E, SpecChoosesTheCompilerAndFlagsOverrideIt) {
  const auto dir = temp_dir();
  std::ofstream(dir / "k.cu") << "extern \"C\" __global__ void k(int* v) { v[0] = 5; }\n";
  std::ofstream(dir / "k.json") << R"({"source": "k.cu", "grid": [1], "block": [1],
    "args": ["v=i32[1]:0"], "compile": {"compiler": "clang"}})";
  auto r = run_gpurun((dir / "k.json").string() + " --backend cpu --no-cache --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["compiler"].get<std::string>().rfind("clang ", 0), 0u);
  std::ofstream(dir / "bad.json") << R"({"source": "k.cu", "grid": [1], "block": [1],
    "args": ["v=i32[1]:0"], "compile": {"compiler": "gcc"}})";
  r = run_gpurun((dir / "bad.json").string() + " --backend cpu");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("compile.compiler 'gcc'"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, UnknownCompilerIsAUsageError) {
  auto r = run_gpurun("kernels/examples/scalar_add.json --backend cpu --compiler gcc");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--compiler 'gcc': expected auto, nvrtc or clang"), std::string::npos)
      << r.err;
}

TEST_F(CompilersE2E, CompileErrorExitsThreeNamingTheLine) {
  auto r =
      run_gpurun("tests/data/e2e/compile_error.cu --grid 1 --block 1 --arg 'x=f32[1]'" + cpu_clang);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("compile_error.cu:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undefined_name"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, MemcheckNamesTheCuLineFromClangsLineTables) {
  auto r = run_gpurun("tests/data/e2e/oob.cu --grid 1 --block 32 --arg 'x=f32[8]' --memcheck" +
                      cpu_clang);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("oob.cu:3"), std::string::npos) << r.err;
}

TEST_F(CompilersE2E, CompileCommandPrintsClangsPtxAndItsResources) {
  auto r =
      run_gpurun("compile kernels/examples/vector_add.cu --ptx --backend cpu --compiler clang");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Generated by LLVM NVPTX Back-End"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".entry vector_add("), std::string::npos) << r.out;
  r = run_gpurun("compile kernels/examples/vector_add.cu --resources --backend cpu --compiler "
                 "clang");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("vector_add"), std::string::npos) << r.out;
}

} // namespace
} // namespace gpurun::test
