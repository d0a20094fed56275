#pragma once
// What the tests of the clang path share: skipping when clang (or libclc) is not installed, and
// compiling with clang onto the CPU backend.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/compilers/clang.hpp"
#include "backends/compilers/clang_locate.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {

#define GPURUN_SKIP_WITHOUT_CLANG()                                                                \
  do {                                                                                             \
    if (!::gpurun::clang_cuda::probe().available)                                                  \
      GTEST_SKIP() << "clang unavailable: " << ::gpurun::clang_cuda::probe().reason;               \
  } while (0)

// The math library comes from libclc's bitcode.
#define GPURUN_SKIP_WITHOUT_LIBCLC()                                                               \
  do {                                                                                             \
    GPURUN_SKIP_WITHOUT_CLANG();                                                                   \
    if (::gpurun::clang_cuda::installation().libclc.empty())                                       \
      GTEST_SKIP() << ::gpurun::clang_cuda::installation().libclc_reason;                          \
  } while (0)

inline CompileOptions clang_options(std::vector<std::string> name_expressions = {}) {
  CompileOptions options;
  options.compiler = "clang";
  options.name_expressions = std::move(name_expressions);
  return options;
}

/// CUDA source compiled by clang and loaded on the CPU backend.
inline EmuHarness clang_harness(const std::string& source,
                                std::vector<std::string> name_expressions = {}) {
  return EmuHarness(source, Language::cuda, ContextOptions{},
                    clang_options(std::move(name_expressions)));
}

} // namespace gpurun::test
