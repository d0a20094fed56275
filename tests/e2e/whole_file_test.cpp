// End-to-end: whole .cu files as users keep them (a CPU reference, launchers, main(), cuBLAS and
// <fstream> includes, helper headers that are not there) run through the real binary on the CPU
// backend with each device-only compiler; `gpurun list`; compile errors as users read them.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

using json = nlohmann::json;

const std::string k_dir = "tests/data/whole_file/";

// The layernorm of the files' own CPU reference, on the inputs the run reports.
std::vector<float> layernorm_reference(const std::vector<float>& inp, int n, int c) {
  std::vector<float> out(inp.size());
  for (int i = 0; i < n; ++i) {
    const float* x = inp.data() + i * c;
    float m = 0;
    for (int k = 0; k < c; ++k)
      m += x[k];
    m /= static_cast<float>(c);
    float v = 0;
    for (int k = 0; k < c; ++k)
      v += (x[k] - m) * (x[k] - m);
    v /= static_cast<float>(c);
    const float s = 1.0f / std::sqrt(v + 1e-5f);
    for (int k = 0; k < c; ++k)
      out[i * c + k] = s * (x[k] - m) * 0.5f + 0.25f;
  }
  return out;
}

std::vector<float> values(const json& doc, const std::string& buffer) {
  std::vector<float> out;
  for (const auto& v : doc.at("buffers").at(buffer).at("values"))
    out.push_back(v.get<float>());
  return out;
}

class WholeFile : public ::testing::TestWithParam<std::string> {
protected:
  void SetUp() override {
    const RunResult probe =
        run_gpurun("kernels/examples/scalar_add.json -q --backend cpu --compiler " + compiler());
    if (probe.exit_code == 5)
      GTEST_SKIP() << probe.err;
  }
  [[nodiscard]] std::string compiler() const { return GetParam(); }
  [[nodiscard]] std::string flags() const {
    return " --backend cpu --no-cache --json --compiler " + compiler();
  }
};

TEST_P(WholeFile, LlmStyleKernelsRunFromTheUneditedFileAndMatchItsCpuReference) {
  const std::string args = " -a 'out=f32[4,64]' -a 'mean=f32[4]' -a 'rstd=f32[4]'"
                           " -a 'inp=f32[4,64]:rand(seed=3)' -a 'weight=f32[64]:0.5'"
                           " -a 'bias=f32[64]:0.25' -a N=4 -a C=64";
  for (const auto& [kernel, launch] :
       {std::pair<std::string, std::string>{"layernorm_forward_kernel1", "--grid 1 --block 32"},
        {"layernorm_forward_kernel2", "--grid 1 --block 128"}}) {
    const auto r = run_gpurun(k_dir + "llm_style/layernorm.cu --kernel " + kernel + " " + launch +
                              args + flags());
    ASSERT_EQ(r.exit_code, 0) << kernel << "\n" << r.err << r.out;
    const json doc = json::parse(r.out);
    const auto expected = layernorm_reference(values(doc, "inp"), 4, 64);
    const auto got = values(doc, "out");
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], expected[i], 2e-5f) << kernel << " at " << i;
    // What was left out is reported: the host code and the host-library headers.
    const std::string left_out = doc.at("left_out").get<std::string>();
    EXPECT_NE(left_out.find("host functions"), std::string::npos) << left_out;
    EXPECT_NE(left_out.find("cublas_v2.h"), std::string::npos) << left_out;
    EXPECT_NE(left_out.find("fstream"), std::string::npos) << left_out;
  }
}

TEST_P(WholeFile, ATemplateOverADeviceFunctionPointerFromTheFilesOwnHeader) {
  const auto r = run_gpurun(k_dir +
                            "llm_style/layernorm.cu --kernel row_sum_kernel --grid 3 --block 64 "
                            "-a 'out=f32[3]' -a 'inp=f32[3,100]:iota' -a N=3 -a C=100 "
                            "--expect 'out=[4950,14950,24950]'" +
                            flags());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
}

TEST_P(WholeFile, SamplesStyleTemplateAndConstantMemoryWithMissingHelperHeaders) {
  const auto r = run_gpurun(
      k_dir +
      "samples_style/matrixMul.cu -k 'MatrixMulCUDA<16>' --grid 2,2 --block 16,16 "
      "-a 'C=f32[32,32]' -a 'A=f32[32,32]:ones' -a 'B=f32[32,32]:ones' -a wA=32 -a wB=32 "
      "--global 'c_alpha=f32[1]:[0.5]' --expect 'C=f32[32,32]:16'" +
      flags());
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::string left_out = json::parse(r.out).at("left_out").get<std::string>();
  EXPECT_NE(left_out.find("helper_cuda.h"), std::string::npos) << left_out;
  const auto s = run_gpurun(k_dir +
                            "samples_style/matrixMul.cu -k scaleVector --grid 1 --block 32 "
                            "-a 'v=f32[8]:iota' -a s=2 -a n=8 --expect 'v=f32[8]:iota(0,2)'" +
                            flags());
  EXPECT_EQ(s.exit_code, 0) << s.err << s.out;
}

TEST_P(WholeFile, PreIncludedHeaderIsReadWithTheFile) {
  const auto r = run_gpurun(k_dir + "include/uses_extra.cu -include " + k_dir +
                            "include/extra.h --grid 1 --block 8 -a 'v=f32[4]:iota' -a n=4 "
                            "--expect 'v=[0,3,6,9]'" +
                            flags());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
}

TEST_P(WholeFile, KernelsFromTheFilesOwnHeaderAreTypeChecked) {
  const std::string file = k_dir + "include/program.cu ";
  const auto r = run_gpurun(file +
                            "-k offset_in_header -g 1 -b 8 -a 'x=f32[4]:iota' -a offset=1 "
                            "-a n=4 --expect 'x=[1,2,3,4]'" +
                            flags());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  // The template's parameters come from the header's declaration: a wrong buffer type is named.
  const auto bad = run_gpurun(file +
                              "-k 'scale_in_header<float>' -g 1 -b 8 -a 'x=f64[4]:iota' "
                              "-a factor=2 -a n=4" +
                              flags());
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("'float* x'"), std::string::npos) << bad.err;
}

TEST_P(WholeFile, HipProgramWithItsHostCode) {
  const auto r = run_gpurun(k_dir +
                            "hip/vector_scale.hip -k 'vector_scale<float>' --grid 1 "
                            "--block 8 -a 'out=f32[8]' -a 'in=f32[8]:iota' -a factor=2 "
                            "-a n=8 --expect 'out=f32[8]:iota(0,2)'" +
                            flags());
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
}

TEST_P(WholeFile, CompileErrorsShowTheFirstThreeAndACount) {
  const std::string cmd = k_dir +
                          "errors/five_errors.cu --grid 1 --block 1 -a 'x=f32[1]' -a n=1 "
                          "--backend cpu --no-cache --compiler " +
                          compiler();
  const auto r = run_gpurun(cmd);
  ASSERT_EQ(r.exit_code, 3) << r.err;
  std::size_t shown = 0;
  for (std::size_t at = r.err.find("error:"); at != std::string::npos;
       at = r.err.find("error:", at + 1))
    ++shown;
  EXPECT_EQ(shown, 1u + 3u) << r.err; // "gpurun: error:" and three of the five
  EXPECT_NE(r.err.find("five_errors.cu"), std::string::npos) << r.err;
  EXPECT_TRUE(r.err.find("five_errors.cu(8)") != std::string::npos ||
              r.err.find("five_errors.cu:8:") != std::string::npos)
      << "file:line of the first error\n"
      << r.err;
  EXPECT_NE(r.err.find("5 errors; full log: -v, or error.log in --json"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("-default-device"), std::string::npos) << r.err;

  const auto v = run_gpurun(cmd + " -v");
  EXPECT_NE(v.err.find("undefined_d"), std::string::npos) << v.err;

  const auto j = run_gpurun(cmd + " --json");
  const json doc = json::parse(j.out);
  const std::string log = doc.at("error").at("log").get<std::string>();
  EXPECT_NE(log.find("undefined_d"), std::string::npos) << log;
}

INSTANTIATE_TEST_SUITE_P(Compilers, WholeFile, ::testing::Values("nvrtc", "clang"),
                         [](const auto& info) { return std::string(info.param); });

TEST(WholeFileList, KernelsTheirParametersAndTheFilesOwnLaunches) {
  const auto r = run_gpurun("list " + k_dir + "llm_style/layernorm.cu --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json doc = json::parse(r.out);
  const auto& kernels = doc.at("kernels");
  ASSERT_EQ(kernels.size(), 3u) << r.out;
  EXPECT_EQ(kernels[0].at("name"), "layernorm_forward_kernel1");
  EXPECT_EQ(kernels[0].at("params").size(), 8u);
  EXPECT_EQ(kernels[0].at("params")[3].at("type"), "const float*");
  ASSERT_EQ(kernels[0].at("launches").size(), 1u);
  const auto& launch = kernels[0].at("launches")[0];
  EXPECT_EQ(launch.at("caller"), "layernorm_forward1");
  EXPECT_EQ(launch.at("grid"), "grid_size");
  EXPECT_EQ(launch.at("block"), "block_size");
  EXPECT_TRUE(launch.at("shared").is_null());
  EXPECT_EQ(kernels[2].at("name"), "row_sum_kernel");
  EXPECT_TRUE(kernels[2].at("launches").empty());

  const auto h = run_gpurun("list " + k_dir + "hip/vector_scale.hip --json");
  ASSERT_EQ(h.exit_code, 0) << h.err;
  const json hip_doc = json::parse(h.out);
  const auto& hip_launches = hip_doc.at("kernels").at(0).at("launches");
  ASSERT_EQ(hip_launches.size(), 2u) << h.out; // hipLaunchKernelGGL and <<<>>>
  EXPECT_EQ(hip_launches[0].at("kernel"), "vector_scale<float>");
  EXPECT_EQ(hip_launches[0].at("grid"), "dim3(n / 256)");
  EXPECT_EQ(hip_launches[0].at("arguments"), "d_out, d_in, 2.0f, n");

  const auto t = run_gpurun("list " + k_dir + "samples_style/matrixMul.cu");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("MatrixMulCUDA<16><<<grid, threads, 0, stream>>>"), std::string::npos)
      << t.out;
  EXPECT_NE(t.out.find("in MatrixMultiply"), std::string::npos) << t.out;
}

} // namespace
} // namespace gpurun::test
