#pragma once
// CUDA to PTX with clang's CUDA front end (Debian's clang package), for machines without NVRTC.
// gpurun's own device-side header layer stands in for the CUDA headers; the math library comes
// from libclc's NVPTX bitcode.
#include <string>

#include "backends/backend.hpp"
#include "backends/compilers/availability.hpp"

namespace gpurun::clang_cuda {

/// Finds clang once (thread-safe): $GPURUN_CLANG, then clang, clang-19 … clang-14 on PATH.
[[nodiscard]] const compilers::Availability& probe();

/// Compiles CUDA source to PTX for `target` (compute_XX or sm_XX; always PTX). A compile error is
/// returned (ok=false, log); an unavailable clang throws Error(unavailable).
[[nodiscard]] CompileResult compile(const KernelSource& source, const CompileOptions& options,
                                    const std::string& target);

} // namespace gpurun::clang_cuda
