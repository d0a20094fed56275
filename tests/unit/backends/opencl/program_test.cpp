#include "backends/opencl/program.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun::opencl {
namespace {

TEST(OpenclProgram, BuildOptionsInTheirOrder) {
  KernelSource source{"", "/src/my kernels/k.cl", Language::opencl};
  CompileOptions options;
  options.defines = {"REAL=double", "FAST"};
  options.include_dirs = {"inc"};
  options.std_version = "cl3.0";
  options.extra = {"-cl-fast-relaxed-math"};
  EXPECT_EQ(build_options(source, options),
            "-cl-kernel-arg-info -I\"/src/my kernels\" -Iinc -DREAL=double -DFAST -cl-std=CL3.0 "
            "-cl-fast-relaxed-math");
  EXPECT_EQ(build_options(KernelSource{"", "k.cl", Language::opencl}, CompileOptions{}),
            "-cl-kernel-arg-info");
}

TEST(OpenclProgram, ACudaStdOrAnArchIsRefusedNamingTheFlag) {
  const KernelSource source{"", "k.cl", Language::opencl};
  CompileOptions options;
  options.std_version = "c++17";
  try {
    (void)build_options(source, options);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_NE(std::string(e.what()).find("--std c++17"), std::string::npos) << e.what();
  }
  options.std_version.clear();
  options.arch = "sm_90";
  EXPECT_THROW((void)build_options(source, options), Error);
}

TEST(OpenclProgram, BuildLogsNameTheUsersFile) {
  // PoCL's cache copy, Clang's <source>, NVIDIA's <kernel>.
  EXPECT_EQ(readable_log("error: /root/.cache/pocl/kcache/tempfile_wIDOwT.cl:3:10: use of "
                         "undeclared identifier 'x'\n",
                         "k/a.cl"),
            "error: k/a.cl:3:10: use of undeclared identifier 'x'");
  EXPECT_EQ(readable_log("<source>:2:1: error: expected ';'\n<kernel>:7:4: warning: w", "a.cl"),
            "a.cl:2:1: error: expected ';'\na.cl:7:4: warning: w");
  // Other files the build read keep their names; a line without a place is left as it is.
  EXPECT_EQ(readable_log("In file included from inc/h.h:4:\n1 error generated.", "a.cl"),
            "In file included from inc/h.h:4:\n1 error generated.");
}

TEST(OpenclProgram, ParameterSizesFromTypeNames) {
  EXPECT_EQ(type_size("float"), 4u);
  EXPECT_EQ(type_size("uchar"), 1u);
  EXPECT_EQ(type_size("half"), 2u);
  EXPECT_EQ(type_size("double2"), 16u);
  EXPECT_EQ(type_size("float3"), 16u); // a 3-vector is laid out as a 4
  EXPECT_EQ(type_size("int16"), 64u);
  EXPECT_EQ(type_size("ulong"), 8u);
  EXPECT_EQ(type_size("float*"), 8u);
  EXPECT_EQ(type_size("struct Particle"), 0u);
  EXPECT_EQ(type_size("float5"), 0u);
}

} // namespace
} // namespace gpurun::opencl
