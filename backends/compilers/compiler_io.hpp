#pragma once
// What the three CUDA compilers share in how they are driven: the source's own preprocessor
// arguments, and the scratch files the subprocess compilers (clang, nvcc) read and write.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun::compilers {

/// The language standard's word: -std=c++17 (NVRTC's default) when none is given.
[[nodiscard]] std::string std_argument(const CompileOptions& options);

/// -D, the user's -I, then the source's own folder: the same words for NVRTC, clang and nvcc.
void add_source_arguments(std::vector<std::string>& args, const KernelSource& source,
                          const CompileOptions& options);

/// Writes a scratch file for `compiler` (its folders made); throws Error(unavailable) naming the
/// compiler and the file when it cannot.
void write_scratch_file(const std::filesystem::path& path, std::string_view text,
                        std::string_view compiler);

/// A compiler's output file, whole; empty when it is not there.
[[nodiscard]] std::string read_output_file(const std::filesystem::path& path);

} // namespace gpurun::compilers
