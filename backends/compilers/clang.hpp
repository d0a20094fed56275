#pragma once
// CUDA to PTX with clang's CUDA front end (Debian's clang package), for machines without NVRTC.
// gpurun's own device-side header layer stands in for the CUDA headers; the math library comes
// from libclc's NVPTX bitcode.
#include <string>

#include "backends/backend.hpp"
#include "backends/compilers/availability.hpp"

namespace gpurun::clang_cuda {

/// Finds clang once (thread-safe): $GPURUN_CLANG, then clang, clang-22 … clang-14 on PATH (see
/// clang_locate.hpp). Available without libclc, whose absence only matters to kernels that call
/// the math library (the compile then fails naming the function and what is missing).
[[nodiscard]] const compilers::Availability& probe();

/// Compiles CUDA source to PTX for `target`: compute_XX compiles for the newest architecture this
/// clang supports that is not newer (compute_90 is sm_86 PTX under clang 14, which the driver
/// still JIT-compiles for an sm_90 GPU); sm_XX (a cubin) is Error(usage). The source is compiled
/// as C++17 unless options.std_version says otherwise, at -O3, with line tables when
/// options.line_info, after gpurun's cuda_runtime.h; options.extra go to clang as they are. A
/// compile error is returned (ok=false, log naming file:line); an unavailable clang throws
/// Error(unavailable).
[[nodiscard]] CompileResult compile(const KernelSource& source, const CompileOptions& options,
                                    const std::string& target);

/// The clang command line for a compile (without the output and input files), for tests and
/// messages: `include_dir` holds the header layer, `no_cuda_dir` is an empty folder given as the
/// CUDA installation so that clang does not pick up a toolkit's headers.
[[nodiscard]] std::vector<std::string> command_line(const KernelSource& source,
                                                    const CompileOptions& options, int arch,
                                                    const std::string& include_dir,
                                                    const std::string& no_cuda_dir);

} // namespace gpurun::clang_cuda
