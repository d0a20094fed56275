#include "pipeline/bind.hpp"

#include <cstring>

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

KernelSignature kernel(std::string_view source) {
  auto ks = find_kernels(source);
  EXPECT_EQ(ks.size(), 1u);
  return ks.at(0);
}

std::vector<ArgSpec> specs(const std::vector<std::string>& texts) {
  std::vector<ArgSpec> out;
  for (const auto& t : texts)
    out.push_back(parse_arg_spec(t));
  return out;
}

std::string bind_error(const KernelSignature& k, const std::vector<std::string>& args) {
  try {
    (void)bind_args(k, specs(args));
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

const KernelSignature k_scalar_add =
    kernel("extern \"C\" __global__ void scalar_add(float* vector, int size, float scalar) {}");

TEST(Bind, SeedArgumentsBindInOrderWithTypesFromTheSignature) {
  auto bound = bind_args(k_scalar_add, specs({"vector=f32[20]:iota", "size=20", "scalar=20.0"}));
  ASSERT_EQ(bound.size(), 3u);
  EXPECT_EQ(bound[0].name, "vector");
  EXPECT_EQ(bound[0].param, &k_scalar_add.params[0]);
  EXPECT_FALSE(bound[0].is_input) << "float* is an output";
  EXPECT_EQ(bound[1].scalar_type, DType::i32);
  ASSERT_EQ(bound[1].scalar_bytes.size(), 4u);
  std::int32_t size = 0;
  std::memcpy(&size, bound[1].scalar_bytes.data(), 4);
  EXPECT_EQ(size, 20);
  EXPECT_EQ(bound[2].scalar_type, DType::f32);
  float scalar = 0;
  std::memcpy(&scalar, bound[2].scalar_bytes.data(), 4);
  EXPECT_EQ(scalar, 20.0f);
}

TEST(Bind, UnnamedArgumentsTakeTheParameterNames) {
  auto bound = bind_args(k_scalar_add, specs({"f32[4]:ones", "4", "1.5"}));
  EXPECT_EQ(bound[0].name, "vector");
  EXPECT_EQ(bound[1].name, "size");
  EXPECT_EQ(bound[2].name, "scalar");
}

TEST(Bind, WrongArgumentCount) {
  EXPECT_EQ(bind_error(k_scalar_add, {"vector=f32[20]:iota", "size=20"}),
            "kernel scalar_add takes 3 arguments (vector, size, scalar); got 2");
  auto none = kernel("__global__ void k() {}");
  EXPECT_EQ(bind_error(none, {"1"}), "kernel k takes 0 arguments; got 1");
}

TEST(Bind, BufferElementTypeMustMatchThePointee) {
  EXPECT_EQ(bind_error(k_scalar_add, {"vector=f64[20]:iota", "size=20", "scalar=20.0"}),
            "--arg vector: f64 buffer for parameter 'float* vector'");
}

TEST(Bind, BufferForAScalarAndScalarForAPointer) {
  std::string e1 = bind_error(k_scalar_add, {"vector=f32[20]", "size=i32[1]", "scalar=2"});
  EXPECT_NE(e1.find("--arg size: a buffer for parameter 'int size'"), std::string::npos) << e1;
  std::string e2 = bind_error(k_scalar_add, {"vector=20", "size=20", "scalar=2"});
  EXPECT_NE(e2.find("--arg vector: a scalar for parameter 'float* vector'"), std::string::npos)
      << e2;
}

TEST(Bind, ExplicitScalarTypeMustHaveTheParameterWidthAndKind) {
  EXPECT_EQ(bind_error(k_scalar_add, {"f32[2]", "size=i64:20", "2"}),
            "--arg size: i64 scalar (8 bytes) for parameter 'int size' (4 bytes)");
  EXPECT_EQ(bind_error(k_scalar_add, {"f32[2]", "size=f32:20", "2"}),
            "--arg size: f32 scalar for parameter 'int size'");
  // Same width, other signedness: allowed (the bits are what the kernel reads).
  auto bound = bind_args(k_scalar_add, specs({"f32[2]", "size=u32:20", "2"}));
  EXPECT_EQ(bound[1].scalar_type, DType::u32);
}

TEST(Bind, OutOfRangeScalarIsRejectedBeforeAllocation) {
  auto k = kernel("__global__ void k(unsigned char c) {}");
  EXPECT_THROW((void)bind_args(k, specs({"300"})), Error);
}

TEST(Bind, ConstPointersAreInputs) {
  auto k = kernel("__global__ void add(const float* a, const float* __restrict__ b, float* c, "
                  "int n) {}");
  auto bound = bind_args(k, specs({"f32[4]:iota", "f32[4]:ones", "f32[4]", "4"}));
  EXPECT_TRUE(bound[0].is_input);
  EXPECT_TRUE(bound[1].is_input);
  EXPECT_FALSE(bound[2].is_input);
  EXPECT_FALSE(bound[3].is_input);
}

TEST(Bind, VoidAndCharPointersAcceptAnyBuffer) {
  auto k = kernel("__global__ void k(void* raw, char* bytes, const unsigned char* u, int* i) {}");
  EXPECT_NO_THROW((void)bind_args(k, specs({"f64[3]", "f32[8]", "u16[2]", "i32[1]"})));
  std::string e = bind_error(k, {"f64[3]", "f32[8]", "u16[2]", "u32[1]"});
  EXPECT_EQ(e, "--arg i: u32 buffer for parameter 'int* i'");
}

TEST(Bind, VectorPointeeNeedsAMultipleOfTheWidth) {
  auto k = kernel("__global__ void k(float4* v) {}");
  EXPECT_NO_THROW((void)bind_args(k, specs({"f32[16]"})));
  EXPECT_EQ(bind_error(k, {"f32[6]"}),
            "--arg v: 6 elements for parameter 'float4* v', which needs a multiple of 4");
}

TEST(Bind, AllNamedArgumentsBindByNameInAnyOrder) {
  auto bound = bind_args(k_scalar_add, specs({"scalar=2.5", "vector=f32[4]:iota", "size=4"}));
  EXPECT_EQ(bound[0].name, "vector");
  EXPECT_EQ(bound[0].spec.kind, ArgSpec::Kind::buffer);
  EXPECT_EQ(bound[1].name, "size");
  EXPECT_EQ(bound[1].scalar_type, DType::i32);
  EXPECT_EQ(bound[2].name, "scalar");
  EXPECT_EQ(bound[2].index, 2u);
  EXPECT_EQ(bound[2].scalar_type, DType::f32);
}

TEST(Bind, NamesMustMatchWhenNotAllAreNamed) {
  std::string e = bind_error(k_scalar_add, {"f32[4]", "scalar=2.5", "4"});
  EXPECT_NE(e.find("argument 2 binds to parameter 'int size'"), std::string::npos) << e;
  std::string unknown = bind_error(k_scalar_add, {"vector=f32[4]", "sise=4", "scalar=1"});
  EXPECT_NE(unknown.find("kernel scalar_add has no parameter 'sise' (parameters: vector, size, "
                         "scalar)"),
            std::string::npos)
      << unknown;
  std::string twice = bind_error(k_scalar_add, {"size=4", "vector=f32[4]", "size=5"});
  EXPECT_NE(twice.find("parameter 'size' is given twice"), std::string::npos) << twice;
}

TEST(Bind, TemplateKernelAfterInstantiation) {
  auto k = instantiate(kernel("template <typename T> __global__ void saxpy(T a, const T* x, T* y, "
                              "int n) {}"),
                       "saxpy<double>");
  auto bound = bind_args(k, specs({"a=2.0", "x=f64[8]:iota", "y=f64[8]:ones", "n=8"}));
  EXPECT_EQ(bound[0].scalar_type, DType::f64);
  EXPECT_EQ(bound[0].scalar_bytes.size(), 8u);
  EXPECT_TRUE(bound[1].is_input);
  EXPECT_EQ(bind_error(k, {"a=2.0", "x=f32[8]:iota", "y=f64[8]", "n=8"}),
            "--arg x: f32 buffer for parameter 'const double* x'");
}

TEST(Bind, PtxSignatureNamesAreLabelsAndWideParamsTakeBuffersOrIntegers) {
  auto ks = find_ptx_kernels(".visible .entry scalar_add(.param .u64 scalar_add_param_0, "
                             ".param .u32 scalar_add_param_1, .param .f32 scalar_add_param_2) "
                             "{ ret; }");
  ASSERT_EQ(ks.size(), 1u);
  auto bound = bind_args(ks[0], specs({"vector=f32[20]:iota", "size=20", "scalar=20.0"}));
  EXPECT_EQ(bound[0].name, "vector");
  EXPECT_EQ(bound[1].scalar_type, DType::u32);
  EXPECT_EQ(bound[2].scalar_type, DType::f32);
  auto as_integer = bind_args(ks[0], specs({"u64:4096", "20", "1"}));
  EXPECT_EQ(as_integer[0].scalar_type, DType::u64);
  EXPECT_EQ(as_integer[0].name, "scalar_add_param_0");
}

TEST(Bind, PtxPtrParametersTakeAnyBufferButNoScalar) {
  auto ks = find_ptx_kernels(".visible .entry k(.param .u64 .ptr .global .align 4 k_param_0) "
                             "{ ret; }");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(bind_args(ks[0], specs({"x=f32[4]"}))[0].name, "x");
  EXPECT_EQ(bind_args(ks[0], specs({"x=i8[4]"}))[0].name, "x");
  EXPECT_NE(bind_error(ks[0], {"u64:7"}).find("which takes a buffer"), std::string::npos);
}

TEST(Bind, StructParametersNeedAnExplicitType) {
  auto k = kernel("__global__ void k(Params p) {}");
  std::string e = bind_error(k, {"7"});
  EXPECT_NE(e.find("parameter 'Params p' has a type gpurun cannot fill"), std::string::npos) << e;
  auto bound = bind_args(k, specs({"u64:7"}));
  EXPECT_EQ(bound[0].scalar_type, DType::u64);
}

TEST(Bind, APointerGoesToAPointerParameterOrAPtx64BitOne) {
  const auto bound = bind_args(k_scalar_add, specs({"&pool+16", "size=4", "{f32:2}"}));
  EXPECT_EQ(bound[0].spec.kind, ArgSpec::Kind::pointer);
  EXPECT_EQ(bound[0].name, "vector");
  EXPECT_EQ(bind_error(k_scalar_add, {"vector=f32[4]", "size=&pool", "scalar=1"}),
            "--arg size: a pointer (&…) for parameter 'int size', which takes a number");
  const auto ptx = find_ptx_kernels(".visible .entry k(.param .u64 k_param_0, .param .u32 "
                                    "k_param_1)\n{\nret;\n}\n");
  EXPECT_NO_THROW((void)bind_args(ptx.at(0), specs({"&a0+8", "u32:3"})));
}

TEST(Bind, ARecordMustHaveTheParameterSize) {
  const KernelSignature k = kernel("struct V { float* d; int n; };\n"
                                   "__global__ void k(float scale, double both) {}");
  EXPECT_NO_THROW((void)bind_args(k, specs({"{u32:0x3f800000}", "{i32:1, i32:2}"})));
  EXPECT_EQ(bind_error(k, {"{u8:1}", "both=1"}),
            "--arg scale: a record of 1 bytes for parameter 'float scale' (4 bytes)");
}


TEST(Bind, LocalMemoryGoesToOpenclLocalPointersOnly) {
  const auto ks = find_opencl_kernels(
      "__kernel void r(__global const float* in, __local float* partial, uint n) {}");
  ASSERT_EQ(ks.size(), 1u);
  auto bound = bind_args(ks[0], specs({"in=f32[8]:ones", "partial=local:f32[64]", "n=8"}));
  EXPECT_EQ(bound[1].spec.kind, ArgSpec::Kind::local);
  EXPECT_EQ(bound[1].spec.local_bytes, 256u);
  EXPECT_TRUE(bound[0].is_input);
  EXPECT_NE(bind_error(ks[0], {"in=f32[8]:ones", "partial=f32[64]", "n=8"})
                .find("parameter '__local float* partial' takes a size of local memory"),
            std::string::npos);
  EXPECT_NE(bind_error(ks[0], {"in=local:64", "partial=local:64", "n=8"})
                .find("only an OpenCL __local pointer parameter takes it"),
            std::string::npos);
  EXPECT_NE(bind_error(k_scalar_add, {"vector=local:80", "size=20", "scalar=1"}).find("local"),
            std::string::npos);
}

} // namespace
} // namespace gpurun
