#pragma once
#include <filesystem>
#include <string_view>

#include "backends/backend.hpp"

namespace gpurun {

/// The source language of a kernel file, from its extension (.cu .cuh → cuda, .hip → hip,
/// .cl → opencl, .metal → metal, .ptx, .fatbin and .cubin → ptx). Throws Error(usage) naming the file otherwise.
[[nodiscard]] Language detect_language(const std::filesystem::path& file);

/// Reads a kernel file and detects its language; a fat binary is read as its PTX (that of the
/// highest architecture it carries). Throws Error(usage) naming the file when it cannot be read,
/// its extension is unknown or a fat binary holds no PTX.
[[nodiscard]] KernelSource load_kernel_source(const std::filesystem::path& file);

/// "cuda", "hip", "opencl", "metal", "ptx".
[[nodiscard]] std::string_view language_name(Language language);

} // namespace gpurun
