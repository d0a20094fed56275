#pragma once
// A kernel's native code: the translation compiled by the machine's clang into a shared object,
// kept in the cache (keyed by the C++ text — itself made from the PTX —, the engine's ABI
// version, the compiler and the host CPU's features), and opened with dlopen. A second index,
// by the PTX and the gpurun binary's build ID, finds the object without translating again.
#include <filesystem>
#include <memory>
#include <string>

#include "backends/cpu/native/abi.hpp"

namespace gpurun::native {

class CompiledKernel {
public:
  ~CompiledKernel();
  CompiledKernel(const CompiledKernel&) = delete;
  CompiledKernel& operator=(const CompiledKernel&) = delete;

  /// The cached shared object for `source`, compiling it first when it is not there. Throws
  /// Error(unavailable) when no clang is found, Error(compile) when clang fails (a bug of the
  /// translator: the log names the line).
  [[nodiscard]] static std::shared_ptr<CompiledKernel> build(const std::string& source,
                                                             const std::filesystem::path& cache);
  /// The cached shared object for `source`, or null when it has not been compiled yet.
  [[nodiscard]] static std::shared_ptr<CompiledKernel> cached(const std::string& source,
                                                              const std::filesystem::path& cache);
  /// The cached shared object a run of this very gpurun made for kernel `kernel` (a digest of
  /// its PTX and its index), without translating it again: remember() links the two. Null when
  /// there is none, or this gpurun has no build ID to tell its translator apart.
  [[nodiscard]] static std::shared_ptr<CompiledKernel> cached_for(const std::string& kernel,
                                                                  const std::filesystem::path& cache);
  /// Notes that kernel `kernel` translates to `source` (whose object is in the cache).
  static void remember(const std::string& kernel, const std::string& source,
                       const std::filesystem::path& cache);
  /// Starts compiling `source` into the cache in a process of its own, which finishes even when
  /// gpurun exits first (the next run finds the result); returns without waiting. False when no
  /// clang is found or the process could not be started.
  static bool build_in_background(const std::string& source, const std::filesystem::path& cache);
  /// Whether a compiler for the engine is on this machine, and which ("clang 14.0.6"), or why not.
  [[nodiscard]] static bool available(std::string* what);

  [[nodiscard]] const native_abi::Kernel& table() const noexcept { return *m_table; }
  [[nodiscard]] double compile_seconds() const noexcept { return m_compile_seconds; }

private:
  CompiledKernel() = default;
  static std::shared_ptr<CompiledKernel> open(const std::filesystem::path& so);

  void* m_handle = nullptr;
  const native_abi::Kernel* m_table = nullptr;
  double m_compile_seconds = 0;
};

} // namespace gpurun::native
