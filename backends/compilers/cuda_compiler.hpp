#pragma once
// The CUDA compilers gpurun can use, chosen per compile: NVRTC when it can be found, otherwise
// Debian's clang with gpurun's own device-side header layer. Both produce PTX; NVRTC also cubins.
#include <string>

#include "backends/backend.hpp"

namespace gpurun::compilers {

/// What `--compiler` asks for ("" = automatic: NVRTC, else clang).
enum class CudaCompiler { automatic, nvrtc, clang };

/// Parses "auto", "nvrtc" or "clang"; throws Error(usage) naming `field` otherwise.
[[nodiscard]] CudaCompiler parse_cuda_compiler(const std::string& text, const std::string& field);

/// One compiler as found at run time.
struct CompilerInfo {
  std::string name; ///< "nvrtc", "clang"
  bool available = false;
  std::string version;  ///< "13.0", "14.0.6"
  std::string location; ///< the library or executable that will be used
  std::string reason;   ///< why it is unavailable
};

[[nodiscard]] CompilerInfo nvrtc_info();
[[nodiscard]] CompilerInfo clang_info();

/// The compiler a compile with these options will use (available=false with both reasons when
/// none can be used).
[[nodiscard]] CompilerInfo choose(const CompileOptions& options);

/// Compiles CUDA (or HIP through the compatibility header) source for `target` ("compute_XX" →
/// PTX; "sm_XX" → cubin, NVRTC only) with the chosen compiler. Throws Error(unavailable) when no
/// compiler can be used; a compile error is returned in the result.
[[nodiscard]] CompileResult compile_cuda(const KernelSource& source, const CompileOptions& options,
                                         const std::string& target);

/// "nvrtc 13.0" / "clang 14.0.6": the part of a compile-cache key that names the compiler.
[[nodiscard]] std::string compiler_id(const CompileOptions& options);

} // namespace gpurun::compilers
