#pragma once
// Kernels and their parameter lists read from PTX text: the one reader of `.entry` signatures.
// The run pipeline takes a PTX kernel's signature from it, the CUDA backend lays out launch
// arguments with it where the driver cannot report the layout, and the CPU backend's PTX parser
// hands it every kernel's parameter list. It depends on nothing else in gpurun, so that core and
// every backend can use it.
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun::kit {

/// One `.param` of a kernel, placed where the launch parameter buffer holds it.
struct PtxParam {
  std::string name;
  std::string type;     ///< element type without the dot: "u64", "f32", "b8"
  int vector_width = 1; ///< .v2 / .v4 / .v8
  /// Element count of an array (`.b8 p[16]` → 16; `p[2][3]` → 6); absent for a scalar.
  std::optional<std::size_t> array_size;
  std::size_t size = 0;   ///< bytes: element × vector width × array size
  std::size_t align = 0;  ///< `.align N` before the type, else element × vector width
  std::size_t offset = 0; ///< each parameter starts at the next multiple of its alignment
  bool is_ptr = false;    ///< `.ptr`: declared as a pointer
  /// `.ptr .global` → "global"; empty for a generic pointer.
  std::string pointee_space;
  /// `.ptr [.space] .align N`: the alignment of the memory pointed to, not of the parameter
  /// (0 when not given).
  std::size_t pointee_align = 0;
  int line = 0; ///< 1-based, in the text given to the parser

  /// A 64-bit integer scalar (.u64, .s64, .b64): how a pointer is passed, so the parameter may be
  /// a pointer (with or without .ptr) or a 64-bit integer.
  [[nodiscard]] bool is_pointer_sized_integer() const noexcept;
};

/// One kernel (`.entry`).
struct PtxEntry {
  std::string name; ///< the symbol as in the PTX (mangled for C++ linkage)
  int line = 0;     ///< 1-based line of the name
  std::vector<PtxParam> params;
  std::size_t param_bytes = 0; ///< end of the last parameter in the parameter buffer
};

/// Malformed PTX in a parameter list.
class PtxSyntaxError : public std::runtime_error {
public:
  PtxSyntaxError(int line, const std::string& what) : std::runtime_error(what), m_line(line) {}
  /// 1-based, in the text given to the parser.
  [[nodiscard]] int line() const noexcept { return m_line; }

private:
  int m_line;
};

/// Every `.entry` in PTX text, in order. `.func` (device functions) are not kernels and are left
/// out; comments and string literals are not searched. Throws PtxSyntaxError for a parameter list
/// that is not PTX ("expected a parameter name near ')'").
[[nodiscard]] std::vector<PtxEntry> parse_ptx_entries(std::string_view ptx);

/// One kernel's parameter list: `list` starts at its '(' and may go on past the closing ')'
/// (which ends it). Line numbers count from `first_line`. Throws PtxSyntaxError.
[[nodiscard]] std::vector<PtxParam> parse_ptx_param_list(std::string_view list, int first_line = 1);

/// Bytes of one element of a PTX type named without the dot ("u32" → 4, "f16x2" → 4, "pred" → 1,
/// "b128" → 16); 0 for a name that is no PTX type.
[[nodiscard]] std::size_t ptx_type_size(std::string_view type) noexcept;

} // namespace gpurun::kit
