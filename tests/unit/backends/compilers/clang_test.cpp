// clang compiles real CUDA source to PTX here, which the CPU backend then runs: no GPU and no
// NVRTC are needed. Every test skips, naming what is missing, when clang is not installed.
#include "backends/compilers/clang.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include "backends/compilers/clang_locate.hpp"
#include "backends/compilers/clang_target.hpp"
#include "backends/compilers/cuda_compiler.hpp"
#include "base/error.hpp"
#include "support/test_support.hpp"
#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

class ClangTest : public ::testing::Test {
protected:
  void SetUp() override { GPURUN_SKIP_WITHOUT_CLANG(); }
  static KernelSource source(std::string text) {
    return KernelSource{std::move(text), "test_kernel.cu", Language::cuda};
  }
  static std::string text_of(const CompileResult& r) {
    return std::string(reinterpret_cast<const char*>(r.binary.data()), r.binary.size());
  }
  static std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  // The architecture clang compiles compute_90 for: sm_86 under clang 14 and 15.
  static int newest_arch() { return clang_cuda::arch_candidates("compute_90", major()).front(); }
  static int major() { return clang_cuda::installation().major; }
};

constexpr const char* scalar_add =
    R"(extern "C" __global__ void scalar_add(float* v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += s;
}
)";

TEST_F(ClangTest, ProbeReportsVersionAndLocation) {
  EXPECT_TRUE(clang_cuda::probe().reason.empty());
  EXPECT_TRUE(std::regex_match(clang_cuda::probe().version, std::regex(R"(\d+\.\d+\.\d+)")))
      << clang_cuda::probe().version;
  EXPECT_FALSE(clang_cuda::probe().location.empty());
  const auto info = compilers::clang_info();
  EXPECT_EQ(info.name, "clang");
  EXPECT_TRUE(info.available);
}

TEST_F(ClangTest, ComputeTargetGivesPtxForTheNewestArchitectureNotNewer) {
  const auto r = clang_cuda::compile(source(scalar_add), {}, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.binary_format, "ptx");
  EXPECT_EQ(r.compiler_version, "clang " + clang_cuda::probe().version);
  EXPECT_EQ(r.target, fmt::format("compute_{}", newest_arch()));
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find(fmt::format(".target sm_{}", newest_arch())), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".entry scalar_add("), std::string::npos) << ptx;
  // At least PTX 6.0 (the *_sync warp intrinsics).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(ptx, m, std::regex(R"(\.version (\d+)\.(\d+))")));
  EXPECT_GE(std::stoi(m[1]) * 10 + std::stoi(m[2]), 60);

  const auto older = clang_cuda::compile(source(scalar_add), {}, "compute_70");
  ASSERT_TRUE(older.ok) << older.log;
  EXPECT_EQ(older.target, "compute_70");
  EXPECT_NE(text_of(older).find(".target sm_70"), std::string::npos);
}

TEST_F(ClangTest, CubinTargetIsAUsageError) {
  try {
    (void)clang_cuda::compile(source(scalar_add), {}, "sm_90");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("PTX only"), std::string::npos) << e.what();
  }
}

TEST_F(ClangTest, SeedScalarAddRunsOnTheCpuBackend) {
  EmuHarness h = clang_harness(read(source_dir() / "kernels/examples/scalar_add.cu"));
  std::vector<float> v(20);
  for (int i = 0; i < 20; ++i)
    v[i] = static_cast<float>(i);
  Buffer& buf = h.buffer(v);
  h.run("scalar_add", Dim3{1, 1, 1}, Dim3{32, 1, 1}, buf, 20, 20.0f);
  const auto out = h.read<float>(buf);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(out[i], 20.0f + static_cast<float>(i)) << i;
}

TEST_F(ClangTest, EveryBundledAndConformanceKernelCompilesAndLoads) {
  auto backend = make_cpu_backend();
  auto context = backend->devices().at(0)->create_context({});
  std::size_t compiled = 0;
  for (const char* folder : {"kernels/examples", "tests/data/ptx/src", "tests/data/conformance"}) {
    for (const auto& entry : std::filesystem::directory_iterator(source_dir() / folder)) {
      if (entry.path().extension() != ".cu")
        continue;
      SCOPED_TRACE(entry.path().string());
      const KernelSource src{read(entry.path()), entry.path(), Language::cuda};
      const auto r = context->compile(src, clang_options());
      ASSERT_TRUE(r.ok) << r.log;
      EXPECT_EQ(r.compiler_version.rfind("clang ", 0), 0u);
      EXPECT_NO_THROW((void)context->load(r));
      ++compiled;
    }
  }
  EXPECT_GE(compiled, 20u);
}

TEST_F(ClangTest, CompileErrorIsAValueNamingFileAndLine) {
  const auto r = clang_cuda::compile(source("extern \"C\" __global__ void k(float* v) {\n"
                                            "  v[0] = undefined_name;\n"
                                            "}\n"),
                                     {}, "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.binary.empty());
  EXPECT_NE(r.log.find("test_kernel.cu:2:10: error"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("undefined_name"), std::string::npos) << r.log;
  // The temporary folder the compile ran in is not in the message.
  EXPECT_EQ(r.log.find("gpurun-clang-"), std::string::npos) << r.log;
}

TEST_F(ClangTest, ErrorsInTheHeaderLayerNameItNotATemporaryFolder) {
  // A wrong call into the layer: the note points into gpurun's headers by a stable name.
  const auto r = clang_cuda::compile(
      source("extern \"C\" __global__ void k(int* v) { atomicAdd(v, 1, 2); }\n"), {}, "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("test_kernel.cu:1:"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("<gpurun clang headers>/__gpurun_atomic.h"), std::string::npos) << r.log;
  EXPECT_EQ(r.log.find("/tmp/"), std::string::npos) << r.log;
}

TEST_F(ClangTest, UndefinedDeviceFunctionIsACompileErrorNamingIt) {
  const auto r = clang_cuda::compile(source(R"(__device__ float helper(float);
extern "C" __global__ void k(float* v) { v[0] = helper(v[0]); }
)"),
                                     {}, "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("helper (_Z6helperf)"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("no definition"), std::string::npos) << r.log;
}

TEST_F(ClangTest, DefinesStdAndLineInfoReachTheCompiler) {
  CompileOptions options;
  options.defines = {"SCALE=3", "USE_SCALE"};
  options.std_version = "c++20";
  options.line_info = true;
  const auto r = clang_cuda::compile(source(R"(
#if !defined(USE_SCALE) || __cplusplus != 202002L
#error defines or -std did not arrive
#endif
extern "C" __global__ void k(int* v) { v[0] = SCALE; }
)"),
                                     options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find("mov.u32 \t%r1, 3;"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("\t.loc\t1 5 "), std::string::npos) << "line tables: kernel on line 5\n"
                                                         << ptx;
  EXPECT_TRUE(std::regex_search(ptx, std::regex(R"(\.file\t1 "[^"]*/test_kernel\.cu")")))
      << "the .file names the user's file, not the compiled copy\n"
      << ptx;

  options.line_info = false;
  options.std_version.clear();
  const auto no_lines =
      clang_cuda::compile(source("#if __cplusplus != 201703L\n#error C++17 is the default\n#endif\n"
                                 "extern \"C\" __global__ void k(int* v) { v[0]=1; }"),
                          options, "compute_80");
  ASSERT_TRUE(no_lines.ok) << no_lines.log;
  EXPECT_EQ(text_of(no_lines).find(".loc"), std::string::npos);
}

TEST_F(ClangTest, LineTablesNameTheHeaderLayerByAFixedFolder) {
  CompileOptions options;
  options.line_info = true;
  const auto r = clang_cuda::compile(
      source("extern \"C\" __global__ void k(int* v) { v[threadIdx.x] = 1; }\n"), options,
      "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find("\"/gpurun-clang-headers/__gpurun_builtin_vars.h\""), std::string::npos)
      << ptx;
  EXPECT_EQ(ptx.find("gpurun-clang-"), ptx.find("gpurun-clang-headers")) << ptx;
}

TEST_F(ClangTest, IncludesFromSourceFolderAndIncludeDirsButNotTheHosts) {
  const auto dir = temp_dir();
  std::filesystem::create_directories(dir / "src");
  std::filesystem::create_directories(dir / "inc");
  std::ofstream(dir / "src" / "local.cuh") << "#define LOCAL_VALUE 11\n";
  std::ofstream(dir / "inc" / "shared.cuh") << "#define SHARED_VALUE 31\n";
  KernelSource s{R"(#include "local.cuh"
#include <shared.cuh>
extern "C" __global__ void k(int* v) { v[0] = LOCAL_VALUE * SHARED_VALUE; }
)",
                 dir / "src" / "k.cu", Language::cuda};
  CompileOptions options;
  options.include_dirs = {(dir / "inc").string()};
  const auto r = clang_cuda::compile(s, options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_NE(text_of(r).find("341"), std::string::npos);

  // The host's C++ library would not compile for the GPU: it is not on the include path.
  const auto host = clang_cuda::compile(source("#include <vector>\n"), {}, "compute_80");
  EXPECT_FALSE(host.ok);
  EXPECT_NE(host.log.find("'vector' file not found"), std::string::npos) << host.log;
}

TEST_F(ClangTest, ExtraOptionsArePassedThrough) {
  CompileOptions options;
  options.extra = {"-DFROM_OPT=5"};
  const auto r = clang_cuda::compile(
      source("extern \"C\" __global__ void k(int* v) { v[0] = FROM_OPT; }"), options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  options.extra = {"--no-such-clang-option"};
  const auto bad = clang_cuda::compile(source(scalar_add), options, "compute_80");
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.log.find("no-such-clang-option"), std::string::npos) << bad.log;
}

TEST_F(ClangTest, TemplateKernelsByNameExpression) {
  constexpr const char* saxpy = R"(template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
namespace ns { template <int N> __global__ void fill(int* v) { v[threadIdx.x] = N; } }
__global__ void plain(int* v) { v[0] = 7; }
)";
  CompileOptions options;
  options.name_expressions = {"saxpy<float>", "saxpy<double>", "ns::fill<4>", "plain"};
  const auto r = clang_cuda::compile(source(saxpy), options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  ASSERT_EQ(r.lowered_names.size(), 4u);
  // The same names NVRTC reports (nvrtc_test.cpp).
  EXPECT_EQ(r.lowered_names.at("saxpy<float>"), "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("saxpy<double>"), "_Z5saxpyIdEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("ns::fill<4>"), "_ZN2ns4fillILi4EEEvPi");
  EXPECT_EQ(r.lowered_names.at("plain"), "_Z5plainPi");

  EmuHarness h = clang_harness(saxpy, {"saxpy<float>", "ns::fill<4>"});
  Buffer& x = h.buffer(std::vector<float>{1, 2, 3});
  Buffer& y = h.buffer(std::vector<float>{10, 20, 30});
  h.run(h.lowered("saxpy<float>"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, 2.0f, x, y, 3);
  EXPECT_EQ(h.read<float>(y), (std::vector<float>{12, 24, 36}));
  Buffer& v = h.buffer(std::vector<int>(4));
  h.run(h.lowered("ns::fill<4>"), Dim3{1, 1, 1}, Dim3{4, 1, 1}, v);
  EXPECT_EQ(h.read<int>(v), (std::vector<int>{4, 4, 4, 4}));
}

TEST_F(ClangTest, UnknownNameExpressionIsACompileError) {
  CompileOptions options;
  options.name_expressions = {"no_such_kernel<int>"};
  const auto r = clang_cuda::compile(source(scalar_add), options, "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("no_such_kernel"), std::string::npos) << r.log;
}

TEST_F(ClangTest, DispatcherChoosesClangWhenAskedAndKeysTheCacheOnIt) {
  CompileOptions options;
  options.compiler = "clang";
  EXPECT_EQ(compilers::choose(options).name, "clang");
  // The compiler and its version, then a digest of the headers gpurun hands it.
  EXPECT_TRUE(compilers::compiler_id(options).starts_with("clang " + clang_cuda::probe().version +
                                                          " headers "))
      << compilers::compiler_id(options);
  const auto r = compilers::compile_cuda(source(scalar_add), options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.compiler_version, "clang " + clang_cuda::probe().version);
}

TEST_F(ClangTest, PrintfBecomesAVprintfCall) {
  EmuHarness h = clang_harness(R"(#include <cstdio>
extern "C" __global__ void k(int x) { printf("x=%d f=%f\n", x, 1.5); })");
  EXPECT_NE(h.ptx().find("vprintf"), std::string::npos);
  testing::internal::CaptureStdout();
  h.run("k", Dim3{1, 1, 1}, Dim3{2, 1, 1}, 42);
  const auto out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "x=42 f=1.500000\nx=42 f=1.500000\n");
}

} // namespace
} // namespace gpurun::test
