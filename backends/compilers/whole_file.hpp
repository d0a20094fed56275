#pragma once
// Whole .cu/.hip files as users keep them — a CPU reference, `main()`, `<<<>>>` launches, cuBLAS
// and <fstream> includes — made into what a device-only compiler (NVRTC, or clang with gpurun's
// headers) accepts: the file's own headers are read in (with #line markers, so diagnostics and
// line tables still name them), headers the compiler does not provide for device code are left
// out, and of the declarations at namespace scope only those the chosen kernels need are kept;
// host functions and host variables never are. Preprocessor directives are always kept, so the
// compiler's preprocessor still decides every #if with the file's own macros. docs/compilers.md.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun::compilers {

/// What the device compiler finds on its own: headers it provides that compile for the device.
struct HeaderPolicy {
  std::function<bool(std::string_view name)> provided;
  /// Macros nvcc's host preprocessor defines that this compiler does not ("__linux__=1" for
  /// NVRTC), defined for the compile as nvcc would: whole files test them (`#error Unsupported
  /// system`).
  std::vector<std::string> host_macros;
};

/// How much device code to keep.
enum class Pruning {
  to_kernels,  ///< what the named kernels (CompileOptions::kernels, name_expressions) need
  device_code, ///< every kernel, device function and device variable, and what they need
};

struct DeviceSource {
  std::string text;     ///< the source the compiler gets
  bool changed = false; ///< whether anything was left out or read in
  std::size_t host_functions = 0;
  std::size_t host_variables = 0;
  std::size_t unused_device = 0; ///< kernels and device functions the kernels do not need
  std::size_t unused_other = 0;  ///< types, constants, aliases nothing kept needs
  std::vector<std::string> dropped_includes; ///< as written: "cublas_v2.h", "fstream"
  std::vector<std::string> inlined_headers;  ///< the file's own headers that were read in
  /// Why the declarations were kept as written (braces that do not balance outside the
  /// preprocessor's view); empty when the file was read.
  std::string unread;

  /// One line for -v and --json: "left out 12 host functions, 2 host variables, 5 unused kernels
  /// and device functions; includes not needed for the device: cublas_v2.h, fstream".
  [[nodiscard]] std::string summary() const;
};

/// The device side of `source` for a compiler with `headers`. Never throws for what the text
/// holds; a file it cannot read is passed on as it is (see DeviceSource::unread).
[[nodiscard]] DeviceSource device_source(const KernelSource& source, const CompileOptions& options,
                                         const HeaderPolicy& headers, Pruning pruning);

/// `source` with the file's own headers read in (between #line markers) and nothing left out: the
/// text in which to look for a kernel the file includes rather than defines.
[[nodiscard]] std::string with_own_headers(const KernelSource& source,
                                           const CompileOptions& options);

/// The headers NVRTC finds by itself: gpurun's compatibility headers and the toolkit's own headers
/// that go with the loaded NVRTC (host-library headers excepted).
[[nodiscard]] HeaderPolicy nvrtc_header_policy();

/// The headers clang finds: gpurun's CUDA layer for clang and the shared compatibility headers.
[[nodiscard]] HeaderPolicy clang_header_policy();

/// Compiles the device side of `source` with `compile`: first only what the kernels named in
/// `options` need; when that fails and keeping every kernel and device function differs, once
/// more with those (a dependency the reading could not see). The result says what was left out
/// (CompileResult::source_summary).
[[nodiscard]] CompileResult compile_device_side(
    const KernelSource& source, const CompileOptions& options, const HeaderPolicy& headers,
    const std::function<CompileResult(const KernelSource&, const CompileOptions&)>& compile);

/// Headers of host-side libraries (cuBLAS, cuBLASLt, cuFFT, cuRAND's host API, cuSPARSE,
/// cuSOLVER, NCCL, NVTX, cuDNN, NVML, the profiler API …): never device code, left out even
/// where they are installed.
[[nodiscard]] bool is_host_library_header(std::string_view name);

} // namespace gpurun::compilers
