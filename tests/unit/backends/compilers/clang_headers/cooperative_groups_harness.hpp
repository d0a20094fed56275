#pragma once
// What the cooperative-groups tests share: output buffers as bytes, the GPU's orders of operations
// for reductions and scans computed on the host, and running one kernel under clang and NVRTC.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "backends/compilers/nvrtc.hpp"
#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test::coop {

using Bytes = std::vector<std::uint8_t>;
/// Runs a kernel in a harness and returns its output buffers.
using Runner = std::vector<Bytes> (*)(EmuHarness&);

template <class T> std::vector<T> decode(const Bytes& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

inline std::uint32_t bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}

// Each lane combines op(its value, the value `offset` lanes across), offset width/2 … 1.
template <class T, class Op> std::vector<T> butterfly(std::vector<T> v, unsigned width, Op op) {
  for (unsigned offset = width / 2; offset > 0; offset /= 2) {
    std::vector<T> next(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      next[i] = op(v[i], v[i ^ offset]);
    v = next;
  }
  return v;
}

// Over consecutive groups of `width`: op(its value, the value `offset` ranks below), offset 1, 2 …
template <class T, class Op> std::vector<T> scan(std::vector<T> v, unsigned width, Op op) {
  for (unsigned offset = 1; offset < width; offset *= 2) {
    std::vector<T> next = v;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (i % width >= offset)
        next[i] = op(v[i], v[i - offset]);
    v = next;
  }
  return v;
}

// The GPU's arithmetic gives the one NaN 0x7fffffff; its selects pass a NaN on unchanged.
inline float gpu_nan(float f) {
  return f != f ? std::bit_cast<float>(0x7fffffffu) : f;
}
inline const auto fplus = [](float a, float b) { return gpu_nan(a + b); };
inline const auto fless = [](float a, float b) { return b < a ? b : a; };
inline const auto fgreater = [](float a, float b) { return a < b ? b : a; };

/// The same kernel compiled by clang (gpurun's layer) and by NVRTC (CUDA's headers): every output
/// buffer must have the same bits.
inline void expect_nvrtcs_bits(const char* source, Runner run, const std::string& name) {
  CompileOptions nvrtc_options;
  nvrtc_options.compiler = "nvrtc";
  EmuHarness clang = clang_harness(source);
  EmuHarness nvrtc(source, Language::cuda, ContextOptions{}, nvrtc_options);
  const auto ours = run(clang);
  const auto theirs = run(nvrtc);
  ASSERT_EQ(ours.size(), theirs.size()) << name;
  for (std::size_t b = 0; b < ours.size(); ++b)
    EXPECT_TRUE(ours[b] == theirs[b]) << name << ": buffer " << b << " differs";
}

#define GPURUN_SKIP_WITHOUT_NVRTC()                                                                \
  do {                                                                                             \
    if (!::gpurun::nvrtc::probe().available)                                                       \
      GTEST_SKIP() << "NVRTC unavailable: " << ::gpurun::nvrtc::probe().reason;                    \
  } while (0)

} // namespace gpurun::test::coop
