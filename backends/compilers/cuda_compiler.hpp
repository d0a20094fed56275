#pragma once
// The CUDA compilers gpurun can use, chosen per compile: NVRTC when it can be used, otherwise
// Debian's clang with gpurun's own device-side header layer; a toolkit's nvcc when asked for.
// All produce PTX; NVRTC and nvcc also cubins.
#include <optional>
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

/// NVRTC, clang and nvcc as found now, in that order.
[[nodiscard]] std::vector<CompilerInfo> cuda_compilers();
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

/// Whether `target` is a CUDA architecture a binary is made for without a GPU: "sm_90" (a
/// cubin), "compute_90" (PTX).
[[nodiscard]] bool is_cuda_target(const std::string& target);

/// The kernels' resources as ptxas reports them for options.arch (sm_90 when it names none): a
/// compile to a cubin with `ptxas -v` by NVRTC or nvcc, no GPU needed. nullopt when the compile
/// would be clang's, which runs no ptxas. Throws CompileError when the compile fails.
[[nodiscard]] std::optional<ResourceReport> ptxas_resources(const KernelSource& source,
                                                            CompileOptions options);

/// The Backend interface's compiler questions answered by these compilers, for a backend that
/// compiles CUDA (and HIP through gpurun's layer) with them: cuda and cpu.
class CudaCompilingBackend : public Backend {
public:
  [[nodiscard]] std::vector<CompilerInfo> compilers() const override { return cuda_compilers(); }
  [[nodiscard]] std::optional<CompilerInfo>
  chosen_compiler(Language language, const CompileOptions& options) const override {
    if (language != Language::cuda && language != Language::hip)
      return std::nullopt;
    return choose(options);
  }
  [[nodiscard]] bool compiles_offline_for(const std::string& target) const override {
    return is_cuda_target(target);
  }
  [[nodiscard]] CompileResult compile_for(const KernelSource& source, const CompileOptions& options,
                                          const std::string& target) override {
    return compile_cuda(source, options, target);
  }
  [[nodiscard]] std::optional<ResourceReport>
  compiled_resources(const KernelSource& source, const CompileOptions& options,
                     const CompileResult& /*compiled*/) const override {
    if (source.language != Language::cuda && source.language != Language::hip)
      return std::nullopt;
    return ptxas_resources(source, options);
  }
};

} // namespace gpurun::compilers
