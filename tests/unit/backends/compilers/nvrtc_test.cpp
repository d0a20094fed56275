// NVRTC compiles real CUDA source here: no GPU is needed for PTX or cubin output.
#include "backends/compilers/nvrtc.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "backends/compilers/nvrtc_api.hpp"
#include "base/error.hpp"
#include "support/test_support.hpp"

namespace gpurun {
namespace {

class NvrtcTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!nvrtc::probe().available)
      GTEST_SKIP() << "NVRTC unavailable: " << nvrtc::probe().reason;
  }
  static KernelSource source(std::string text) {
    return KernelSource{std::move(text), "test_kernel.cu", Language::cuda};
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

TEST_F(NvrtcTest, ProbeReportsVersion) {
  EXPECT_TRUE(nvrtc::probe().reason.empty());
  EXPECT_FALSE(nvrtc::probe().version.empty());
  EXPECT_NE(nvrtc::probe().version.find('.'), std::string::npos);
}

TEST_F(NvrtcTest, ComputeTargetGivesPtxText) {
  const auto r = nvrtc::compile(source(scalar_add), {}, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.binary_format, "ptx");
  EXPECT_EQ(r.target, "compute_90");
  EXPECT_EQ(r.compiler_version, "nvrtc " + nvrtc::probe().version);
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx.find(".entry scalar_add("), std::string::npos);
  EXPECT_EQ(ptx.find('\0'), std::string::npos) << "PTX text must not carry the NUL terminator";
}

TEST_F(NvrtcTest, SmTargetGivesElfCubin) {
  const auto r = nvrtc::compile(source(scalar_add), {}, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.binary_format, "cubin");
  ASSERT_GT(r.binary.size(), 4u);
  EXPECT_EQ(static_cast<char>(r.binary[0]), '\x7f');
  EXPECT_EQ(static_cast<char>(r.binary[1]), 'E');
  EXPECT_EQ(static_cast<char>(r.binary[2]), 'L');
  EXPECT_EQ(static_cast<char>(r.binary[3]), 'F');
}

TEST_F(NvrtcTest, LoweredNameOfTemplateKernel) {
  CompileOptions options;
  options.name_expressions = {"saxpy<float>", "saxpy<double>"};
  const auto r = nvrtc::compile(source(R"(template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)"),
                                options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  ASSERT_EQ(r.lowered_names.size(), 2u);
  EXPECT_EQ(r.lowered_names.at("saxpy<float>"), "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(r.lowered_names.at("saxpy<double>"), "_Z5saxpyIdEvT_PKS0_PS0_i");
  EXPECT_NE(text_of(r).find(".entry _Z5saxpyIfEvT_PKS0_PS0_i("), std::string::npos);
}

TEST_F(NvrtcTest, CompileErrorIsAValueNamingFileAndLine) {
  const auto r = nvrtc::compile(source("extern \"C\" __global__ void k(float* v) {\n"
                                       "  v[0] = undefined_name;\n"
                                       "}\n"),
                                {}, "compute_90");
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.binary.empty());
  EXPECT_NE(r.log.find("test_kernel.cu(2)"), std::string::npos) << r.log;
  EXPECT_NE(r.log.find("undefined_name"), std::string::npos) << r.log;
}

TEST_F(NvrtcTest, InvalidOptionIsAValue) {
  CompileOptions options;
  options.extra = {"--no-such-option"};
  const auto r = nvrtc::compile(source(scalar_add), options, "compute_90");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("no-such-option"), std::string::npos) << r.log;
}

TEST_F(NvrtcTest, MalformedTargetIsUsageError) {
  try {
    (void)nvrtc::compile(source(scalar_add), {}, "gfx90a");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("'gfx90a'"), std::string::npos);
  }
}

TEST_F(NvrtcTest, DefinesStdAndLineInfoReachTheCompiler) {
  CompileOptions options;
  options.defines = {"SCALE=3", "USE_SCALE"};
  options.std_version = "c++17";
  options.line_info = true;
  const auto r = nvrtc::compile(source(R"(
#if !defined(USE_SCALE) || __cplusplus != 201703L
#error defines or -std did not arrive
#endif
extern "C" __global__ void k(int* v) { v[0] = SCALE; }
)"),
                                options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  const auto ptx = text_of(r);
  EXPECT_NE(ptx.find("mov.u32 \t%r1, 3;"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".loc"), std::string::npos) << "-lineinfo should emit .loc directives";

  options.line_info = false;
  const auto no_lines = nvrtc::compile(source("extern \"C\" __global__ void k(int* v) { v[0]=1; }"),
                                       options, "compute_90");
  ASSERT_TRUE(no_lines.ok) << no_lines.log;
  EXPECT_EQ(text_of(no_lines).find(".loc"), std::string::npos);
}

TEST_F(NvrtcTest, IncludesFromSourceFolderAndIncludeDirs) {
  const auto dir = test::temp_dir();
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
  const auto r = nvrtc::compile(s, options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_NE(text_of(r).find("341"), std::string::npos);
}

// One kernel per compatibility header that uses what the real header would provide.
struct IncludeCase {
  const char* header;
  const char* body;
  /// Found in the toolkit's include folder rather than among the built-in headers.
  bool from_toolkit = false;
};

// Whether the NVRTC that was loaded came with the toolkit's headers (a toolkit or the wheels).
bool toolkit_headers_present() {
  std::error_code ec;
  for (const auto& dir : nvrtc::library().include_dirs)
    if (std::filesystem::is_regular_file(std::filesystem::path(dir) / "cuda_fp16.h", ec))
      return true;
  return false;
}

class CompatHeaderTest : public NvrtcTest, public ::testing::WithParamInterface<IncludeCase> {};

TEST_P(CompatHeaderTest, KernelUsingHeaderCompiles) {
  const auto& c = GetParam();
  if (c.from_toolkit && !toolkit_headers_present())
    GTEST_SKIP() << c.header << " comes from the CUDA toolkit's headers, absent beside this NVRTC";
  const std::string text = std::string("#include <") + c.header + ">\n" +
                           "extern \"C\" __global__ void k(float* f, long long* i) {\n" + c.body +
                           "\n}\n";
  const auto r = nvrtc::compile(source(text), {}, "compute_90");
  EXPECT_TRUE(r.ok) << c.header << ":\n" << r.log;
  // Redefinitions that disagree with the toolkit's own headers would show up as warnings.
  EXPECT_EQ(r.log.find("warning"), std::string::npos) << c.header << ":\n" << r.log;
}

INSTANTIATE_TEST_SUITE_P(
    Includes, CompatHeaderTest,
    ::testing::Values(
        IncludeCase{"cstdio", "std::printf(\"%d %f\\n\", threadIdx.x, f[0]);"},
        IncludeCase{"stdio.h", "printf(\"%d\\n\", EOF);"},
        IncludeCase{"cstdint", "std::uint32_t a = UINT32_MAX; std::int64_t b = INT64_MIN; "
                               "uint8_t c = 1; i[0] = a + b + c + sizeof(std::uintptr_t);"},
        IncludeCase{"stdint.h", "int16_t a = INT16_MAX; uint64_t b = UINT64_C(1) << 40; "
                                "i[0] = a + b;"},
        IncludeCase{"cstddef", "std::size_t n = sizeof(std::ptrdiff_t); std::nullptr_t z = "
                               "nullptr; i[0] = n + (z == nullptr);"},
        IncludeCase{"stddef.h", "struct S { int a; float b; }; i[0] = offsetof(S, b);"},
        IncludeCase{"cmath", "f[0] = std::sqrt(f[1]) + std::exp(f[2]) + std::fabs(f[3]) + "
                             "std::fmax(f[4], 1.0f) + std::isnan(f[5]) + std::floor(2.5);"},
        IncludeCase{"math.h", "f[0] = sqrtf(f[1]) + expf(f[2]) + (float)M_PI + INFINITY + "
                              "isinf(f[3]) + isnan(NAN);"},
        IncludeCase{"cassert", "assert(f != nullptr);"},
        IncludeCase{"assert.h", "assert(i != nullptr);"},
        IncludeCase{"climits", "i[0] = INT_MAX + (long long)LLONG_MIN + CHAR_BIT + UINT_MAX;"},
        IncludeCase{"limits.h", "i[0] = SHRT_MAX; i[1] = LONG_MAX;"},
        IncludeCase{"cfloat", "f[0] = FLT_MAX + FLT_MIN + FLT_EPSILON + (float)DBL_EPSILON;"},
        IncludeCase{"float.h", "f[0] = FLT_MANT_DIG + DBL_MAX_EXP;"},
        IncludeCase{"cstdlib", "int* p = (int*)std::malloc(4); std::free(p); i[0] = std::abs(-3);"},
        IncludeCase{"stdlib.h", "void* p = malloc(8); free(p);"},
        IncludeCase{"cuda_runtime.h", "uint32_t a = threadIdx.x; printf(\"%u\\n\", a); "
                                      "f[a] = __fsqrt_rn(f[a]) + std::sqrt(2.0f);"},
        IncludeCase{"cuda.h", "CUdeviceptr p = 0; i[0] = p + CUDA_VERSION;"},
        IncludeCase{"cuda_fp16.h",
                    "__half h = __float2half(f[0]); f[1] = __half2float(__hadd(h, h));", true},
        IncludeCase{"cuda_bf16.h",
                    "__nv_bfloat16 b = __float2bfloat16(f[0]); f[1] = "
                    "__bfloat162float(b);",
                    true},
        IncludeCase{"cooperative_groups.h", "cooperative_groups::this_thread_block().sync();",
                    true},
        IncludeCase{"cuda/std/cstdint", "cuda::std::uint32_t v = 7; i[0] = v;", true},
        IncludeCase{"cuda/std/climits", "i[0] = INT_MAX; i[1] = CHAR_BIT;", true}),
    [](const ::testing::TestParamInfo<IncludeCase>& info) {
      std::string name;
      for (const char* p = info.param.header; *p != '\0'; ++p)
        name += (std::isalnum(static_cast<unsigned char>(*p)) != 0) ? *p : '_';
      return name;
    });

TEST_F(NvrtcTest, NdebugDisablesAssert) {
  CompileOptions options;
  options.defines = {"NDEBUG"};
  const auto r =
      nvrtc::compile(source("#include <cassert>\n"
                            "extern \"C\" __global__ void k(int* v) { assert(v[0] == 1); }"),
                     options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(text_of(r).find("__assertfail"), std::string::npos);

  const auto with_assert = nvrtc::compile(
      source("#include <cassert>\nextern \"C\" __global__ void k(int* v) { assert(v[0] == 1); }"),
      {}, "compute_90");
  ASSERT_TRUE(with_assert.ok) << with_assert.log;
  EXPECT_NE(text_of(with_assert).find("__assertfail"), std::string::npos);
}

TEST_F(NvrtcTest, FixedWidthTypesAreThoseOfLibcuxx) {
  CompileOptions options;
  options.name_expressions = {"k<int64_t>", "k<uint64_t>"};
  const auto r =
      nvrtc::compile(source("#include <cstdint>\n"
                            "template <typename T> __global__ void k(T* v) { v[0] = 1; }"),
                     options, "compute_90");
  ASSERT_TRUE(r.ok) << r.log;
  // As <cuda/std/cstdint> under NVRTC: int64_t is long long ('x'), uint64_t unsigned long long.
  EXPECT_EQ(r.lowered_names.at("k<int64_t>"), "_Z1kIxEvPT_");
  EXPECT_EQ(r.lowered_names.at("k<uint64_t>"), "_Z1kIyEvPT_");
}

TEST_F(NvrtcTest, SupportedArchsIncludeHopper) {
  const auto archs = nvrtc::supported_archs();
  ASSERT_FALSE(archs.empty());
  EXPECT_NE(std::find(archs.begin(), archs.end(), "90"), archs.end());
}

} // namespace
} // namespace gpurun
