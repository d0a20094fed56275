#pragma once
// Finding clang and libclc's NVPTX bitcode on this machine, once per process.
#include <optional>
#include <string>
#include <vector>

#include "backends/compilers/availability.hpp"

namespace gpurun::clang_cuda {

/// The oldest clang whose CUDA front end and NVPTX back end gpurun's header layer is written for.
inline constexpr int minimum_major = 14;

/// What probing found.
struct Installation {
  compilers::Availability availability; ///< version "14.0.6", location "/usr/bin/clang-14"
  int major = 0;
  std::string libclc;        ///< nvptx64--nvidiacl.bc; empty when none was found
  std::string libclc_reason; ///< why not (every place tried)
};

/// Probes once (thread-safe): $GPURUN_CLANG when set (and only it), else clang, clang-22 …
/// clang-14 on PATH, the first that is clang 14 or newer; libclc from $GPURUN_LIBCLC, else next to
/// that clang's LLVM (<prefix>/lib/clc, <prefix>/share/clc), /usr/lib/llvm-<major>/lib/clc,
/// /usr/lib/clc, /usr/share/clc, /usr/local/lib/clc.
[[nodiscard]] const Installation& installation();

/// Probes now with the given environment values (empty = unset); what installation() runs once.
[[nodiscard]] Installation probe_installation(const std::string& clang_override,
                                              const std::string& libclc_override);

/// The version in `clang --version` output ("Debian clang version 14.0.6" → "14.0.6").
[[nodiscard]] std::optional<std::string> parse_clang_version(const std::string& version_output);

/// Where libclc's NVPTX bitcode may be for a clang at `clang_path` of major version `major`.
[[nodiscard]] std::vector<std::string> libclc_candidates(const std::string& clang_path, int major);

} // namespace gpurun::clang_cuda
