#include "pipeline/signature.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace gpurun {
namespace {

KernelSignature only_kernel(std::string_view source) {
  auto kernels = find_kernels(source);
  EXPECT_EQ(kernels.size(), 1u) << source;
  return kernels.empty() ? KernelSignature{} : kernels.front();
}

struct Expected {
  std::string name;
  std::string c_type;
  bool is_pointer;
  bool is_const;
  std::optional<DType> element;
  std::size_t scalar_size;
  int vector_width = 1;
};

void expect_params(const KernelSignature& k, const std::vector<Expected>& expected) {
  ASSERT_EQ(k.params.size(), expected.size()) << k.name;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(k.name + " parameter " + std::to_string(i));
    const KernelParam& p = k.params[i];
    const Expected& e = expected[i];
    EXPECT_EQ(p.name, e.name);
    EXPECT_EQ(p.type.c_type, e.c_type);
    EXPECT_EQ(p.type.is_pointer, e.is_pointer);
    EXPECT_EQ(p.type.is_const, e.is_const);
    EXPECT_EQ(p.type.element, e.element);
    EXPECT_EQ(p.type.scalar_size, e.scalar_size);
    EXPECT_EQ(p.type.vector_width, e.vector_width);
  }
}

TEST(Signature, SeedScalarAdd) {
  auto k = only_kernel(R"(// The seed program's kernel
extern "C" __global__ void scalar_add(float* vector, int size, float scalar) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size) { vector[idx] += scalar; }
})");
  EXPECT_EQ(k.name, "scalar_add");
  EXPECT_TRUE(k.extern_c);
  EXPECT_FALSE(k.is_template);
  EXPECT_EQ(k.line, 2);
  expect_params(k, {{"vector", "float*", true, false, DType::f32, 4},
                    {"size", "int", false, false, DType::i32, 4},
                    {"scalar", "float", false, false, DType::f32, 4}});
}

TEST(Signature, CppLinkageIsNotExternC) {
  auto k = only_kernel("__global__ void k(double* d) {}");
  EXPECT_FALSE(k.extern_c);
  expect_params(k, {{"d", "double*", true, false, DType::f64, 8}});
}

TEST(Signature, ExternCBlock) {
  auto kernels = find_kernels(R"(
extern "C" {
__global__ void a(int* x) {}
__global__ void b(unsigned* y) {}
}
__global__ void c(char* z) {}
)");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_TRUE(kernels[0].extern_c);
  EXPECT_TRUE(kernels[1].extern_c);
  EXPECT_FALSE(kernels[2].extern_c);
  expect_params(kernels[1], {{"y", "unsigned*", true, false, DType::u32, 4}});
  expect_params(kernels[2], {{"z", "char*", true, false, DType::i8, 1}});
}

TEST(Signature, TemplateWithLaunchBoundsBetweenReturnTypeAndName) {
  auto k = only_kernel(R"(
template <typename T>
__global__ void __launch_bounds__(256) saxpy(T a, const T* __restrict__ x, T* __restrict__ y,
                                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
})");
  EXPECT_EQ(k.name, "saxpy");
  EXPECT_TRUE(k.is_template);
  EXPECT_EQ(k.template_params, std::vector<std::string>{"T"});
  EXPECT_EQ(k.line, 3);
  expect_params(k, {{"a", "T", false, false, std::nullopt, 0},
                    {"x", "const T*", true, true, std::nullopt, 0},
                    {"y", "T*", true, false, std::nullopt, 0},
                    {"n", "int", false, false, DType::i32, 4}});
}

TEST(Signature, InstantiateSubstitutesTemplateArguments) {
  auto k =
      only_kernel("template <typename T> __global__ void saxpy(T a, const T* x, T* y, int n) {}");
  auto f = instantiate(k, "saxpy<float>");
  expect_params(f, {{"a", "float", false, false, DType::f32, 4},
                    {"x", "const float*", true, true, DType::f32, 4},
                    {"y", "float*", true, false, DType::f32, 4},
                    {"n", "int", false, false, DType::i32, 4}});
  auto d = instantiate(k, "saxpy< unsigned long long >");
  expect_params(d, {{"a", "unsigned long long", false, false, DType::u64, 8},
                    {"x", "const unsigned long long*", true, true, DType::u64, 8},
                    {"y", "unsigned long long*", true, false, DType::u64, 8},
                    {"n", "int", false, false, DType::i32, 4}});
}

TEST(Signature, InstantiateArityErrors) {
  auto k = only_kernel("template <typename T, int N> __global__ void k(T* p) {}");
  EXPECT_EQ(k.template_params, (std::vector<std::string>{"T", "N"}));
  try {
    (void)instantiate(k, "k<float>");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()),
              "--kernel 'k<float>': kernel k takes 2 template arguments (T, N); got 1");
  }
  EXPECT_THROW((void)instantiate(k, "k<float, 4, 5>"), Error);
  auto ok = instantiate(k, "k<__half, 4>");
  expect_params(ok, {{"p", "__half*", true, false, DType::f16, 2}});

  auto plain = only_kernel("__global__ void plain(int* p) {}");
  EXPECT_THROW((void)instantiate(plain, "plain<int>"), Error);
  EXPECT_EQ(instantiate(plain, "plain").params.size(), 1u);
}

TEST(Signature, TemplateDefaultsFillMissingArguments) {
  auto k = only_kernel(
      "template <typename T = float, int BLOCK = 128> __global__ void k(T* p, int n) {}");
  EXPECT_EQ(k.template_defaults, (std::vector<std::string>{"float", "128"}));
  auto f = instantiate(k, "k<>");
  expect_params(
      f, {{"p", "float*", true, false, DType::f32, 4}, {"n", "int", false, false, DType::i32, 4}});
  auto d = instantiate(k, "k<double>");
  EXPECT_EQ(d.params[0].type.element, DType::f64);
}

TEST(Signature, RestrictSpellingsAndConstPointer) {
  auto k = only_kernel("__global__ void k(const float* __restrict__ const a, float* __restrict b, "
                       "int* restrict c, float const* d) {}");
  expect_params(k, {{"a", "const float*", true, true, DType::f32, 4},
                    {"b", "float*", true, false, DType::f32, 4},
                    {"c", "int*", true, false, DType::i32, 4},
                    {"d", "const float*", true, true, DType::f32, 4}});
}

TEST(Signature, IntegerSpellings) {
  auto k = only_kernel("__global__ void k(unsigned long long a, long long b, unsigned c, "
                       "short d, unsigned short e, signed char f, unsigned char g, long h, "
                       "unsigned long int i, long long int j, signed k2) {}");
  expect_params(k, {{"a", "unsigned long long", false, false, DType::u64, 8},
                    {"b", "long long", false, false, DType::i64, 8},
                    {"c", "unsigned", false, false, DType::u32, 4},
                    {"d", "short", false, false, DType::i16, 2},
                    {"e", "unsigned short", false, false, DType::u16, 2},
                    {"f", "signed char", false, false, DType::i8, 1},
                    {"g", "unsigned char", false, false, DType::u8, 1},
                    {"h", "long", false, false, DType::i64, 8},
                    {"i", "unsigned long int", false, false, DType::u64, 8},
                    {"j", "long long int", false, false, DType::i64, 8},
                    {"k2", "signed", false, false, DType::i32, 4}});
}

TEST(Signature, FixedWidthAndLibraryTypes) {
  auto k = only_kernel("__global__ void k(size_t n, int64_t a, uint8_t* b, std::size_t c, "
                       "const uint16_t* d, int32_t e, uint64_t f, bool g, ptrdiff_t h) {}");
  expect_params(k, {{"n", "size_t", false, false, DType::u64, 8},
                    {"a", "int64_t", false, false, DType::i64, 8},
                    {"b", "uint8_t*", true, false, DType::u8, 1},
                    {"c", "std::size_t", false, false, DType::u64, 8},
                    {"d", "const uint16_t*", true, true, DType::u16, 2},
                    {"e", "int32_t", false, false, DType::i32, 4},
                    {"f", "uint64_t", false, false, DType::u64, 8},
                    {"g", "bool", false, false, DType::u8, 1},
                    {"h", "ptrdiff_t", false, false, DType::i64, 8}});
}

TEST(Signature, HalfBfloatAndVectorTypes) {
  auto k = only_kernel("__global__ void k(__half* h, const __nv_bfloat16* b, float4* v, "
                       "const int2* i2, double2 d2, __half2* h2, uchar4* u4, float3 f3) {}");
  expect_params(k, {{"h", "__half*", true, false, DType::f16, 2},
                    {"b", "const __nv_bfloat16*", true, true, DType::bf16, 2},
                    {"v", "float4*", true, false, DType::f32, 16, 4},
                    {"i2", "const int2*", true, true, DType::i32, 8, 2},
                    {"d2", "double2", false, false, DType::f64, 16, 2},
                    {"h2", "__half2*", true, false, DType::f16, 4, 2},
                    {"u4", "uchar4*", true, false, DType::u8, 4, 4},
                    {"f3", "float3", false, false, DType::f32, 12, 3}});
}

TEST(Signature, UnnamedParametersAreNumbered) {
  auto k = only_kernel("__global__ void k(float*, int, const double* __restrict__, unsigned "
                       "long) {}");
  expect_params(k, {{"p0", "float*", true, false, DType::f32, 4},
                    {"p1", "int", false, false, DType::i32, 4},
                    {"p2", "const double*", true, true, DType::f64, 8},
                    {"p3", "unsigned long", false, false, DType::u64, 8}});
}

TEST(Signature, DefaultArgumentsAreDropped) {
  auto k = only_kernel("__global__ void k(float* x, int n = 16, float s = max(1.0f, 2.0f)) {}");
  expect_params(k, {{"x", "float*", true, false, DType::f32, 4},
                    {"n", "int", false, false, DType::i32, 4},
                    {"s", "float", false, false, DType::f32, 4}});
}

TEST(Signature, MultilineDeclarationWithComments) {
  auto k = only_kernel(R"src(/* a block comment with __global__ void fake(int) inside */
// __global__ void also_fake(int);
static __global__
void
  multi(   // first
    const float *in,   /* the input */
    float
      *out,
    int n)
{
  const char* s = "__global__ void in_string(int)";
})src");
  EXPECT_EQ(k.name, "multi");
  EXPECT_EQ(k.line, 5);
  expect_params(k, {{"in", "const float*", true, true, DType::f32, 4},
                    {"out", "float*", true, false, DType::f32, 4},
                    {"n", "int", false, false, DType::i32, 4}});
}

TEST(Signature, LaunchBoundsWithTwoArgumentsBeforeReturnType) {
  auto k = only_kernel("__global__ __launch_bounds__(256, 2) void lb(int* out) {}");
  EXPECT_EQ(k.name, "lb");
  expect_params(k, {{"out", "int*", true, false, DType::i32, 4}});
}

TEST(Signature, VoidParameterListAndEmptyList) {
  auto kernels = find_kernels("__global__ void a(void) {}\n__global__ void b() {}");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_TRUE(kernels[0].params.empty());
  EXPECT_TRUE(kernels[1].params.empty());
}

TEST(Signature, VoidAndCharPointersAndStructs) {
  auto k =
      only_kernel("struct Params { int n; };\n"
                  "__global__ void k(void* raw, const void* in, Params p, struct Params* q) {}");
  expect_params(k, {{"raw", "void*", true, false, std::nullopt, 0},
                    {"in", "const void*", true, true, std::nullopt, 0},
                    {"p", "Params", false, false, std::nullopt, 0},
                    {"q", "Params*", true, false, std::nullopt, 0}});
}

TEST(Signature, ArrayParametersArePointers) {
  auto k = only_kernel("__global__ void k(float data[], const int idx[16]) {}");
  expect_params(k, {{"data", "float*", true, false, DType::f32, 4},
                    {"idx", "const int*", true, true, DType::i32, 4}});
}

TEST(Signature, DeclarationThenDefinitionIsOneKernel) {
  auto kernels = find_kernels("extern \"C\" __global__ void k(float*, int);\n"
                              "__global__ void other(int q) {}\n"
                              "extern \"C\" __global__ void k(float* data, int n) { }\n");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "k");
  EXPECT_TRUE(kernels[0].extern_c);
  expect_params(kernels[0], {{"data", "float*", true, false, DType::f32, 4},
                             {"n", "int", false, false, DType::i32, 4}});
  EXPECT_EQ(kernels[1].name, "other");
}

TEST(Signature, DeviceFunctionsAndExplicitInstantiationsAreNotKernels) {
  auto kernels = find_kernels(R"(
__device__ float helper(float x) { return x * 2; }
template <typename T> __global__ void fill(T* p, T v) { p[0] = helper(v); }
template __global__ void fill<float>(float*, float);
__host__ __device__ int both(int a) { return a; }
)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "fill");
}

TEST(Signature, ReferenceParameterIsAUsageError) {
  try {
    (void)find_kernels("__global__ void k(float* p, int& n) {}");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    std::string msg = e.what();
    EXPECT_NE(msg.find("kernel k"), std::string::npos) << msg;
    EXPECT_NE(msg.find("int&n"), std::string::npos) << msg;
  }
}

TEST(Signature, MacroKernelsAreNotFoundButDoNotCrash) {
  auto kernels = find_kernels("#define KERNEL __global__ \\\n  void\nKERNEL k(int* p) {}\n"
                              "__global__ void visible(int* p) {}");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "visible");
  EXPECT_EQ(kernels[0].line, 4);
}

TEST(Signature, MalformedInputDoesNotCrash) {
  for (const char* text : {"__global__", "__global__ void", "__global__ void k(", "__global__ (",
                           "/* unterminated", "\"unterminated", "__global__ void k(int a,,) {",
                           "template < __global__ void k(T* p)", "__global__ void k<<<>>>(int)",
                           "__global__ void k(void (*f)(int), int n) {}", "}}}}{{{ __global__"}) {
    EXPECT_NO_THROW((void)find_kernels(text)) << text;
  }
}

TEST(Signature, TemplateTypeWithCommaInParameter) {
  auto k = only_kernel("template <typename T, int N> struct Arr { T v[N]; };\n"
                       "__global__ void k(Arr<float, 4> a, int* out) {}");
  expect_params(k, {{"a", "Arr<float,4>", false, false, std::nullopt, 0},
                    {"out", "int*", true, false, DType::i32, 4}});
}

TEST(Signature, GridConstantAndVolatile) {
  auto k = only_kernel("__global__ void k(const __grid_constant__ int n, volatile int* flag) {}");
  expect_params(k, {{"n", "const int", false, true, DType::i32, 4},
                    {"flag", "int*", true, false, DType::i32, 4}});
}

TEST(Signature, KernelsInNamespacesAreQualified) {
  auto kernels = find_kernels(R"(
namespace outer {
struct Params { int n; };
namespace inner {
template <typename T> __global__ void k(T* p) {}
}
extern "C" __global__ void plain(int* p) {}
}
namespace {
__global__ void hidden(int* p) {}
}
__global__ void top(int* p) {}
)");
  ASSERT_EQ(kernels.size(), 4u);
  EXPECT_EQ(kernels[0].name, "outer::inner::k");
  EXPECT_EQ(kernels[1].name, "plain") << "extern \"C\" symbols carry no namespace";
  EXPECT_EQ(kernels[2].name, "hidden");
  EXPECT_EQ(kernels[3].name, "top");
  EXPECT_EQ(select_kernel(kernels, "outer::inner::k<float>").name, "outer::inner::k");
  EXPECT_EQ(select_kernel(kernels, "k<float>").name, "outer::inner::k");
}

// Token soup from the declaration vocabulary: the parser must never crash or read out of range,
// and may only fail with a usage Error (reference parameters).
TEST(Signature, RandomTokenSoupNeverCrashes) {
  const std::vector<std::string> vocab = {"__global__", "void",  "k",
                                          "(",          ")",     "{",
                                          "}",          ";",     ",",
                                          "<",          ">",     "template",
                                          "typename",   "T",     "*",
                                          "&",          "const", "extern",
                                          "\"C\"",      "int",   "float",
                                          "unsigned",   "long",  "=",
                                          "[",          "]",     "__launch_bounds__",
                                          "namespace",  "::",    "[[",
                                          "]]",         "/*",    "*/",
                                          "//",         "\n",    "#",
                                          "\"",         "'",     "__restrict__",
                                          "1",          "x"};
  std::uint64_t state = 12345;
  auto next = [&] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::size_t>(state >> 33);
  };
  for (int round = 0; round < 3000; ++round) {
    std::string text;
    const std::size_t n = next() % 40;
    for (std::size_t i = 0; i < n; ++i)
      text += vocab[next() % vocab.size()] + " ";
    try {
      for (const auto& k : find_kernels(text)) {
        (void)instantiate(k, k.name + "<int>");
      }
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::usage) << text;
    }
    (void)find_ptx_kernels(text);
  }
}

TEST(Signature, SelectKernel) {
  auto kernels = find_kernels("__global__ void a(int* p) {}\n"
                              "template <typename T> __global__ void b(T* p) {}");
  EXPECT_EQ(select_kernel(kernels, "a").name, "a");
  EXPECT_EQ(select_kernel(kernels, "b<float>").name, "b");
  try {
    (void)select_kernel(kernels, "c");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "--kernel: no kernel 'c' in the source (kernels: a, b)");
  }
}

TEST(Signature, CheckLayoutAcceptsMatchingSizes) {
  auto k = only_kernel("extern \"C\" __global__ void k(float* v, int n, double s, Params p) {}");
  EXPECT_NO_THROW(check_layout(k, {{0, 8, 8}, {8, 4, 4}, {16, 8, 8}, {24, 32, 8}}));
}

TEST(Signature, CheckLayoutNamesTheMismatchedParameter) {
  auto k = only_kernel("extern \"C\" __global__ void scalar_add(float* vector, int size, float "
                       "scalar) {}");
  try {
    check_layout(k, {{0, 8, 8}, {8, 8, 8}, {16, 4, 4}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::usage);
    EXPECT_EQ(std::string(e.what()), "kernel scalar_add: parameter 1 'int size' is 4 bytes in "
                                     "the source but 8 bytes in the compiled kernel");
  }
  try {
    check_layout(k, {{0, 8, 8}, {8, 4, 4}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "kernel scalar_add: the source declares 3 parameters but "
                                     "the compiled kernel has 2");
  }
}

TEST(Signature, ParseParamTypeAndDescribe) {
  auto t = parse_param_type("const float* __restrict__");
  EXPECT_EQ(t.c_type, "const float*");
  EXPECT_TRUE(t.is_pointer);
  EXPECT_TRUE(t.is_const);
  EXPECT_EQ(t.element, DType::f32);
  EXPECT_EQ(parse_param_type("unsigned long long").element, DType::u64);
  EXPECT_EQ(parse_param_type("float**").scalar_size, 8u);
  EXPECT_EQ(parse_param_type("float**").element, std::nullopt);
  KernelParam p{"vector", parse_param_type("float*")};
  EXPECT_EQ(describe(p), "float* vector");
  KernelParam q{"size", parse_param_type("int")};
  EXPECT_EQ(describe(q), "int size");
}

TEST(Signature, PtxEntries) {
  auto kernels = find_ptx_kernels(R"(
//
// Generated by NVIDIA NVVM Compiler
.version 9.0
.target sm_52
.address_size 64

	// .globl	scalar_add

.visible .entry scalar_add(
	.param .u64 scalar_add_param_0,
	.param .u32 scalar_add_param_1,
	.param .f32 scalar_add_param_2
)
{
	ret;
}
.entry noparams
{
	ret;
}
.visible .entry agg(.param .align 8 .b8 agg_param_0[16], .param .u64 .ptr .global .align 4 agg_param_1)
{ ret; }
)");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "scalar_add");
  EXPECT_TRUE(kernels[0].extern_c);
  ASSERT_EQ(kernels[0].params.size(), 3u);
  EXPECT_EQ(kernels[0].params[0].name, "scalar_add_param_0");
  EXPECT_TRUE(kernels[0].params[0].type.pointer_or_integer);
  EXPECT_EQ(kernels[0].params[0].type.scalar_size, 8u);
  EXPECT_EQ(kernels[0].params[1].type.element, DType::u32);
  EXPECT_FALSE(kernels[0].params[1].type.pointer_or_integer);
  EXPECT_EQ(kernels[0].params[2].type.element, DType::f32);
  EXPECT_EQ(kernels[0].params[2].type.c_type, ".f32");
  EXPECT_EQ(kernels[1].name, "noparams");
  EXPECT_TRUE(kernels[1].params.empty());
  ASSERT_EQ(kernels[2].params.size(), 2u);
  EXPECT_EQ(kernels[2].params[0].type.scalar_size, 16u);
  EXPECT_EQ(kernels[2].params[0].type.element, std::nullopt);
  EXPECT_EQ(kernels[2].params[0].type.c_type, ".b8[16]");
  EXPECT_TRUE(kernels[2].params[1].type.is_pointer);
  // The pointee's type is not in the PTX: a .ptr parameter takes a buffer of any element type.
  EXPECT_EQ(kernels[2].params[1].type.element, std::nullopt);
  EXPECT_EQ(kernels[2].params[1].type.c_type, ".u64");
  EXPECT_EQ(kernels[2].line, 22);
}

TEST(Signature, PtxParameterListThatIsNotPtxIsACompileError) {
  try {
    (void)find_ptx_kernels(".version 8.0\n.entry k(\n.param .u32 a\n.param .u32 b)", "k.ptx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::compile);
    EXPECT_STREQ(e.what(), "k.ptx:4: expected ',' or ')' after a parameter near '.param'");
  }
}


TEST(OpenclSignature, AddressSpacesQualifiersAndBothKeywordSpellings) {
  const auto kernels = find_opencl_kernels(R"(
#define N 4
float helper(__global const float* p) { return p[0]; }
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void first(__global const float* restrict in, global float* out, __constant int* table,
           __local float4* tile, uint n, half h, ulong big) {
  __local float kernel_local[N];
  out[0] = helper(in) + table[0];
}
kernel void second(__global uchar* bytes) {}
)");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "first");
  EXPECT_TRUE(kernels[0].extern_c);
  expect_params(kernels[0], {{"in", "const float*", true, true, DType::f32, 4},
                             {"out", "float*", true, false, DType::f32, 4},
                             {"table", "const int*", true, true, DType::i32, 4},
                             {"tile", "__local float4*", true, false, DType::f32, 16, 4},
                             {"n", "uint", false, false, DType::u32, 4},
                             {"h", "half", false, false, DType::f16, 2},
                             {"big", "ulong", false, false, DType::u64, 8}});
  EXPECT_TRUE(kernels[0].params[3].type.local_memory);
  EXPECT_FALSE(kernels[0].params[0].type.local_memory);
  EXPECT_EQ(kernels[1].name, "second");
  expect_params(kernels[1], {{"bytes", "uchar*", true, false, DType::u8, 1}});
}

TEST(OpenclSignature, CudaSourceHasNoOpenclKernelsAndTheCudaScanKeepsItsNames) {
  // `global` and `local` are ordinary names in CUDA C++.
  EXPECT_TRUE(find_opencl_kernels("__global__ void k(float* local, int global) {}").empty());
  expect_params(only_kernel("__global__ void k(float* local, int global) {}"),
                {{"local", "float*", true, false, DType::f32, 4},
                 {"global", "int", false, false, DType::i32, 4}});
}

TEST(OpenclSignature, FromTheCompiledDeclarations) {
  std::vector<ParamLayout> layout(3);
  layout[0].declaration = "__global const float* in";
  layout[1].declaration = "__local double* scratch";
  layout[2].declaration = "int n";
  const auto sig = opencl_signature("k", layout);
  ASSERT_TRUE(sig.has_value());
  expect_params(*sig, {{"in", "const float*", true, true, DType::f32, 4},
                       {"scratch", "__local double*", true, false, DType::f64, 8},
                       {"n", "int", false, false, DType::i32, 4}});
  EXPECT_TRUE(sig->params[1].type.local_memory);
  layout[2].declaration.clear(); // a platform that does not tell
  EXPECT_FALSE(opencl_signature("k", layout).has_value());
}

TEST(Signature, LayoutOfUnknownSizeIsNotCompared) {
  const auto k = only_kernel("__global__ void k(float* p, int n) {}");
  std::vector<ParamLayout> layout(2);
  layout[0].size = 8;
  EXPECT_NO_THROW(check_layout(k, layout)); // n's size is not told
  layout[1].size = 8;
  EXPECT_THROW(check_layout(k, layout), Error);
}

} // namespace
} // namespace gpurun
