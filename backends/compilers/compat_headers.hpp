#pragma once
// Small stand-ins for the C/C++ and CUDA runtime headers that kernels written for nvcc include
// but NVRTC cannot open (it has no host standard library). They are handed to NVRTC in memory.
#include <span>

#include "backends/compilers/device_headers.hpp"

namespace gpurun::nvrtc {

using CompatHeader = compilers::HeaderFile;

/// Every compatibility header: cstdio stdio.h cstdint stdint.h cstddef stddef.h cmath math.h
/// cassert assert.h climits limits.h cfloat float.h cstdlib stdlib.h cstring string.h
/// cuda_runtime.h cuda.h, the C++ headers shared with clang (compilers::std_headers():
/// type_traits limits utility algorithm) and the HIP layer (compilers::hip_layer_headers()).
[[nodiscard]] std::span<const CompatHeader> compat_headers();

/// Pre-included into every program, as nvcc implicitly includes cuda_runtime.h: fixed-width
/// integers, printf, std:: math and size_t are available without any #include.
inline constexpr const char* implicit_header = "cuda_runtime.h";

/// Pre-included after implicit_header into every .hip program, as hipcc implicitly includes
/// hip_runtime.h.
inline constexpr const char* implicit_hip_header = "hip/hip_runtime.h";

} // namespace gpurun::nvrtc
