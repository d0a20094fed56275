// End-to-end: the real gpurun binary on the CPU backend (CI has no GPU).
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/npy.hpp"
#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const char* cpu = " --backend cpu --no-cache";

nlohmann::json run_json(const std::string& args) {
  auto r = run_gpurun(args + cpu + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

float f32_at(const HostBuffer& b, std::size_t i) {
  float v = 0;
  std::memcpy(&v, b.element(i), sizeof v);
  return v;
}

std::vector<double> values(const nlohmann::json& doc, const std::string& buffer) {
  return doc.at("buffers").at(buffer).at("values").get<std::vector<double>>();
}

TEST(RunE2E, SeedScalarAddFromFlags) {
  auto r = run_gpurun("kernels/examples/scalar_add.cu --grid 1 --block 20 "
                      "--arg 'vector=f32[20]:iota' --arg 'size=20' --arg 'scalar=20.0'" +
                      std::string(cpu));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("scalar_add<<<(1,1,1),(20,1,1)>>>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("19."), std::string::npos) << r.out; // before
  EXPECT_NE(r.out.find("39."), std::string::npos) << r.out; // after
}

// nvcc's fat binary (sm_90 machine code, compute_80/90 PTX) runs on the CPU backend through its
// PTX; the parameter types come from the PTX, as for a .ptx file.
TEST(RunE2E, AFatBinaryRunsThroughItsPtx) {
  auto r = run_gpurun(
      "tests/data/cubin/params.fatbin --kernel k3 --grid 1 --block 1 --arg a=f32[4] --arg n=2 "
      "--arg s=7.5 --expect 'a=f32[4]:[0,0,7.5,0]'" +
      std::string(cpu));
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("k3<<<(1,1,1),(1,1,1)>>>"), std::string::npos) << r.out;
  // Its parameters come from its cubin (sizes only), so the scalars carry their types.
  r = run_gpurun("tests/data/cubin/sass_only.fatbin --kernel k3 --grid 1 --block 1 "
                 "--arg a=f32[4] --arg n=i32:2 --arg s=f64:7.5" +
                 std::string(cpu));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("sass_only.fatbin: the fatbin holds no PTX"), std::string::npos) << r.err;
}

TEST(RunE2E, SeedScalarAddJson) {
  auto doc = run_json("kernels/examples/scalar_add.json");
  EXPECT_EQ(doc["kernel"], "scalar_add");
  EXPECT_EQ(doc["backend"], "cpu");
  EXPECT_EQ(doc["grid"], nlohmann::json::array({1, 1, 1}));
  EXPECT_EQ(doc["block"], nlohmann::json::array({20, 1, 1}));
  EXPECT_EQ(doc["status"], "ok");
  auto v = values(doc, "vector");
  ASSERT_EQ(v.size(), 20u);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(v[i], 20.0 + i);
  EXPECT_TRUE(doc["timings_ms"].contains("compile"));
  EXPECT_TRUE(doc["timings_ms"].contains("kernel"));
  EXPECT_TRUE(doc["timings_ms"].contains("cache_hit"));
  ASSERT_EQ(doc["checks"].size(), 1u);
  EXPECT_EQ(doc["checks"][0]["passed"], true);
}

TEST(RunE2E, EveryBundledExamplePassesItsChecks) {
  for (const char* spec : {"scalar_add", "vector_add", "saxpy", "reduce_sum", "polynomial"}) {
    auto r = run_gpurun(std::string("kernels/examples/") + spec + ".json" + cpu);
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.out << r.err;
  }
}

TEST(RunE2E, PrintThreadsPrintsEveryThread) {
  auto r = run_gpurun(std::string("kernels/examples/print_threads.json") + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t lines = 0;
  for (std::size_t p = r.out.find("block_idx"); p != std::string::npos;
       p = r.out.find("block_idx", p + 1))
    ++lines;
  EXPECT_EQ(lines, 128u);
  EXPECT_NE(r.out.find("block_idx: [1, 1, 0]\tthread_idx: [3, 3, 1]\tglobal_idx: [7, 7, 1]"),
            std::string::npos);
}

TEST(RunE2E, FailedExpectExitsOne) {
  auto r =
      run_gpurun("kernels/examples/scalar_add.json --expect 'vector=f32[20]:0'" + std::string(cpu));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("check vector: FAILED, 20 of 20 elements differ"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\n      0  20   0\n"), std::string::npos) << r.out; // index got expected
  EXPECT_NE(r.out.find("status: check_failed"), std::string::npos) << r.out;
}

TEST(RunE2E, FlagsOverrideTheSpec) {
  auto doc = run_json("kernels/examples/scalar_add.json --arg 'vector=f32[20]:ones' --arg size=20 "
                      "--arg scalar=1.5 --expect 'vector=f32[20]:2.5'");
  auto v = values(doc, "vector");
  EXPECT_EQ(v[0], 2.5);
  EXPECT_EQ(v[19], 2.5);
}

TEST(RunE2E, SaveWritesNpyFiles) {
  auto dir = temp_dir();
  auto r = run_gpurun("kernels/examples/vector_add.json --save " + dir.string() + cpu);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The files hold the buffers after the launch: a = iota, b = 1000 - iota, c = a + b.
  const HostBuffer a = read_npy(dir / "a.npy");
  const HostBuffer c = read_npy(dir / "c.npy");
  ASSERT_EQ(c.dtype(), DType::f32);
  ASSERT_EQ(c.shape(), std::vector<std::size_t>{1000});
  ASSERT_EQ(a.shape(), std::vector<std::size_t>{1000});
  for (std::size_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(f32_at(a, i), static_cast<float>(i)) << i;
    EXPECT_EQ(f32_at(c, i), 1000.0f) << i;
  }
}

TEST(RunE2E, ExpectAgainstAnNpyFileWritten) {
  auto dir = temp_dir();
  ASSERT_EQ(run_gpurun("kernels/examples/vector_add.json --save " + dir.string() + cpu).exit_code,
            0);
  auto r = run_gpurun("kernels/examples/vector_add.json --expect 'c=@" + (dir / "c.npy").string() +
                      "'" + cpu);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check c: ok"), std::string::npos) << r.out;
  // The file's values are what is compared: c against the saved a differs.
  r = run_gpurun("kernels/examples/vector_add.json --expect 'c=@" + (dir / "a.npy").string() + "'" +
                 cpu);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("check c: FAILED, 1000 of 1000 elements differ"), std::string::npos)
      << r.out;
}

TEST(RunE2E, CompileCacheHitsOnTheSecondRun) {
  auto cache = temp_dir();
  const std::string env = "GPURUN_CACHE_DIR=" + cache.string() + " ";
  auto first =
      run_shell(env + gpurun_bin() + " kernels/examples/scalar_add.json --backend cpu --json");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  auto second =
      run_shell(env + gpurun_bin() + " kernels/examples/scalar_add.json --backend cpu --json");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(nlohmann::json::parse(first.out)["timings_ms"]["cache_hit"], false);
  EXPECT_EQ(nlohmann::json::parse(second.out)["timings_ms"]["cache_hit"], true);
  auto info = run_shell(env + gpurun_bin() + " cache info");
  EXPECT_NE(info.out.find("entries: 1"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find(" KiB\n"), std::string::npos) << info.out;
  const auto info_json =
      nlohmann::json::parse(run_shell(env + gpurun_bin() + " cache info --json").out);
  EXPECT_EQ(info_json.at("entries"), 1);
  EXPECT_GT(info_json.at("bytes").get<std::uint64_t>(), 1000u);
  auto cleared = run_shell(env + gpurun_bin() + " cache clear");
  EXPECT_EQ(cleared.exit_code, 0);
  EXPECT_NE(run_shell(env + gpurun_bin() + " cache info").out.find("entries: 0"),
            std::string::npos);
}

TEST(RunE2E, KernelsWrittenForNvccCompile) {
  auto dir = temp_dir();
  std::ofstream(dir / "k.cu") << "#include <cstdio>\n#include <cstdint>\n#include <cmath>\n"
                                 "#include <cuda_runtime.h>\n"
                                 "extern \"C\" __global__ void k(float* x, int64_t n) {\n"
                                 "  int i = threadIdx.x; if (i < n) x[i] = sqrtf((float)i);\n}\n";
  auto doc = run_json((dir / "k.cu").string() + " --grid 1 --block 4 --arg 'x=f32[4]' --arg n=4");
  auto v = values(doc, "x");
  EXPECT_FLOAT_EQ(static_cast<float>(v[3]), std::sqrt(3.0f));
}

TEST(RunE2E, DevicesListsTheCpuBackend) {
  auto r = run_gpurun("devices --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  bool cpu_found = false;
  for (const auto& b : doc["backends"])
    if (b["name"] == "cpu") {
      cpu_found = true;
      EXPECT_EQ(b["available"], true);
      EXPECT_EQ(b["devices"][0]["warp_size"], 32);
    }
  EXPECT_TRUE(cpu_found);
  EXPECT_EQ(run_gpurun("devices --check cpu").exit_code, 0);
}

TEST(CompileNvrtcE2E, ResourcesFromPtxasWithoutAGpu) {
  const auto devices = nlohmann::json::parse(run_gpurun("devices --json").out);
  const auto& nvrtc = devices.at("compilers").at("nvrtc");
  if (!nvrtc.at("available").get<bool>())
    GTEST_SKIP() << "NVRTC unavailable: " << nvrtc.value("reason", std::string());
  auto r = run_gpurun("compile kernels/examples/reduce_sum.cu --backend cpu --resources");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The table's row for the kernel: registers, then 1 barrier (__syncthreads).
  std::istringstream row(r.out.substr(std::min(r.out.size(), r.out.find("\nreduce_sum ") + 1)));
  std::string name;
  int registers = 0;
  int barriers = -1;
  row >> name >> registers >> barriers;
  EXPECT_EQ(name, "reduce_sum") << r.out;
  EXPECT_GT(registers, 0) << r.out;
  EXPECT_EQ(barriers, 1) << r.out;
  auto ptx = run_gpurun("compile kernels/examples/scalar_add.cu --backend cpu --ptx");
  ASSERT_EQ(ptx.exit_code, 0) << ptx.err;
  EXPECT_NE(ptx.out.find(".entry scalar_add"), std::string::npos);
}

} // namespace
} // namespace gpurun::test

namespace gpurun::test {
namespace {

// The kernels the GPU conformance check compares bit for bit between cuda and cpu: on the CPU
// backend they must run clean under memcheck.
TEST(RunE2E, ConformanceKernelsRunCleanUnderMemcheck) {
  for (const char* spec :
       {"numeric_edges", "matmul_tiled", "warp_reduce", "histogram", "transpose", "half_math",
        "block_collectives", "minmax_ftz", "convert_modifiers", "approx_math", "async_copy",
        "mma_forms", "wmma_gemm", "wmma_shapes", "tf32_convert"}) {
    auto r = run_gpurun(std::string("tests/data/conformance/") + spec +
                        ".json --backend cpu --memcheck --no-cache -q");
    EXPECT_EQ(r.exit_code, 0) << spec << "\n" << r.out << r.err;
  }
}

TEST(RunE2E, HistogramCountsEveryByte) {
  auto r = run_gpurun("tests/data/conformance/histogram.json --backend cpu --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto hist = nlohmann::json::parse(r.out)["buffers"]["hist"]["values"].get<std::vector<double>>();
  double total = 0;
  for (double h : hist)
    total += h;
  EXPECT_EQ(total, 100000.0);
}

// A kernel spelled through a macro is invisible to the source scan; gpurun finds it among the
// compiled module's entries (extern "C" names and C++ kernels by their unqualified name) and
// takes its parameters from the PTX, as for a .ptx file.
TEST(RunE2E, KernelsDeclaredThroughMacrosRunFromTheCompiledModule) {
  const auto dir = temp_dir();
  std::ofstream(dir / "macro.cu") << R"(
#define SCALE(NAME, T) \
  extern "C" __global__ void NAME(T* v, T s, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) v[i] *= s; }
SCALE(scale_f32, float)
SCALE(scale_f64, double)
#define FILL(NAME) __global__ void NAME(int* v) { v[threadIdx.x] = 3 * threadIdx.x; }
namespace ns { FILL(fill) }
__global__ void plain(int* v) { v[0] = 1; }
)";
  const std::string src = (dir / "macro.cu").string() + " --backend cpu --no-cache --json";
  auto r = run_gpurun(src + " --kernel scale_f64 --grid 1 --block 8 --arg v=f64[8]:iota "
                            "--arg s=0.5 --arg n=6");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto v = nlohmann::json::parse(r.out)["buffers"]["v"]["values"].get<std::vector<double>>();
  EXPECT_EQ(v, (std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5, 6, 7}));
  r = run_gpurun(src + " --kernel fill --grid 1 --block 4 --arg v=i32[4]:0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  v = nlohmann::json::parse(r.out)["buffers"]["v"]["values"].get<std::vector<double>>();
  EXPECT_EQ(v, (std::vector<double>{0, 3, 6, 9}));
  // A name in neither the source nor the module is still the scan's usage error.
  r = run_gpurun(src + " --kernel nothere --grid 1 --block 1 --arg v=i32[1]:0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no kernel 'nothere' in the source"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test
