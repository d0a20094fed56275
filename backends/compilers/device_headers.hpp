#pragma once
// Header files for device code that gpurun carries inside its binary, generated at build time from
// the folders next to this file: std_headers/ (C++ standard headers that both CUDA compilers get),
// hip_headers/ (HIP's kernel API on CUDA's, for both) and clang_headers/ (the CUDA layer that
// stands in for the toolkit's headers under clang).
#include <span>

namespace gpurun::compilers {

struct HeaderFile {
  const char* name; ///< as written in #include <…>
  const char* text;
};

/// <type_traits>, <limits>, <utility>, <algorithm>: valid under NVRTC and clang.
[[nodiscard]] std::span<const HeaderFile> std_headers();

/// The HIP layer (hip/hip_runtime.h, hip/hip_fp16.h, hip/hip_bf16.h …): HIP's kernel-side API on
/// top of CUDA's, for .hip kernels compiled to PTX by either compiler.
[[nodiscard]] std::span<const HeaderFile> hip_layer_headers();

/// The clang layer: cuda_runtime.h (included before every kernel), cuda_fp16.h, cuda_bf16.h,
/// vector_types.h, the C headers whose device versions differ from NVRTC's, and the internal
/// __gpurun_*.h files they include.
[[nodiscard]] std::span<const HeaderFile> clang_layer_headers();

} // namespace gpurun::compilers
