#include "backends/compilers/clang_names.hpp"

#include <gtest/gtest.h>

namespace gpurun {
namespace {

using clang_cuda::demangled_function_name;
using clang_cuda::find_lowered_name;

TEST(ClangNames, InstantiationCodeTakesEachKernelsAddress) {
  EXPECT_EQ(clang_cuda::instantiation_code({}), "");
  const auto code = clang_cuda::instantiation_code({"saxpy<float>", "ns::k<4>"});
  EXPECT_NE(code.find("(void)&saxpy<float>;"), std::string::npos) << code;
  EXPECT_NE(code.find("(void)&ns::k<4>;"), std::string::npos) << code;
  // Diagnostics in the appended code must not be blamed on the user's file.
  EXPECT_NE(code.find("#line 1 \"<gpurun name expressions>\""), std::string::npos) << code;
}

TEST(ClangNames, EntryNamesInOrder) {
  const std::string ptx = ".visible .entry _Z5plainPi(\n.param .u64 p)\n{\n}\n"
                          "\t// .globl\tk\n.visible .entry k(\n)\n{\n}\n"
                          ".visible .func helper(\n)\n{\n}\n";
  EXPECT_EQ(clang_cuda::ptx_entry_names(ptx), (std::vector<std::string>{"_Z5plainPi", "k"}));
}

TEST(ClangNames, DemangledNameDropsReturnTypeAndParameters) {
  EXPECT_EQ(demangled_function_name("_Z5saxpyIfEvT_PKS0_PS0_i"), "saxpy<float>");
  EXPECT_EQ(demangled_function_name("_ZN2ns1kILi4EEEvPi"), "ns::k<4>");
  EXPECT_EQ(demangled_function_name("_Z5plainPi"), "plain");
  EXPECT_EQ(demangled_function_name("_Z1kIiLj3EEvPT_"), "k<int, 3u>");
  EXPECT_FALSE(demangled_function_name("scalar_add"));
  EXPECT_FALSE(demangled_function_name("_Znot_a_name"));
}

TEST(ClangNames, ExactMatchIgnoresSpaces) {
  const std::vector<std::string> entries = {"_Z5saxpyIdEvT_PKS0_PS0_i", "_Z5saxpyIfEvT_PKS0_PS0_i"};
  EXPECT_EQ(find_lowered_name("saxpy<float>", entries), "_Z5saxpyIfEvT_PKS0_PS0_i");
  EXPECT_EQ(find_lowered_name("saxpy< double >", entries), "_Z5saxpyIdEvT_PKS0_PS0_i");
  EXPECT_EQ(find_lowered_name("::saxpy<double>", entries), "_Z5saxpyIdEvT_PKS0_PS0_i");
  EXPECT_FALSE(find_lowered_name("saxpy<int>", entries)) << "two instantiations, neither is it";
}

TEST(ClangNames, OnlyInstantiationCoversOtherSpellings) {
  // k<unsigned> demangles as k<unsigned int>; int64_t as long long.
  EXPECT_EQ(find_lowered_name("k<unsigned>", {"_Z1kIjEvPT_", "scalar_add"}), "_Z1kIjEvPT_");
  EXPECT_EQ(find_lowered_name("k<int64_t>", {"_Z1kIxEvPT_"}), "_Z1kIxEvPT_");
  EXPECT_FALSE(find_lowered_name("other<int>", {"_Z1kIxEvPT_"}));
}

} // namespace
} // namespace gpurun
