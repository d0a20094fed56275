#pragma once
// Kernel signatures read from the source: parameter names and C types of every `__global__`
// function (CUDA/HIP) or `.entry` (PTX), so that arguments can be type-checked before anything is
// allocated, and confirmed against the compiled parameter layout.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"
#include "base/dtype.hpp"

namespace gpurun {

/// The C type of one kernel parameter.
struct ParamType {
  /// As written, normalized: qualifiers other than the pointee's const dropped, const first,
  /// one space between words ("const float*", "unsigned long long", "T*").
  std::string c_type;
  bool is_pointer = false;
  bool is_const = false; ///< pointee const for pointers, the value's const otherwise
  /// Element type: f32 for float / float* / float4, i32 for int …; empty when the type is not a
  /// known arithmetic type (void*, structs, unresolved template parameters).
  std::optional<DType> element;
  std::size_t scalar_size = 0; ///< bytes of the scalar or of the pointee; 0 when unknown
  int vector_width = 1;        ///< float4 → 4
  /// PTX only: a 64-bit .param can be a pointer or a 64-bit integer; it accepts a buffer of any
  /// element type or a 64-bit scalar.
  bool pointer_or_integer = false;
  /// OpenCL C: a `__local` pointer. It takes a size of local memory (local:BYTES), not a buffer.
  bool local_memory = false;
};

struct KernelParam {
  std::string name; ///< unnamed parameters are called p0, p1, … by position
  ParamType type;
};

struct KernelSignature {
  std::string name;
  bool extern_c = false;
  bool is_template = false;
  std::vector<std::string> template_params;
  /// Default of each template parameter as written (empty when none); same length as
  /// template_params.
  std::vector<std::string> template_defaults;
  std::vector<KernelParam> params;
  int line = 0; ///< 1-based line of the kernel's name
  /// From a PTX .entry: parameter names are the compiler's (k_param_0), so argument names are
  /// labels for the buffers and are not matched against them.
  bool from_ptx = false;
};

/// Every `__global__` function defined or declared in CUDA/HIP source, in source order; a kernel
/// declared before it is defined appears once. Macros are not expanded: a kernel spelled through a
/// macro is not found here (prepare then looks for it among the compiled module's entries). Throws Error(usage) naming the kernel and parameter for a reference
/// parameter (a host reference cannot be passed to a kernel).
[[nodiscard]] std::vector<KernelSignature> find_kernels(std::string_view source);

/// Every `__kernel` (or `kernel`) function of OpenCL C source, in source order, as find_kernels
/// does for CUDA. Address-space qualifiers are read: `__constant` makes a pointer's data input
/// (const), `__local` marks local memory (ParamType::local_memory); `__global`, `__private` and
/// the image access qualifiers say nothing more to the caller. Macros are not expanded (the
/// compiled kernel's argument info then tells the types: opencl_signature).
[[nodiscard]] std::vector<KernelSignature> find_opencl_kernels(std::string_view source);

/// The signature of OpenCL kernel `name` from the declarations of its compiled parameters
/// (ParamLayout::declaration, as the OpenCL backend reads them from the kernel's argument info);
/// nullopt when a declaration is missing.
[[nodiscard]] std::optional<KernelSignature>
opencl_signature(const std::string& name, const std::vector<ParamLayout>& layout);

/// Every `.entry` in PTX text with its `.param` list (names as in the PTX, types from the
/// .param type: .f32 → f32, .u32 → u32, a 64-bit integer → pointer_or_integer, `.ptr` → a pointer
/// to any buffer, `.b8 p[16]` → an aggregate of 16 bytes). Throws Error(compile)
/// "FILE:LINE: what" for a parameter list that is not PTX.
[[nodiscard]] std::vector<KernelSignature> find_ptx_kernels(std::string_view ptx,
                                                            std::string_view file_name = "ptx");

/// Every kernel of a module image without PTX (a cubin, or a fat binary's first cubin) with its
/// parameters as the image lays them out: p0, p1, … of their sizes only (8 bytes: a pointer or a
/// 64-bit integer; other sizes take a typed scalar or a record of that size). Throws
/// Error(usage) naming `file_name` for an image that cannot be read.
[[nodiscard]] std::vector<KernelSignature> find_image_kernels(std::span<const std::byte> image,
                                                              std::string_view file_name);

/// The kernels of a PTX-language source: of its PTX text, else of its module image.
[[nodiscard]] std::vector<KernelSignature> find_module_kernels(const KernelSource& source);

/// Whether `kernels` has one that `expression` (NAME, ns::NAME, NAME<ARGS>) names.
[[nodiscard]] bool declares_kernel(const std::vector<KernelSignature>& kernels,
                                   std::string_view expression);

/// The kernel named by `expression` ("saxpy" or "saxpy<float>"): the kernel whose name is the
/// part before '<'. Throws Error(usage) listing the kernels found when there is none.
[[nodiscard]] const KernelSignature& select_kernel(const std::vector<KernelSignature>& kernels,
                                                   std::string_view expression);

/// Substitutes the template arguments of `expression` ("saxpy<float>", "k<float, 4>") for the
/// template parameters in the parameter types. For a non-template kernel the expression must not
/// have template arguments. Throws Error(usage) when the arity does not match.
[[nodiscard]] KernelSignature instantiate(const KernelSignature& kernel,
                                          std::string_view expression);

/// Confirms the declaration against the compiled parameter layout: same count, and each
/// parameter's size (a pointer is 8 bytes; parameters of unknown size are not compared).
/// Throws Error(usage) naming the first parameter that differs.
void check_layout(const KernelSignature& kernel, const std::vector<ParamLayout>& layout);

/// The type of a parameter from its normalized or written text ("const float* __restrict__").
[[nodiscard]] ParamType parse_param_type(std::string_view text);

/// "float* vector"
[[nodiscard]] std::string describe(const KernelParam& param);

} // namespace gpurun
