#pragma once
// CUDA to PTX or a cubin with a CUDA toolkit's nvcc, run as a program on the user's whole .cu file
// as it is: host code, <<<…>>> launches and the toolkit's headers compile as in the user's own
// build. Only when asked for (--compiler nvcc).
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/compilers/availability.hpp"

namespace gpurun::nvcc {

/// Finds nvcc once (thread-safe): $GPURUN_NVCC, else $CUDA_HOME/bin, $CUDA_PATH/bin,
/// /usr/local/cuda*/bin, PATH (see nvcc_locate.hpp).
[[nodiscard]] const compilers::Availability& probe();

/// Compiles the source with nvcc: `target` compute_XX gives PTX (`--ptx`), sm_XX a cubin
/// (`-cubin`); anything else is Error(usage). The file is compiled where it is, so that its own
/// #includes, file:line in errors and the PTX's .file name it; kernels named in
/// options.name_expressions ("saxpy<float>") are instantiated by a small file beside the compile
/// that includes it by absolute path, and their mangled names found among the entries. A source
/// whose text is not the file's (or that has no file) is compiled from a copy whose #line names
/// it. A compile error is returned (ok=false, log); an unavailable nvcc throws Error(unavailable).
[[nodiscard]] CompileResult compile(const KernelSource& source, const CompileOptions& options,
                                    const std::string& target);

/// The nvcc command line for a compile, without the output and input files: the target, -std
/// (C++17 unless options.std_version), -lineinfo, -D, -I (the user's folders, then the source's
/// own), and options.extra translated from NVRTC's spellings (those NVRTC alone has are dropped).
[[nodiscard]] std::vector<std::string>
command_line(const KernelSource& source, const CompileOptions& options, const std::string& target);

} // namespace gpurun::nvcc
