// End-to-end: the CPU backend's compiled engine (docs/compiled-engine.md) gives the interpreter's
// bytes on every bundled kernel, reports faults and timeouts as the interpreter does, keeps what
// it compiled in the cache, and leaves what it does not handle to the interpreter. Skips without
// a clang to compile with.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

class CompiledEngineE2E : public ::testing::Test {
protected:
  void SetUp() override {
    const auto r = run_gpurun("devices --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto clang = nlohmann::json::parse(r.out).at("compilers").at("clang");
    if (clang.at("available") == false)
      GTEST_SKIP() << "no clang for the compiled engine: " << clang.at("reason");
  }

  /// `gpurun ARGS` with the engine's cache in this test's own folder.
  RunResult gpurun(const std::string& args) {
    return run_shell("GPURUN_CACHE_DIR='" + m_cache.string() + "' '" + gpurun_bin() + "' " + args,
                     source_dir());
  }

  fs::path m_cache = temp_dir();
};

std::string bytes_of(const fs::path& dir) {
  std::string all;
  std::set<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    files.insert(e.path());
  for (const auto& f : files)
    all += f.filename().string() + "\n" + slurp(f);
  return all;
}

TEST_F(CompiledEngineE2E, BothEnginesGiveTheSameBytesOnEveryBundledKernel) {
  std::vector<fs::path> specs;
  for (const char* dir : {"kernels/examples", "tests/data/conformance"})
    for (const auto& e : fs::directory_iterator(source_dir() / dir))
      if (e.path().extension() == ".json")
        specs.push_back(e.path());
  std::sort(specs.begin(), specs.end());
  ASSERT_GE(specs.size(), 20u);
  std::set<std::string> compiled;
  for (const auto& spec : specs) {
    const std::string name = spec.stem().string();
    SCOPED_TRACE(name);
    const fs::path out = temp_dir();
    const auto a = gpurun("'" + spec.string() + "' --cpu-engine interpret -q --save '" +
                          (out / "interpret").string() + "'");
    const auto b = gpurun("'" + spec.string() + "' --cpu-engine compiled -q --save '" +
                          (out / "compiled").string() + "'");
    EXPECT_EQ(a.exit_code, b.exit_code) << a.err << b.err;
    if (a.exit_code != 0)
      continue;
    EXPECT_EQ(bytes_of(out / "interpret"), bytes_of(out / "compiled"));
    if (b.err.find("ran on the interpreter") == std::string::npos)
      compiled.insert(name);
  }
  // The kernels the engine handles really ran compiled (the rest warned and were interpreted).
  for (const char* name : {"vector_add", "saxpy", "scalar_add", "reduce_sum", "matmul_tiled",
                           "transpose", "numeric_edges", "affine_guesses"})
    EXPECT_TRUE(compiled.count(name)) << name << " did not run compiled";
}

TEST_F(CompiledEngineE2E, AFaultIsExitFourNamingTheThreadLineAndBuffer) {
  const std::string args = "tests/data/e2e/oob_read.cu --grid 4 --block 64 --arg 'in=f32[255]:iota' "
                           "--arg 'out=f32[64]'";
  const auto interpreted = gpurun(args + " --cpu-engine interpret");
  const auto compiled = gpurun(args + " --cpu-engine compiled");
  ASSERT_EQ(interpreted.exit_code, 4) << interpreted.err;
  ASSERT_EQ(compiled.exit_code, 4) << compiled.err;
  EXPECT_NE(compiled.err.find("thread (63,0,0)"), std::string::npos) << compiled.err;
  EXPECT_NE(compiled.err.find("past the end of allocation"), std::string::npos) << compiled.err;
  EXPECT_EQ(interpreted.err, compiled.err);
}

TEST_F(CompiledEngineE2E, TheWatchdogStopsAnEndlessKernel) {
  const auto r = gpurun("tests/data/e2e/spin_forever.cu --grid 2 --block 32 --arg 'flag=i32[1]' "
                        "--arg 'out=i32[32]' --cpu-engine compiled --timeout 1");
  EXPECT_EQ(r.exit_code, 124) << r.err;
  EXPECT_NE(r.err.find("did not finish within 1 s"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ran on the interpreter"), std::string::npos) << r.err;
}

TEST_F(CompiledEngineE2E, AKernelItDoesNotHandleRunsInterpretedAndSaysWhy) {
  const std::string args = "tests/data/e2e/count_atomic.cu --grid 4 --block 64 "
                           "--arg 'v=f32[256]:iota(-100,1)' --arg 'sum=f32[1]' --arg n=256 -q";
  const auto r = gpurun(args + " --cpu-engine compiled");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("ran on the interpreter: PTX line"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("atom"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, gpurun(args + " --cpu-engine interpret").out);
}

TEST_F(CompiledEngineE2E, WhatItCompiledIsInTheCacheForTheNextRun) {
  const std::string args =
      "kernels/examples/vector_add.json --cpu-engine compiled -v --repeat 2 -q";
  auto r = gpurun(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: compiled"), std::string::npos) << r.err;
  std::size_t objects = 0;
  for (const auto& e : fs::directory_iterator(m_cache / "native"))
    objects += e.path().extension() == ".so";
  EXPECT_EQ(objects, 1u);
  // auto takes the cached code from the first launch on.
  r = gpurun("kernels/examples/vector_add.json -v -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: compiled"), std::string::npos) << r.err;
  // A sanitizer keeps the interpreter, and says so.
  r = gpurun("kernels/examples/vector_add.json --memcheck -v -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: interpreted (the sanitizers run on the interpreter)"),
            std::string::npos)
      << r.err;
}

// The index by PTX (native/by-ptx-*) names the object a run made, so that the next run opens it
// without translating; an index whose object is gone, or that is damaged, is only a miss.
TEST_F(CompiledEngineE2E, TheIndexByPtxNamesTheObjectAndAStaleOneIsAMiss) {
  const std::string args = "kernels/examples/vector_add.json --cpu-engine compiled -v -q";
  auto only = [&](const std::string& prefix, const std::string& ext) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(m_cache / "native"))
      if (e.path().filename().string().rfind(prefix, 0) == 0 && e.path().extension() == ext)
        found.push_back(e.path());
    EXPECT_EQ(found.size(), 1u) << prefix << "*" << ext;
    return found.empty() ? fs::path() : found.front();
  };
  auto r = gpurun(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path index = only("by-ptx-", "");
  const fs::path object = only("", ".so");
  EXPECT_EQ(slurp(index), object.stem().string());

  fs::remove(object);
  r = gpurun(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: compiled"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(object)) << "built again under the same name";

  for (const char* damage : {"not a key", "0123456789abcdef0123456789abcdeg", ""}) {
    std::ofstream(index, std::ios::trunc) << damage;
    r = gpurun(args);
    ASSERT_EQ(r.exit_code, 0) << damage << ": " << r.err;
    EXPECT_NE(r.err.find("engine: compiled"), std::string::npos) << r.err;
    EXPECT_EQ(slurp(index), object.stem().string()) << "written again after " << damage;
  }
}

TEST_F(CompiledEngineE2E, AnUnknownEngineIsAUsageError) {
  const auto r = gpurun("kernels/examples/vector_add.json --cpu-engine jit");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("'jit'"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
