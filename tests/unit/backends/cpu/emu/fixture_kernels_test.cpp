// The NVRTC fixtures in tests/data/ptx run to the results a GPU gives (host references).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "support/test_support.hpp"
#include "unit/backends/cpu/emu/emu_harness.hpp"

namespace gpurun::test {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(source_dir() / "tests/data/ptx" / name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ContextOptions two_workers() {
  ContextOptions o;
  o.settings.host_threads = 2;
  o.settings.memcheck = true;
  return o;
}

TEST(FixtureKernels, TiledMatmulMatchesTheHostProduct) {
  EmuHarness h(fixture("matmul_tiled.ptx"), Language::ptx, two_workers());
  const int n = 40; // not a multiple of the tile: exercises the bounds checks in the kernel
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 7) - 3.0f;
    b[i] = static_cast<float>(i % 5) * 0.5f;
  }
  Buffer& ab = h.buffer(a);
  Buffer& bb = h.buffer(b);
  Buffer& cb = h.buffer(std::vector<float>(n * n, 0.0f));
  h.run("matmul_tiled", Dim3{3, 3, 1}, Dim3{16, 16, 1}, ab, bb, cb, n);
  auto c = h.read<float>(cb);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float acc = 0;
      for (int k = 0; k < n; ++k)
        acc = std::fma(a[r * n + k], b[k * n + col], acc);
      ASSERT_EQ(c[r * n + col], acc) << r << "," << col;
    }
}

TEST(FixtureKernels, PaddedTileTranspose) {
  EmuHarness h(fixture("transpose.ptx"), Language::ptx, two_workers());
  const int w = 70, hgt = 33;
  std::vector<float> in(w * hgt);
  for (int i = 0; i < w * hgt; ++i)
    in[i] = static_cast<float>(i);
  Buffer& out = h.buffer(std::vector<float>(w * hgt, -1.0f));
  Buffer& inb = h.buffer(in);
  h.run("transpose", Dim3{3, 2, 1}, Dim3{32, 8, 1}, out, inb, w, hgt);
  auto r = h.read<float>(out);
  for (int y = 0; y < hgt; ++y)
    for (int x = 0; x < w; ++x)
      ASSERT_EQ(r[x * hgt + y], in[y * w + x]) << x << "," << y;
}

TEST(FixtureKernels, GlobalsConstantsLocalArraysAndPointerInitialisers) {
  EmuHarness h(fixture("globals_local.ptx"), Language::ptx, two_workers());
  const int n = 50;
  Buffer& out = h.buffer(std::vector<float>(n, 0.0f));
  h.run("globals_local", Dim3{2, 1, 1}, Dim3{32, 1, 1}, out, n);
  auto r = h.read<float>(out);
  const float coeffs[4] = {1.0f, 0.5f, 0.25f, 0.125f};
  const double table[3] = {1.5, -2.25, 1e300};
  for (int i = 0; i < n; ++i) {
    int pick = i % 16;
    float expect =
        coeffs[pick & 3] * static_cast<float>(i + pick) + static_cast<float>(table[i % 3]);
    EXPECT_EQ(r[i], expect) << i;
  }
  auto counter = h.module().global("counter");
  ASSERT_TRUE(counter.has_value());
  int value = 0;
  h.context().copy_from_symbol(std::as_writable_bytes(std::span(&value, 1)), *counter);
  EXPECT_EQ(value, n - 1); // atomicMax through a pointer stored in a __device__ initialiser
}

TEST(FixtureKernels, NoinlineDeviceFunctionsWithParamPassing) {
  EmuHarness h(fixture("device_funcs.ptx"), Language::ptx, two_workers());
  const int n = 64;
  std::vector<float> data(n);
  for (int i = 0; i < n; ++i)
    data[i] = static_cast<float>(i) * 0.5f;
  Buffer& d = h.buffer(data);
  Buffer& counter = h.buffer(std::vector<int>(1, 0));
  h.run("device_funcs", Dim3{2, 1, 1}, Dim3{32, 1, 1}, d, counter, n);
  auto r = h.read<float>(d);
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(r[i], data[i] * data[i] + 1.0f) << i;
  EXPECT_EQ(h.read<int>(counter)[0], n);
}

} // namespace
} // namespace gpurun::test
