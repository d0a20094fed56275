#include "backends/compilers/whole_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace gpurun::compilers {
namespace {

namespace fs = std::filesystem;

HeaderPolicy provides(std::set<std::string, std::less<>> names) {
  return {[names = std::move(names)](std::string_view n) { return names.contains(n); }};
}

DeviceSource device_side(const std::string& text, std::vector<std::string> kernels = {},
                         const fs::path& path = "k.cu", CompileOptions options = {}) {
  options.kernels = std::move(kernels);
  return device_source(KernelSource{text, path, Language::cuda}, options,
                       provides({"cuda_runtime.h", "stdio.h"}), Pruning::to_kernels);
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const char* k_mixed = R"(#include <stdio.h>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#define BLOCK 256
struct Params { float scale; };
__device__ float twice(float v) { return 2 * v; }
__global__ void scale(float* x, Params p, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) x[i] = twice(x[i]) * p.scale;
}
__device__ float unused_helper(float v) { return v; }
__global__ void other(float* x) { x[0] = unused_helper(1); }
std::vector<float> host_data;
void cpu_reference(float* x, int n) { for (int i = 0; i < n; ++i) x[i] *= 2; }
int main() {
  float* d; cublasHandle_t h;
  scale<<<1, BLOCK>>>(d, Params{1}, 4);
  return 0;
}
)";

TEST(WholeFile, HostCodeAndHostHeadersAreLeftOutLinesStay) {
  const DeviceSource d = device_side(k_mixed, {"scale"});
  EXPECT_TRUE(d.changed);
  EXPECT_EQ(std::count(d.text.begin(), d.text.end(), '\n'),
            std::count(k_mixed, k_mixed + std::strlen(k_mixed), '\n'));
  EXPECT_TRUE(has(d.text, "__global__ void scale"));
  EXPECT_TRUE(has(d.text, "__device__ float twice"));
  EXPECT_TRUE(has(d.text, "struct Params"));
  EXPECT_TRUE(has(d.text, "#define BLOCK 256"));
  EXPECT_TRUE(has(d.text, "#include <stdio.h>"));
  EXPECT_TRUE(has(d.text, "#include <cuda_runtime.h>"));
  EXPECT_FALSE(has(d.text, "#include <vector>"));
  EXPECT_FALSE(has(d.text, "#include <cublas_v2.h>"));
  EXPECT_FALSE(has(d.text, "main"));
  EXPECT_FALSE(has(d.text, "cpu_reference"));
  EXPECT_FALSE(has(d.text, "host_data"));
  EXPECT_FALSE(has(d.text, "unused_helper")); // only the chosen kernel's needs
  EXPECT_FALSE(has(d.text, "other"));
  EXPECT_EQ(d.host_functions, 2u);
  EXPECT_EQ(d.host_variables, 1u);
  EXPECT_EQ(d.unused_device, 2u);
  EXPECT_EQ(d.dropped_includes, (std::vector<std::string>{"vector", "cublas_v2.h"}));
  EXPECT_TRUE(has(d.summary(), "2 host functions"));
  EXPECT_TRUE(has(d.summary(), "cublas_v2.h"));
}

TEST(WholeFile, WithoutNamedKernelsEveryKernelStays) {
  const DeviceSource d = device_side(k_mixed);
  EXPECT_TRUE(has(d.text, "__global__ void other"));
  EXPECT_TRUE(has(d.text, "unused_helper"));
}

TEST(WholeFile, DirectivesInsideLeftOutCodeStay) {
  const DeviceSource d = device_side("void host() {\n#ifdef X\n  a();\n#else\n  b();\n#endif\n}\n"
                                     "__global__ void k() {}\n",
                                     {"k"});
  EXPECT_TRUE(has(d.text, "#ifdef X\n\n#else\n\n#endif"));
  EXPECT_FALSE(has(d.text, "host"));
}

TEST(WholeFile, TemplateArgumentsOfTheNameExpressionAreKept) {
  CompileOptions options;
  options.name_expressions = {"apply<Twice>"};
  const DeviceSource d = device_side("struct Twice { __device__ float operator()(float v) const "
                                     "{ return 2 * v; } };\n"
                                     "struct Unused { int x; };\n"
                                     "template <class Op> __global__ void apply(float* x) { x[0] = "
                                     "Op()(x[0]); }\n",
                                     {}, "k.cu", options);
  EXPECT_TRUE(has(d.text, "struct Twice"));
  EXPECT_FALSE(has(d.text, "struct Unused"));
}

TEST(WholeFile, MacrosLeadToWhatTheyName) {
  const DeviceSource d = device_side("__device__ float helper(float v) { return v; }\n"
                                     "#define CALL(x) helper(x)\n"
                                     "__global__ void k(float* x) { x[0] = CALL(x[0]); }\n",
                                     {"k"});
  EXPECT_TRUE(has(d.text, "__device__ float helper"));
}

TEST(WholeFile, DeviceOperatorsAndDeviceVariablesAlwaysStay) {
  const DeviceSource d = device_side("struct V { float x; };\n"
                                     "__device__ V operator+(V a, V b) { return {a.x + b.x}; }\n"
                                     "__constant__ float coeffs[4];\n"
                                     "__global__ void k(V* v) { v[0] = v[0] + v[1]; }\n",
                                     {"k"});
  EXPECT_TRUE(has(d.text, "operator+"));
  EXPECT_TRUE(has(d.text, "coeffs"));
}

TEST(WholeFile, UsingDirectiveForALeftOutHeaderGoes) {
  const DeviceSource d = device_side("#include <cooperative_groups.h>\n"
                                     "using namespace cooperative_groups;\n"
                                     "namespace cg = cooperative_groups;\n"
                                     "__global__ void k(float* x) { x[0] = 1; }\n",
                                     {"k"});
  EXPECT_FALSE(has(d.text, "using namespace"));
  EXPECT_FALSE(has(d.text, "namespace cg"));
}

TEST(WholeFile, OwnHeadersAreReadInWithLineMarkersAndPragmaOnceHonoured) {
  const fs::path dir = fs::temp_directory_path() / "gpurun-whole-file-test";
  fs::create_directories(dir);
  {
    std::ofstream(dir / "common.h") << "#pragma once\n#include <cublasLt.h>\n"
                                       "void cuda_check(int e) { if (e) exit(1); }\n"
                                       "__device__ float warp_sum(float v) { return v; }\n";
  }
  const std::string main = "#define ENABLE_BF16\n#include \"common.h\"\n#include \"common.h\"\n"
                           "__global__ void k(float* x) { x[0] = warp_sum(x[0]); }\n";
  const DeviceSource d = device_side(main, {"k"}, dir / "k.cu");
  EXPECT_TRUE(has(d.text, "#line 1 \"" + (dir / "common.h").string() + "\""));
  EXPECT_TRUE(has(d.text, "#line 3 \"" + (dir / "k.cu").string() + "\""));
  EXPECT_TRUE(has(d.text, "#ifndef __GPURUN_ONCE_0"));
  EXPECT_TRUE(has(d.text, "__device__ float warp_sum"));
  EXPECT_FALSE(has(d.text, "cuda_check"));
  EXPECT_FALSE(has(d.text, "#include <cublasLt.h>"));
  ASSERT_EQ(d.inlined_headers.size(), 1u);
  fs::remove_all(dir);
}

TEST(WholeFile, UnreadableStructureIsPassedOnAsWritten) {
  const std::string text = "#ifdef A\nvoid f(int x) {\n#else\nvoid f(float x) {\n#endif\n}\n";
  const DeviceSource d = device_side(text);
  EXPECT_EQ(d.text, text);
  EXPECT_FALSE(d.unread.empty());
}

TEST(WholeFile, HostLibraryHeaders) {
  for (const char* h : {"cublas_v2.h", "cublasLt.h", "cufft.h", "curand.h", "nccl.h",
                        "cuda_profiler_api.h", "nvtx3/nvToolsExt.h", "cusparse.h", "cudnn.h"})
    EXPECT_TRUE(is_host_library_header(h)) << h;
  for (const char* h : {"curand_kernel.h", "cuda_fp16.h", "cooperative_groups.h", "mma.h",
                        "cub/cub.cuh", "common.h", "cuda_runtime.h"})
    EXPECT_FALSE(is_host_library_header(h)) << h;
}

} // namespace
} // namespace gpurun::compilers
