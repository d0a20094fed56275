#pragma once
// Printing buffers the way NumPy's str() prints arrays, so users can compare at a glance:
// "[0 1 2 ... 17 18 19]", "[[1. 2.]\n [3. 4.]]", "[0.5  1.25]", "[1.0e+10 1.5e+00]".
//
// Followed rules (numpy/core/arrayprint.py, default options): elision with "..." when the
// buffer has more than `threshold` elements, keeping `edge_items` at each end of every axis;
// lines wrapped at `line_width` columns; integers right-aligned to a common width; floats in the
// 'maxprec' mode with precision 8 (shortest round-trip digits for the element type, at most 8
// after the point), switching to scientific notation when the largest magnitude is ≥ 1e8, the
// smallest non-zero one is < 1e-4, or their ratio exceeds 1000. f16 and bf16 print as numbers.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/host_buffer.hpp"

namespace gpurun {

/// `text` on one line: control characters (a newline in an --arg value, say) written as C
/// escapes ("\\n", "\\t", "\\x1b"), so that a message quoting user input stays one line.
[[nodiscard]] std::string one_line(std::string_view text);

/// A C++ symbol as written in the source ("_Z3whoPf" → "who(float*)"); other names unchanged.
[[nodiscard]] std::string demangled(const std::string& symbol);

/// `text` as a C string literal, quotes included, for a #line or #include written for a compiler
/// (`a "b"\c` → `"a \"b\"\\c"`).
[[nodiscard]] std::string c_string_literal(std::string_view text);

/// Every occurrence of `from` in `text` replaced by `to` (nothing when `from` is empty).
void replace_all(std::string& text, std::string_view from, std::string_view to);

/// A kernel symbol as its author names it: "_Z23softmax_forward_kernel4PfPKfi" →
/// "softmax_forward_kernel4", "_Z5saxpyIfEvT_PKS0_PS0_i" → "saxpy<float>" (no return type, no
/// parameter list); other names unchanged.
[[nodiscard]] std::string kernel_name(const std::string& symbol);

/// `text` with every mangled C++ symbol in it written as kernel_name() writes it: messages
/// from the backends name kernels by their symbols.
[[nodiscard]] std::string with_kernel_names(std::string_view text);

/// A duration for people, in the unit that suits it: "0 s", "512 ns", "12.35 µs", "1.234 ms",
/// "2.5 s" (four significant digits).
[[nodiscard]] std::string format_duration(double seconds);

/// A count for people: whole numbers with thousands separators ("81,912"), others with three
/// significant digits and an SI prefix ("1.80 M", "3.25 k", "0.5").
[[nodiscard]] std::string format_count(double value);

/// Three significant digits and an SI prefix: "1.80 M", "3.25 k", "512", "0.5".
[[nodiscard]] std::string format_si(double value);

/// Columns a terminal gives `text`: UTF-8 continuation bytes take none ("µs" is two).
[[nodiscard]] std::size_t display_width(std::string_view text);

/// A size for people: "512 bytes", "62.8 KiB", "1.50 MiB", "139 GiB" (three significant digits,
/// binary units).
[[nodiscard]] std::string byte_size(std::uint64_t bytes);

/// The element type and shape as reports show them: "f32[20]", "i32[2,3]".
[[nodiscard]] std::string buffer_type_text(const HostBuffer& buffer);

[[nodiscard]] std::string format_buffer(const HostBuffer& buffer, std::size_t edge_items = 3,
                                        std::size_t threshold = 1000, std::size_t line_width = 75);

} // namespace gpurun
