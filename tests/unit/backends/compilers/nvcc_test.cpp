// nvcc compiles real CUDA files here, host code and all, to PTX (which the CPU backend runs) and
// to cubins. Every test skips, naming where nvcc was looked for, when no toolkit is installed.
#include "backends/compilers/nvcc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/compilers/nvcc_locate.hpp"
#include "base/error.hpp"
#include "support/test_support.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

namespace fs = std::filesystem;

CompileOptions nvcc_options(std::vector<std::string> name_expressions = {}) {
  CompileOptions options;
  options.compiler = "nvcc";
  options.name_expressions = std::move(name_expressions);
  return options;
}

class NvccTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!nvcc::probe().available)
      GTEST_SKIP() << "nvcc unavailable: " << nvcc::probe().reason;
  }
  static KernelSource source(std::string text) {
    return KernelSource{std::move(text), "test_kernel.cu", Language::cuda};
  }
  /// The text written to `dir`/`name` and a source that is that file.
  static KernelSource file(const fs::path& dir, const std::string& name, const std::string& text) {
    fs::create_directories(dir);
    std::ofstream(dir / name) << text;
    return KernelSource{text, dir / name, Language::cuda};
  }
  static std::string text_of(const CompileResult& r) {
    return std::string(reinterpret_cast<const char*>(r.binary.data()), r.binary.size());
  }
};

constexpr const char* scalar_add =
    R"(extern "C" __global__ void scalar_add(float* v, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += s;
}
)";

// A file as users keep them: host code, a launch, the toolkit's library headers, a template.
constexpr const char* whole_file = R"(#include <cstdio>
#include <vector>
#include <cublas_v2.h>

template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
namespace ns { template <int N> __global__ void fill(int* v) { v[threadIdx.x] = N; } }
__global__ void plain(int* v) { v[0] = 7; }

int main() {
  std::vector<float> host(3, 1.0f);
  float* x = nullptr;
  cudaMalloc(&x, 3 * sizeof(float));
  saxpy<float><<<1, 32>>>(2.0f, x, x, 3);
  std::printf("%f\n", host[0]);
}
)";

TEST_F(NvccTest, ProbeReportsVersionAndLocation) {
  EXPECT_TRUE(nvcc::probe().reason.empty());
  EXPECT_TRUE(std::regex_match(nvcc::probe().version, std::regex(R"(\d+\.\d+(\.\d+)?)")))
      << nvcc::probe().version;
  EXPECT_EQ(fs::path(nvcc::probe().location).filename(), "nvcc");
  const auto info = compilers::nvcc_info();
  EXPECT_EQ(info.name, "nvcc");
  EXPECT_TRUE(info.available);
  EXPECT_EQ(info.location, nvcc::probe().location);
}

TEST_F(NvccTest, ComputeTargetGivesPtxText) {
  const auto r = nvcc::compile(source(scalar_add), {}, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.binary_format, "ptx");
  EXPECT_EQ(r.target, "compute_90");
  EXPECT_EQ(r.compiler_version, "nvcc " + nvcc::probe().version);
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".entry scalar_add("), std::string::npos) << ptx;
}

TEST_F(NvccTest, SmTargetGivesElfCubinWithLoweredNames) {
  const auto r =
      nvcc::compile(source(whole_file), nvcc_options({"saxpy<float>", "plain"}), "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.binary_format, "cubin");
  EXPECT_EQ(r.target, "sm_90");
  ASSERT_GT(r.binary.size(), 4u);
  EXPECT_EQ(text_of(r).substr(0, 4), "\x7f"
                                     "ELF");
  EXPECT_EQ(r.lowered_names.at("saxpy<float>"), "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("plain"), "_Z5plainPi");
}

TEST_F(NvccTest, MalformedTargetIsAUsageError) {
  try {
    (void)nvcc::compile(source(scalar_add), {}, "sm90");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("--arch 'sm90'"), std::string::npos) << e.what();
  }
}

TEST_F(NvccTest, WholeFileWithHostCodeAndTemplatesRunsOnTheCpuBackend) {
  const auto r = nvcc::compile(
      source(whole_file), nvcc_options({"saxpy<float>", "saxpy<double>", "ns::fill<4>", "plain"}),
      "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  ASSERT_EQ(r.lowered_names.size(), 4u);
  // The same names NVRTC and clang report.
  EXPECT_EQ(r.lowered_names.at("saxpy<float>"), "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("saxpy<double>"), "_Z5saxpyIdEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("ns::fill<4>"), "_ZN2ns4fillILi4EEEvPi");
  EXPECT_EQ(r.lowered_names.at("plain"), "_Z5plainPi");

  EmuHarness h(whole_file, Language::cuda, ContextOptions{},
               nvcc_options({"saxpy<float>", "ns::fill<4>"}));
  Buffer& x = h.buffer(std::vector<float>{1, 2, 3});
  Buffer& y = h.buffer(std::vector<float>{10, 20, 30});
  h.run(h.lowered("saxpy<float>"), Dim3{1, 1, 1}, Dim3{32, 1, 1}, 2.0f, x, y, 3);
  EXPECT_EQ(h.read<float>(y), (std::vector<float>{12, 24, 36}));
  Buffer& v = h.buffer(std::vector<int>(4));
  h.run(h.lowered("ns::fill<4>"), Dim3{1, 1, 1}, Dim3{4, 1, 1}, v);
  EXPECT_EQ(h.read<int>(v), (std::vector<int>{4, 4, 4, 4}));
}

TEST_F(NvccTest, FileOnDiskIsCompiledWhereItIsAndNamedInLineTablesAndErrors) {
  const auto dir = temp_dir() / "src";
  fs::create_directories(dir / "inc");
  std::ofstream(dir / "helper.cuh") << "#define LOCAL_VALUE 11\n";
  std::ofstream(dir / "inc" / "shared.cuh") << "#define SHARED_VALUE 31\n";
  auto k = file(dir, "k.cu", R"(#include "helper.cuh"
#include <shared.cuh>
template <int N> __global__ void k(int* v) { v[0] = N * LOCAL_VALUE * SHARED_VALUE; }
)");
  CompileOptions options = nvcc_options({"k<2>"});
  options.include_dirs = {(dir / "inc").string()};
  const auto r = nvcc::compile(k, options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find("682"), std::string::npos) << ptx;
  // The .file is the user's file, not the instantiating file beside the compile.
  EXPECT_NE(ptx.find('"' + fs::absolute(dir / "k.cu").string() + '"'), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("gpurun-nvcc-"), std::string::npos) << ptx;

  auto broken =
      file(dir, "broken.cu", "__global__ void k(int* v) {\n  v[0] = undefined_name;\n}\n");
  const auto bad = nvcc::compile(broken, nvcc_options({"k"}), "compute_80");
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(bad.binary.empty());
  EXPECT_NE(bad.log.find("broken.cu(2): error"), std::string::npos) << bad.log;
  EXPECT_NE(bad.log.find("undefined_name"), std::string::npos) << bad.log;
  EXPECT_EQ(bad.log.find("gpurun-nvcc-"), std::string::npos) << bad.log;
}

TEST_F(NvccTest, SourceThatIsNotTheFileIsNamedByItsPath) {
  // The text differs from what is on disk (or there is no file): a copy under #line is compiled.
  const auto r = nvcc::compile(source("__global__ void k(int* v) {\n\n  v[0] = missing;\n}\n"),
                               nvcc_options({"k"}), "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("test_kernel.cu(3): error"), std::string::npos) << r.log;
}

TEST_F(NvccTest, DefinesStdAndLineInfoReachTheCompiler) {
  CompileOptions options;
  options.defines = {"SCALE=3", "USE_SCALE"};
  options.std_version = "c++20";
  options.line_info = true;
  const auto r = nvcc::compile(source(R"(
#if !defined(USE_SCALE) || __cplusplus != 202002L
#error defines or -std did not arrive
#endif
extern "C" __global__ void k(int* v) { v[0] = SCALE; }
)"),
                               options, "compute_80");
  ASSERT_TRUE(r.ok) << r.log;
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find(".loc\t1 5 "), std::string::npos) << "line tables: kernel on line 5\n" << ptx;

  options.line_info = false;
  options.std_version.clear();
  const auto no_lines =
      nvcc::compile(source("#if __cplusplus != 201703L\n#error C++17 is the default\n#endif\n"
                           "extern \"C\" __global__ void k(int* v) { v[0]=1; }"),
                    options, "compute_80");
  ASSERT_TRUE(no_lines.ok) << no_lines.log;
  EXPECT_EQ(text_of(no_lines).find(".loc"), std::string::npos);
}

TEST_F(NvccTest, NvrtcSpellingsOfOptionsReachNvcc) {
  constexpr const char* muladd = R"(extern "C" __global__ void k(float* v, float a, float b) {
  v[0] = v[0] * a + b;
})";
  CompileOptions options;
  const auto fused = nvcc::compile(source(muladd), options, "compute_80");
  ASSERT_TRUE(fused.ok) << fused.log;
  EXPECT_NE(text_of(fused).find("fma.rn.f32"), std::string::npos) << text_of(fused);
  options.extra = {"--fmad=false", "--ftz=true", "--maxrregcount=32", "--builtin-move-forward=true",
                   "-no-source-include"};
  const auto separate = nvcc::compile(source(muladd), options, "compute_80");
  ASSERT_TRUE(separate.ok) << separate.log;
  EXPECT_EQ(text_of(separate).find("fma.rn.f32"), std::string::npos) << text_of(separate);
  EXPECT_NE(text_of(separate).find("mul.rn.ftz.f32"), std::string::npos) << text_of(separate);
}

TEST_F(NvccTest, CommandLineTranslatesNvrtcOptions) {
  CompileOptions options;
  options.defines = {"A=1"};
  options.include_dirs = {"/inc"};
  options.extra = {"--use_fast_math", "--pch", "--device-int128", "-DB"};
  const auto args =
      nvcc::command_line(KernelSource{"", "/src/k.cu", Language::cuda}, options, "compute_90");
  const std::vector<std::string> tail(args.begin() + 1, args.end());
  EXPECT_EQ(tail,
            (std::vector<std::string>{"--ptx", "-arch=compute_90", "-std=c++17", "-lineinfo",
                                      "-DA=1", "-I/inc", "-I/src", "--use_fast_math", "-DB"}));
  const auto cubin = nvcc::command_line(KernelSource{"", "k.cu", Language::cuda}, {}, "sm_90");
  EXPECT_EQ(cubin.at(1), "-cubin");
  EXPECT_EQ(cubin.at(2), "-arch=sm_90");
}

TEST_F(NvccTest, UnknownNameExpressionIsACompileError) {
  const auto r =
      nvcc::compile(source(scalar_add), nvcc_options({"no_such_kernel<int>"}), "compute_80");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("no_such_kernel"), std::string::npos) << r.log;
}

TEST_F(NvccTest, HipSourceIsAUsageError) {
  try {
    (void)nvcc::compile(KernelSource{"", "k.hip", Language::hip}, {}, "compute_90");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
  }
}

TEST_F(NvccTest, DispatcherUsesNvccOnlyWhenAskedAndKeysTheCacheOnIt) {
  EXPECT_NE(compilers::choose(CompileOptions{}).name, "nvcc");
  const auto options = nvcc_options();
  EXPECT_EQ(compilers::choose(options).name, "nvcc");
  // The compiler and its version, then a digest of the headers gpurun hands it.
  EXPECT_TRUE(
      compilers::compiler_id(options).starts_with("nvcc " + nvcc::probe().version + " headers "))
      << compilers::compiler_id(options);
  const auto r = compilers::compile_cuda(source(scalar_add), options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.compiler_version, "nvcc " + nvcc::probe().version);
}

} // namespace
} // namespace gpurun::test
