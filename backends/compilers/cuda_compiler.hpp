#pragma once
// The CUDA compilers gpurun can use, chosen per compile: NVRTC when it can be used, otherwise
// Debian's clang with gpurun's own device-side header layer; a toolkit's nvcc when asked for.
// All produce PTX; NVRTC and nvcc also cubins.
#include <span>
#include <string>
#include <string_view>

#include "backends/backend.hpp"

namespace gpurun::compilers {

/// What `--compiler` asks for (automatic: NVRTC, else clang).
enum class CudaCompiler { automatic, nvrtc, clang, nvcc };

/// The words `--compiler` accepts, "auto" first.
[[nodiscard]] std::span<const std::string_view> compiler_names();

/// Parses one of compiler_names() ("" is auto); throws Error(usage) naming `field` otherwise.
[[nodiscard]] CudaCompiler parse_cuda_compiler(const std::string& text, const std::string& field);

/// One compiler as found at run time.
struct CompilerInfo {
  std::string name; ///< "nvrtc", "clang", "nvcc"
  bool available = false;
  std::string version;  ///< "13.0", "14.0.6", "13.0.88"
  std::string location; ///< the library or executable that will be used
  std::string reason;   ///< why it is unavailable
  /// NVRTC: the libnvrtc-builtins file its compiles use (loaded from beside `location`).
  std::string builtins;
  /// The automatic choice: why a compiler it prefers was passed over although it was found
  /// ("nvrtc unusable: … needs libnvrtc-builtins.so.13.0, which is …"); empty otherwise.
  std::string passed_over;
};

[[nodiscard]] CompilerInfo nvrtc_info();
[[nodiscard]] CompilerInfo clang_info();
[[nodiscard]] CompilerInfo nvcc_info();

/// The compiler a compile with these options will use (available=false with every reason when
/// none can be used).
[[nodiscard]] CompilerInfo choose(const CompileOptions& options);

/// Compiles CUDA (or HIP through the compatibility header) source for `target` ("compute_XX" →
/// PTX; "sm_XX" → cubin, NVRTC and nvcc only) with the chosen compiler. Throws Error(unavailable)
/// when no compiler can be used; a compile error is returned in the result. Under the automatic
/// choice an NVRTC that fails on its own (a builtins or internal failure, not the source) gives
/// way to clang for this and every later compile of the process (PTX for the same architecture
/// when a cubin was asked for); the result's compiler_version then says why ("clang 14.0.6
/// (nvrtc 13.0 failed: …)").
[[nodiscard]] CompileResult compile_cuda(const KernelSource& source, const CompileOptions& options,
                                         const std::string& target);

/// "nvrtc 13.0" / "clang 14.0.6" / "nvcc 13.0.88": the part of a compile-cache key that names
/// the compiler.
[[nodiscard]] std::string compiler_id(const CompileOptions& options);

} // namespace gpurun::compilers
