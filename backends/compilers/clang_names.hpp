#pragma once
// Kernels with C++ linkage under clang: making clang emit a template instantiation that the source
// only names, and finding its mangled name among the PTX entries (NVRTC's name expressions).
#include <optional>
#include <string>
#include <vector>

namespace gpurun::clang_cuda {

/// Source text that makes clang instantiate and emit each kernel named in `expressions`
/// ("saxpy<float>", "ns::k<4>"): a function that takes each one's address. Appended after the
/// kernel's own source.
[[nodiscard]] std::string instantiation_code(const std::vector<std::string>& expressions);

/// The names of the .entry functions in PTX text, in order.
[[nodiscard]] std::vector<std::string> ptx_entry_names(const std::string& ptx);

/// "void saxpy<float>(float, float const*, float*, int)" for "_Z5saxpyIfEvT_PKS0_PS0_i" reduced to
/// the qualified name with template arguments ("saxpy<float>"); std::nullopt when `mangled` is not
/// a C++ name.
[[nodiscard]] std::optional<std::string> demangled_function_name(const std::string& mangled);

/// The entry that `expression` names: the one whose demangled name equals it (ignoring spaces),
/// else the only instantiation of that template (which covers spellings the demangler writes
/// differently: unsigned for unsigned int, int64_t for long long). std::nullopt when none or
/// several match.
[[nodiscard]] std::optional<std::string> find_lowered_name(const std::string& expression,
                                                           const std::vector<std::string>& entries);

} // namespace gpurun::clang_cuda
