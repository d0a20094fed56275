// Which CUDA compiler a compile uses: the words --compiler accepts and what each one chooses.
// (NVRTC giving way to clang needs an NVRTC without its builtins: tests/e2e/compilers_test.cpp.)
#include "backends/compilers/cuda_compiler.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun::compilers {
namespace {

TEST(CudaCompiler, EveryNameParsesAndAutoIsFirst) {
  const auto names = compiler_names();
  ASSERT_EQ(names.size(), 4u);
  EXPECT_EQ(names[0], "auto");
  EXPECT_EQ(parse_cuda_compiler("auto", "--compiler"), CudaCompiler::automatic);
  EXPECT_EQ(parse_cuda_compiler("", "--compiler"), CudaCompiler::automatic);
  EXPECT_EQ(parse_cuda_compiler("nvrtc", "--compiler"), CudaCompiler::nvrtc);
  EXPECT_EQ(parse_cuda_compiler("clang", "--compiler"), CudaCompiler::clang);
  EXPECT_EQ(parse_cuda_compiler("nvcc", "--compiler"), CudaCompiler::nvcc);
  for (const auto name : names)
    EXPECT_NO_THROW((void)parse_cuda_compiler(std::string(name), "--compiler")) << name;
}

TEST(CudaCompiler, UnknownNameIsAUsageErrorListingTheChoices) {
  try {
    (void)parse_cuda_compiler("gcc", "compile.compiler");
    FAIL() << "expected a usage error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), "compile.compiler 'gcc': expected auto, nvrtc, clang or nvcc");
  }
}

TEST(CudaCompiler, NamedCompilerIsChosenEvenWhenUnavailable) {
  for (const char* name : {"nvrtc", "clang", "nvcc"}) {
    CompileOptions options;
    options.compiler = name;
    const auto chosen = choose(options);
    EXPECT_EQ(chosen.name, name);
    EXPECT_EQ(chosen.available, chosen.reason.empty()) << name << ": " << chosen.reason;
    EXPECT_TRUE(chosen.passed_over.empty()) << chosen.passed_over;
  }
}

TEST(CudaCompiler, AutomaticChoiceNeverTakesNvcc) {
  const auto chosen = choose(CompileOptions{});
  EXPECT_NE(chosen.name, "nvcc");
  if (nvrtc_info().available)
    EXPECT_EQ(chosen.name, "nvrtc");
  else if (clang_info().available)
    EXPECT_EQ(chosen.name, "clang");
  else
    EXPECT_FALSE(chosen.available);
}

TEST(CudaCompiler, NvrtcInfoNamesItsBuiltins) {
  const auto info = nvrtc_info();
  if (!info.available)
    GTEST_SKIP() << "NVRTC unavailable: " << info.reason;
  EXPECT_NE(info.builtins.find("libnvrtc-builtins"), std::string::npos) << info.builtins;
}

} // namespace
} // namespace gpurun::compilers
