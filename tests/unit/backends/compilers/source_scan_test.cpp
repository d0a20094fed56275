#include "backends/compilers/source_launches.hpp"
#include "backends/compilers/source_scan.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpurun::compilers::scan {
namespace {

std::string roles(const std::string& text) {
  const Structure s = read_structure(text);
  EXPECT_TRUE(s.ok) << s.problem;
  std::string out;
  for (const auto& u : s.units) {
    out += std::string(role_name(u.role)) + ":";
    for (const auto& n : u.names)
      out += n + ",";
    out += ";";
  }
  return out;
}

TEST(SourceScanLex, DirectivesCommentsAndLiteralsAreSingleLexemes) {
  const std::string text = "#define A \\\n  1\nint /* x { */ s = R\"(})\"; // }\n'}';\n";
  const auto l = lex(text);
  ASSERT_GE(l.size(), 5u);
  EXPECT_EQ(l[0].kind, Kind::directive);
  EXPECT_EQ(text_of(text, l[0]), "#define A \\\n  1");
  EXPECT_EQ(text_of(text, l[1]), "int");
  EXPECT_EQ(l[1].line, 3);
  EXPECT_EQ(text_of(text, l[4]), "R\"(})\"");
  EXPECT_EQ(l[4].kind, Kind::literal);
  EXPECT_EQ(l[6].kind, Kind::literal); // '}'
  EXPECT_EQ(l[6].line, 4);
}

TEST(SourceScanStructure, ClassifiesHostAndDeviceDeclarations) {
  EXPECT_EQ(roles("__global__ void k(float* x) { x[0] = 1; }\n"
                  "void host(int n) { k<<<1, 1>>>(nullptr); }\n"
                  "int main() { return 0; }\n"
                  "__device__ float dev(float v) { return v; }\n"
                  "__constant__ float table[4];\n"
                  "int counter = 0;\n"
                  "const int N = 4;\n"
                  "struct P { float a; };\n"
                  "typedef float (*fn_t)(float);\n"
                  "using real = float;\n"),
            "kernel:k,;host function:host,;host function:main,;device function:dev,;"
            "device variable:table,;host variable:counter,;declaration:N,;declaration:P,;"
            "declaration:fn_t,;declaration:real,;");
}

TEST(SourceScanStructure, QualifiersThroughMacrosTemplatesAndAttributes) {
  EXPECT_EQ(roles("#define HD __host__ __device__\n"
                  "template <typename T, int N = sizeof(T)> HD T twice(T v) { return v * 2; }\n"
                  "template <class T> __global__ void __launch_bounds__(256) k(T* p) {}\n"
                  "template __global__ void k<float>(float*);\n"
                  "template <> __device__ float twice<float>(float v) { return v; }\n"),
            "device function:twice,;kernel:k,;kernel:k,;device function:twice,;");
}

TEST(SourceScanStructure, NamespacesAndExternBlocksAreOpened) {
  const Structure s = read_structure("namespace a { namespace b {\n"
                                     "__global__ void k() {}\n} }\n"
                                     "extern \"C\" { __global__ void c(int n) {} void h(); }\n"
                                     "namespace cg = cooperative_groups;\n");
  ASSERT_TRUE(s.ok) << s.problem;
  ASSERT_EQ(s.units.size(), 4u);
  EXPECT_EQ(s.units[0].names.front(), "k");
  EXPECT_EQ(s.units[1].names.front(), "c");
  EXPECT_EQ(s.units[2].role, Role::host_function);
  EXPECT_EQ(s.units[3].names.front(), "cg");
  EXPECT_TRUE(s.namespaces.contains("a"));
  EXPECT_TRUE(s.namespaces.contains("b"));
}

TEST(SourceScanStructure, ClassBodiesInitializersAndConstructorsEndWhereTheyShould) {
  EXPECT_EQ(roles("struct S { __device__ int f() { return 1; } } s;\n"
                  "enum Color { RED, GREEN = 2 };\n"
                  "int table[] = {1, 2, 3};\n"
                  "Foo::Foo() : a(1), b{2} { run(); }\n"
                  "auto lambda = [](int x) { return x; };\n"
                  "struct __align__(16) V { float x; };\n"),
            "declaration:S,s,;declaration:Color,RED,GREEN,;host variable:table,;"
            "host function:Foo,;host variable:lambda,;declaration:V,;");
}

TEST(SourceScanStructure, OutOfLineMembersAttachToTheirClass) {
  const Structure s = read_structure("__device__ float Acc::get() const { return v; }\n");
  ASSERT_EQ(s.units.size(), 1u);
  EXPECT_EQ(s.units[0].role, Role::device_function);
  ASSERT_EQ(s.units[0].attached.size(), 1u);
  EXPECT_EQ(s.units[0].attached[0], "Acc");
}

TEST(SourceScanStructure, AnExtendedLambdaInAHostFunctionDoesNotMakeItDevice) {
  EXPECT_EQ(roles("void run() { auto f = [=] __device__ (int i) { return i; }; }\n"),
            "host function:run,;");
}

TEST(SourceScanStructure, MacroInvocationsAtNamespaceScopeAreUnitsOfTheirOwn) {
  const Structure s = read_structure("#define DEFINE(name) __global__ void name(float* x) {}\n"
                                     "DEFINE(scale)\n"
                                     "void host() {}\n");
  ASSERT_TRUE(s.ok);
  ASSERT_EQ(s.units.size(), 2u);
  EXPECT_EQ(s.units[0].role, Role::macro_call);
  EXPECT_TRUE(s.units[0].mentions.contains("__global__")); // the macro's body, expanded
  EXPECT_EQ(s.units[1].role, Role::host_function);
}

TEST(SourceScanStructure, UnbalancedBracesAreReportedNotGuessed) {
  const Structure s = read_structure("#ifdef A\nvoid f(int x) {\n#else\nvoid f(float x) {\n"
                                     "#endif\n}\n");
  EXPECT_FALSE(s.ok);
  EXPECT_NE(s.problem.find("line"), std::string::npos);
}

TEST(SourceScanLaunches, FindsTripleChevronLaunchesWithTheirCaller) {
  const auto launches = find_launches("__global__ void k(float* x, int n) {}\n"
                                      "void run(float* d, int n) {\n"
                                      "  k<<<(n + 255) / 256, dim3(256, 1), 0, stream>>>(d, n);\n"
                                      "  ns::t<float, 4><<<1, 32>>>(d);\n"
                                      "}\n");
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].kernel, "k");
  EXPECT_EQ(launches[0].caller, "run");
  ASSERT_EQ(launches[0].config.size(), 4u);
  EXPECT_EQ(launches[0].config[0], "(n + 255) / 256");
  EXPECT_EQ(launches[0].config[1], "dim3(256, 1)");
  EXPECT_EQ(launches[0].arguments, "d, n");
  EXPECT_EQ(launches[0].line, 3);
  EXPECT_EQ(launches[1].kernel, "ns::t<float, 4>");
  const auto wrapped = find_launches("void f() { k<<<g,\n    b>>>(a,\n         c); }\n");
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_EQ(wrapped[0].config[1], "b");
  EXPECT_EQ(wrapped[0].arguments, "a, c"); // a line break in the list is one space
  EXPECT_EQ(launches[1].config.size(), 2u);
}

} // namespace
} // namespace gpurun::compilers::scan
