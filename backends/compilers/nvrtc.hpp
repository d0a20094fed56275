#pragma once
// NVRTC, opened with dlopen wherever it is installed (nvrtc_locate.hpp), shared by the CUDA backend
// (cubin for the device) and the CPU backend (PTX for the emulator).
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/compilers/availability.hpp"

namespace gpurun::nvrtc {

using Availability = compilers::Availability;

/// Loads NVRTC once (thread-safe) and reports whether it is usable.
[[nodiscard]] const Availability& probe();

/// The --gpu-architecture numbers this NVRTC accepts ("75", "80", … "120"); empty when NVRTC is
/// unavailable or too old to say.
[[nodiscard]] std::vector<std::string> supported_archs();

/// Compiles CUDA C++ source. `target` "compute_XX" yields PTX (binary_format "ptx"), "sm_XX" a
/// cubin (binary_format "cubin"). A compile error is returned (ok=false, log); an unavailable NVRTC
/// throws Error(unavailable). Includes the compatibility headers that let kernels written for nvcc
/// (<cstdio>, <cstdint>, <cmath>, <cuda_runtime.h>) compile; the include folders of the toolkit or
/// wheels the loaded NVRTC came from are searched after the user's folders, for <cuda_fp16.h>,
/// <cuda_bf16.h>, <cooperative_groups.h> and <cuda/std/…>. Throws Error(usage) for a target that
/// is neither compute_XX nor sm_XX.
[[nodiscard]] CompileResult compile(const KernelSource& source, const CompileOptions& options,
                                    const std::string& target);

} // namespace gpurun::nvrtc
