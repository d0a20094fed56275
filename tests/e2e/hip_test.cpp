// End-to-end: .hip kernels through the real binary. On the CPU backend they compile to PTX with
// gpurun's HIP layer and must give exactly what their .cu twins give; with hipRTC (the Hiprtc
// suites, ctest label hiprtc) they compile for AMD targets with no AMD GPU present.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

const char* const twins[] = {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial"};

std::string file_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class HipLayerE2E : public ::testing::Test {
protected:
  void SetUp() override {
    // Exit 5 names what is missing when no CUDA compiler (NVRTC or clang) can be used.
    static const RunResult probe = run_gpurun(
        "kernels/examples/scalar_add.hip --spec kernels/examples/scalar_add.json -q --backend cpu");
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
};

TEST_F(HipLayerE2E, EveryHipExampleGivesItsCudaTwinsBuffersBitForBit) {
  for (const char* name : twins) {
    const fs::path dir = temp_dir();
    const std::string spec = std::string("kernels/examples/") + name + ".json";
    auto cu = run_gpurun(spec + " --backend cpu -q --save " + (dir / "cu").string());
    ASSERT_EQ(cu.exit_code, 0) << name << ".cu\n" << cu.err;
    auto hip = run_gpurun(std::string("kernels/examples/") + name + ".hip --spec " + spec +
                          " --backend cpu -q --save " + (dir / "hip").string());
    ASSERT_EQ(hip.exit_code, 0) << name << ".hip\n" << hip.out << hip.err;
    int compared = 0;
    for (const auto& entry : fs::directory_iterator(dir / "cu")) {
      const fs::path twin = dir / "hip" / entry.path().filename();
      ASSERT_TRUE(fs::exists(twin)) << twin;
      EXPECT_EQ(file_bytes(entry.path()), file_bytes(twin)) << name << ": " << twin.filename();
      ++compared;
    }
    EXPECT_GT(compared, 0) << name;
  }
}

TEST_F(HipLayerE2E, PrintThreadsHipPrintsWhatTheCuPrints) {
  auto cu = run_gpurun("kernels/examples/print_threads.json --backend cpu -q");
  auto hip = run_gpurun("kernels/examples/print_threads.hip --spec "
                        "kernels/examples/print_threads.json --backend cpu -q");
  ASSERT_EQ(cu.exit_code, 0) << cu.err;
  ASSERT_EQ(hip.exit_code, 0) << hip.err;
  const auto lines = sorted_lines(hip.out);
  EXPECT_EQ(lines.size(), 128u) << hip.out; // grid 2x2x1 of blocks 4x4x2
  EXPECT_EQ(lines, sorted_lines(cu.out));
}

TEST_F(HipLayerE2E, HipKernelApiOnA32WideWarp) {
  // Every value is checked by the spec's expectations (tests/data/hip/hip_api.json).
  auto r = run_gpurun("tests/data/hip/hip_api.json --backend cpu --json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["checks"].size(), 10u) << doc["checks"].dump();
  for (const auto& check : doc["checks"])
    EXPECT_TRUE(check["passed"].get<bool>()) << check.dump();
}

TEST_F(HipLayerE2E, AutoRunsHipWhereNoAmdGpuIsAndSaysWhere) {
  const auto devices = nlohmann::json::parse(run_gpurun("devices --json").out);
  bool amd = false;
  for (const auto& b : devices["backends"])
    amd = amd || (b["name"] == "hip" && b["available"].get<bool>());
  if (amd)
    GTEST_SKIP() << "an AMD GPU is present: .hip runs on the hip backend";
  auto r =
      run_gpurun("kernels/examples/scalar_add.hip --spec kernels/examples/scalar_add.json --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  const std::string backend = doc["backend"];
  EXPECT_TRUE(backend == "cuda" || backend == "cpu") << backend;
  auto human = run_gpurun(
      "kernels/examples/scalar_add.hip --spec kernels/examples/scalar_add.json --print none");
  ASSERT_EQ(human.exit_code, 0) << human.err;
  EXPECT_NE(human.out.find(backend + ":0"), std::string::npos)
      << "the launch line names the backend\n"
      << human.out;
}

TEST(HipBackendE2E, DevicesSaysInOneLineWhyHipIsUnavailable) {
  auto r = run_gpurun("devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string line;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("hip ", 0) == 0)
      line = l;
  ASSERT_FALSE(line.empty()) << "a hip line, built or not\n" << r.out;
  const auto doc = nlohmann::json::parse(run_gpurun("devices --json").out);
  for (const auto& b : doc["backends"]) {
    if (b["name"] != "hip" || b["available"].get<bool>())
      continue;
    const std::string reason = b["reason"];
    EXPECT_FALSE(reason.empty());
    EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
    EXPECT_NE(line.find("unavailable: " + reason), std::string::npos) << line;
  }
}

TEST(HipBackendE2E, HipBackendWithoutAnAmdGpuIsExit5NamingIt) {
  const auto doc = nlohmann::json::parse(run_gpurun("devices --json").out);
  for (const auto& b : doc["backends"])
    if (b["name"] == "hip" && b["available"].get<bool>())
      GTEST_SKIP() << "an AMD GPU is present";
  auto r = run_gpurun("kernels/examples/scalar_add.hip --spec kernels/examples/scalar_add.json "
                      "--backend hip");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_EQ(r.err.rfind("gpurun: error: --backend hip: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  // compile without a target points at the way that needs no GPU
  r = run_gpurun("compile kernels/examples/scalar_add.hip --backend hip");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("--arch gfxNNN"), std::string::npos) << r.err;
}

TEST(HipBackendE2E, MissingLibrariesAreNamed) {
  const auto doc = nlohmann::json::parse(run_gpurun("devices --json").out);
  if (doc["compilers"]["hiprtc"].is_null())
    GTEST_SKIP() << "the hip backend is not built into this gpurun";
  auto r = run_shell("GPURUN_HIP_LIBRARY=/nonexistent/libamdhip64.so " + gpurun_bin() + " devices");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("hip     unavailable: /nonexistent/libamdhip64.so not found"),
            std::string::npos)
      << r.out;
  r = run_shell("GPURUN_HIPRTC_LIBRARY=/nonexistent/libhiprtc.so " + gpurun_bin() +
                " compile kernels/examples/scalar_add.hip --arch gfx90a");
  EXPECT_EQ(r.exit_code, 5) << r.err;
  EXPECT_NE(r.err.find("hipRTC not found: $GPURUN_HIPRTC_LIBRARY"), std::string::npos) << r.err;
}

// hipRTC: code objects for named AMD targets, no AMD GPU needed.
class HiprtcE2E : public ::testing::Test {
protected:
  void SetUp() override {
    const auto doc = nlohmann::json::parse(run_gpurun("devices --json").out);
    const auto& hiprtc = doc["compilers"]["hiprtc"];
    if (hiprtc.is_null())
      GTEST_SKIP() << "hipRTC unavailable: the hip backend is not built into this gpurun";
    if (!hiprtc["available"].get<bool>())
      GTEST_SKIP() << "hipRTC unavailable: " << hiprtc["reason"].get<std::string>();
  }
};

TEST_F(HiprtcE2E, EveryBundledHipExampleCompilesForGfx90a) {
  for (const char* name :
       {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial", "print_threads"}) {
    const fs::path out = temp_dir() / (std::string(name) + ".co");
    const std::string kernel = std::string(name) == "saxpy" ? " --kernel 'saxpy<float>'" : "";
    auto r = run_gpurun(std::string("compile kernels/examples/") + name +
                        ".hip --backend hip --arch gfx90a -o " + out.string() + kernel);
    ASSERT_EQ(r.exit_code, 0) << name << "\n" << r.err;
    EXPECT_NE(r.out.find("hsaco for gfx90a"), std::string::npos) << r.out;
    EXPECT_EQ(file_bytes(out).substr(0, 4), "\x7f"
                                            "ELF")
        << name;
    auto res = run_gpurun(std::string("compile kernels/examples/") + name +
                          ".hip --arch gfx90a --resources --json" + kernel);
    ASSERT_EQ(res.exit_code, 0) << name << "\n" << res.err;
    const auto doc = nlohmann::json::parse(res.out);
    ASSERT_EQ(doc["resources"]["kernels"].size(), 1u) << doc.dump();
    const auto& k = doc["resources"]["kernels"][0];
    EXPECT_GT(k["vgprs"].get<int>(), 0) << k.dump();
    EXPECT_GT(k["sgprs"].get<int>(), 0) << k.dump();
    EXPECT_EQ(k["wavefront_size"], 64) << k.dump(); // gfx90a (CDNA2) runs wave64
  }
}

TEST_F(HiprtcE2E, ResourcesComeFromTheCodeObjectMetadata) {
  auto r = run_gpurun("compile tests/data/hip/resources.hip --arch gfx90a --resources");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("vgprs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("code object metadata, amdgcn-amd-amdhsa--gfx90a"), std::string::npos)
      << r.out;
  auto j = run_gpurun("compile tests/data/hip/resources.hip --arch gfx90a --resources --json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const auto k = nlohmann::json::parse(j.out)["resources"]["kernels"][0];
  EXPECT_EQ(k["kernel"], "uses_resources");
  EXPECT_EQ(k["lds_bytes"], 256) << k.dump();              // __shared__ float tile[64]
  EXPECT_GT(k["scratch_bytes"].get<int>(), 0) << k.dump(); // float local[40], indexed at run time
}

TEST_F(HiprtcE2E, CompileErrorIsExit3WithTheLogNamingFileAndLine) {
  const fs::path bad = temp_dir() / "broken.hip";
  std::ofstream(bad) << "#include <hip/hip_runtime.h>\n"
                        "extern \"C\" __global__ void k(float* x) {\n"
                        "  x[0] = undeclared_name;\n"
                        "}\n";
  auto r = run_gpurun("compile " + bad.string() + " --arch gfx90a");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.rfind("gpurun: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("broken.hip:3:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("undeclared_name"), std::string::npos) << r.err;
}

TEST_F(HiprtcE2E, TargetsThisHipRtcLacksAreACompileErrorNotACrash) {
  // gfx942 and gfx1100 need a hipRTC newer than ROCm 5.2 (Debian 12's): there they compile,
  // here the error lists what can be compiled.
  for (const char* arch : {"gfx942", "gfx1100"}) {
    auto r = run_gpurun(std::string("compile kernels/examples/scalar_add.hip --arch ") + arch);
    if (r.exit_code == 0)
      continue;
    EXPECT_EQ(r.exit_code, 3) << arch << "\n" << r.err;
    EXPECT_NE(r.err.find(std::string("cannot compile for ") + arch), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("gfx90a"), std::string::npos) << "lists the known targets\n" << r.err;
  }
}

TEST_F(HiprtcE2E, BadTargetsAndSourcesAreUsageErrors) {
  auto r = run_gpurun("compile kernels/examples/scalar_add.hip --arch gfxzz");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--arch 'gfxzz'"), std::string::npos) << r.err;
  r = run_gpurun("compile kernels/examples/scalar_add.cu --arch gfx90a");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("HIP (.hip)"), std::string::npos) << r.err;
  r = run_gpurun("compile kernels/examples/scalar_add.hip --arch gfx90a --backend cpu");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--backend cpu"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
