// End-to-end: nvcc's spellings of compile options work, and mistyped commands, options and kernel
// names get a "did you mean".
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/test_support.hpp"

namespace gpurun::test {
namespace {

const std::string seed = "kernels/examples/scalar_add.json --backend cpu --no-cache -q ";

TEST(NvccSpellings, ArchStdAndPassThroughOptionsAreAccepted) {
  for (const std::string flags :
       {"-arch=sm_90", "-arch sm_80", "--gpu-architecture=sm_90", "--gpu-architecture sm_90",
        "-std=c++17", "--use_fast_math", "-use_fast_math", "-lineinfo", "-maxrregcount=32",
        "-maxrregcount 32", "-Xptxas -v", "--ptxas-options=-v", "-ftz=true", "--prec-div=false",
        "-DSCALE=2", "-D SCALE=2", "-I/tmp", "-I /tmp"}) {
    const auto r = run_gpurun(seed + flags);
    EXPECT_EQ(r.exit_code, 0) << flags << "\n" << r.err;
  }
}

TEST(NvccSpellings, AWholeFilesOwnBuildLineIsAccepted) {
  // What a Makefile passes nvcc for the host side is dropped; device dialect options pass.
  for (const std::string flags :
       {"-O3", "-O0", "-lcublas -lcublasLt", "-L/usr/local/cuda/lib64", "-Xcompiler -fopenmp",
        "-ccbin g++", "-m64", "--expt-relaxed-constexpr", "--extended-lambda",
        "--expt-extended-lambda", "-O3 --use_fast_math -lcublas -lcublasLt"}) {
    for (const std::string compiler : {"nvrtc", "clang"}) {
      const auto r = run_gpurun(seed + flags + " --compiler " + compiler);
      if (r.exit_code == 5)
        continue; // that compiler is not installed
      EXPECT_EQ(r.exit_code, 0) << flags << " (" << compiler << ")\n" << r.err;
    }
  }
}

TEST(NvccSpellings, TheArchReachesTheCompiler) {
  // compute_75 PTX says so in its .target line.
  const auto ptx = temp_dir() / "k.ptx";
  const auto r = run_gpurun("compile kernels/examples/scalar_add.cu -arch=compute_75 --ptx -o " +
                            ptx.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto text = run_shell("cat " + ptx.string()).out;
  EXPECT_NE(text.find(".target sm_75"), std::string::npos) << text.substr(0, 400);
}

TEST(DidYouMean, MistypedCommandOptionAndKernel) {
  auto r = run_gpurun("devcies");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpurun: error: unknown command 'devcies' (did you mean 'devices'?)\n");
  r = run_gpurun(seed + "--grdi 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("gpurun: error: unknown option '--grdi' (did you mean '--grid'?)", 0), 0u)
      << r.err;
  r = run_gpurun(seed + "--kernel scalar_ad");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no kernel 'scalar_ad' in the source (did you mean 'scalar_add'?)"),
            std::string::npos)
      << r.err;
  // Nothing near: no suggestion.
  r = run_gpurun(seed + "--kernel zzzzzzzz");
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

} // namespace
} // namespace gpurun::test

namespace gpurun::test {
namespace {

TEST(CompileResources, TemplatesOnlyIsAnErrorThatSaysWhatToDo) {
  auto r = run_gpurun("compile tests/data/e2e/template_only.cu --resources");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("only templates (name an instantiation: --kernel 'NAME<TYPE>')"),
            std::string::npos)
      << r.err;
  r = run_gpurun("compile tests/data/e2e/template_only.cu --resources -k 'fill<float>' -k "
                 "'fill<int>'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("void fill<float>(float*, float)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("void fill<int>(int*, int)"), std::string::npos) << r.out;
}

TEST(CompileResources, CppNamesShowAsWritten) {
  const auto r = run_gpurun("compile tests/data/e2e/cpp_linkage.cu --resources");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("who(float*)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("_Z3whoPf"), std::string::npos) << r.out;
}

TEST(Compile, DashOutputIsStdout) {
  const auto r = run_gpurun("compile tests/data/e2e/cpp_linkage.cu --ptx -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(".visible .entry _Z3whoPf"), std::string::npos) << r.out.substr(0, 300);
  EXPECT_FALSE(std::filesystem::exists(source_dir() / "-"));
}

TEST(Help, HelpAllAndOnlyBuiltBackends) {
  auto r = run_gpurun("--help-all");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("bench"), std::string::npos);
  r = run_gpurun("run --help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto line = r.out.substr(
      r.out.find("--backend"), r.out.find('\n', r.out.find("--backend")) - r.out.find("--backend"));
#ifdef GPURUN_HAVE_HIP
  EXPECT_NE(line.find("|hip"), std::string::npos) << line << ": hip is built";
#else
  EXPECT_EQ(line.find("hip"), std::string::npos) << line << ": hip is not built";
#endif
#ifdef GPURUN_HAVE_OPENCL
  EXPECT_NE(line.find("|opencl"), std::string::npos) << line << ": opencl is built";
#else
  EXPECT_EQ(line.find("opencl"), std::string::npos) << line << ": opencl is not built";
#endif
  EXPECT_NE(line.find("auto|"), std::string::npos) << line;
}

} // namespace
} // namespace gpurun::test

namespace gpurun::test {
namespace {

TEST(Globals, ASmallerFillGoesIntoTheStartAndSaysSo) {
  auto r = run_gpurun("tests/data/e2e/constant_filter.cu --backend cpu --no-cache --grid 1 "
                      "--block 8 --arg 'out=f32[8]' --global 'filter=f32[3]:[1,2,3]' --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.at("buffers").at("out").at("values"),
            nlohmann::json({1.0, 2.0, 3.0, -1.0, -1.0, -1.0, -1.0, -1.0}));
  EXPECT_NE(r.err.find("gpurun: warning: --global filter: 12 bytes fill the first 12 of the 32 "
                       "bytes of 'filter'; the rest keeps its initial value"),
            std::string::npos)
      << r.err;
  r = run_gpurun("tests/data/e2e/constant_filter.cu --backend cpu --no-cache --grid 1 --block 8 "
                 "--arg 'out=f32[8]' --global 'filter=f32[9]:ones'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("36 bytes given for 'filter', which has 32 bytes"), std::string::npos)
      << r.err;
}

} // namespace
} // namespace gpurun::test
