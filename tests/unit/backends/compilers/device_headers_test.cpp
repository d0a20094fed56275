// The headers gpurun carries for device code: the C++ standard ones both compilers get, and the
// C and C++ headers that kernels written for nvcc include, which must compile under NVRTC and
// under clang alike.
#include "backends/compilers/device_headers.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "backends/compilers/compat_headers.hpp"
#include "backends/compilers/nvrtc.hpp"
#include "unit/backends/compilers/clang_harness.hpp"

namespace gpurun::test {
namespace {

std::set<std::string> names(std::span<const compilers::HeaderFile> headers) {
  std::set<std::string> out;
  for (const auto& h : headers) {
    EXPECT_TRUE(out.insert(h.name).second) << "twice: " << h.name;
    EXPECT_GT(std::string(h.text).size(), 10u) << h.name;
  }
  return out;
}

TEST(DeviceHeaders, StandardHeadersAreSharedWithNvrtc) {
  const auto std_names = names(compilers::std_headers());
  EXPECT_EQ(std_names, (std::set<std::string>{"algorithm", "ctime", "limits", "time.h",
                                              "type_traits", "utility"}));
  const auto nvrtc_names = names(nvrtc::compat_headers());
  for (const auto& n : std_names)
    EXPECT_TRUE(nvrtc_names.contains(n)) << n;
  for (const char* n : {"string.h", "cstring", "stdint.h", "cmath", "cuda_runtime.h"})
    EXPECT_TRUE(nvrtc_names.contains(n)) << n;
}

TEST(DeviceHeaders, ClangLayerReplacesWhatDiffersFromNvrtc) {
  const auto layer = names(compilers::clang_layer_headers());
  for (const char* n : {"cuda_runtime.h", "cuda.h", "cuda_fp16.h", "cuda_bf16.h", "vector_types.h",
                        "vector_functions.h", "math_constants.h", "stdio.h", "cstdio", "math.h",
                        "cmath", "string.h", "cstring", "stdlib.h", "cstdlib", "assert.h",
                        "cassert", "device_launch_parameters.h"})
    EXPECT_TRUE(layer.contains(n)) << n;
  // What is not replaced comes from NVRTC's set: the plain declarations valid under both.
  std::set<std::string> shared;
  for (const auto& h : nvrtc::compat_headers())
    if (!layer.contains(h.name))
      shared.insert(h.name);
  EXPECT_EQ(shared, (std::set<std::string>{
                        "algorithm", "cfloat", "climits", "cstddef", "cstdint", "ctime", "float.h",
                        "hip/hip_bf16.h", "hip/hip_bfloat16.h", "hip/hip_fp16.h",
                        "hip/hip_runtime.h", "hip/hip_runtime_api.h", "limits", "limits.h",
                        "stddef.h", "stdint.h", "time.h", "type_traits", "utility"}));
}

// Every standard header a kernel written for nvcc may include for device code, used.
constexpr const char* every_header = R"(
#include <string.h>
#include <cstring>
#include <stdio.h>
#include <cstdio>
#include <stdint.h>
#include <cstdint>
#include <math.h>
#include <cmath>
#include <limits.h>
#include <climits>
#include <float.h>
#include <cfloat>
#include <assert.h>
#include <cassert>
#include <stdlib.h>
#include <cstdlib>
#include <stddef.h>
#include <cstddef>
#include <type_traits>
#include <limits>
#include <algorithm>
#include <utility>
#include <cuda_runtime.h>

template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
__device__ T twice(T x) { return x * 2; }

extern "C" __global__ void k(float* f, int* i) {
  float tmp[4];
  memcpy(tmp, f, sizeof tmp);
  std::memset(i, 0, 2 * sizeof(int));
  float a = tmp[0], b = tmp[1];
  std::swap(a, b);
  f[4] = std::max(a, b) + std::min(a, b) + twice(tmp[2]) + std::sqrt(tmp[3]) + sqrtf(4.0f) +
         std::numeric_limits<float>::epsilon() * 0 + (FLT_MAX > 1e38f) + fabs(-1.0);
  int64_t big = INT64_MAX;
  uint8_t small = UINT8_MAX;
  std::size_t sz = sizeof(std::ptrdiff_t);
  i[0] = (big > 0) + small + (INT_MAX == std::numeric_limits<int>::max()) + int(sz) + abs(-3);
  std::pair<int, float> p = std::make_pair(7, 1.5f);
  i[1] = p.first + std::clamp(12, 0, 10) + (std::is_same_v<std::decay_t<const int&>, int> ? 100 : 0);
  assert(i[1] > 0);
  if (i[0] < 0) printf("unreachable %d\n", i[0]);
}
)";

TEST(DeviceHeaders, EveryStandardHeaderCompilesAndWorksUnderClang) {
  GPURUN_SKIP_WITHOUT_LIBCLC();
  EmuHarness h = clang_harness(every_header);
  Buffer& f = h.buffer(std::vector<float>{1, 2, 3, 16, 0});
  Buffer& i = h.buffer(std::vector<int>{-1, -1});
  h.run("k", Dim3{1, 1, 1}, Dim3{1, 1, 1}, f, i);
  EXPECT_EQ(h.read<float>(f)[4], 2 + 1 + 6 + 4 + 2 + 1 + 1);
  EXPECT_EQ(h.read<int>(i), (std::vector<int>{1 + 255 + 1 + 8 + 3, 7 + 10 + 100}));
}

TEST(DeviceHeaders, EveryStandardHeaderCompilesUnderNvrtc) {
  if (!nvrtc::probe().available)
    GTEST_SKIP() << "NVRTC unavailable: " << nvrtc::probe().reason;
  const auto r =
      nvrtc::compile(KernelSource{every_header, "headers.cu", Language::cuda}, {}, "compute_90");
  EXPECT_TRUE(r.ok) << r.log;
}

} // namespace
} // namespace gpurun::test
