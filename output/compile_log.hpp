#pragma once
// A compiler's log as a user reads it first: the first errors with their file:line and source
// lines, then one line counting the rest (the whole log stays in --json's `error.log` and is
// printed with -v). Hints that do not apply to how gpurun compiles are taken out.
#include <cstddef>
#include <string>
#include <string_view>

namespace gpurun {

struct CompileLogSummary {
  std::string text;       ///< what to print: the first errors, then the count line
  std::size_t errors = 0; ///< errors in the whole log
  std::size_t warnings = 0;
  bool shortened = false; ///< whether `text` leaves out part of the log
};

/// The log without NVRTC's "Consider using -default-device …" hint: gpurun hands NVRTC only the
/// device side of a file, so host functions never reach it, and the flag is not how to fix what
/// the message reports.
[[nodiscard]] std::string without_jit_hints(std::string_view log);

/// The first `max_errors` errors of an NVRTC, clang or nvcc log (each with the lines that belong
/// to it) and a count of the rest; a log with no recognisable diagnostics is kept to its first
/// `max_lines` lines.
[[nodiscard]] CompileLogSummary
summarize_compile_log(std::string_view log, std::size_t max_errors = 3, std::size_t max_lines = 20);

} // namespace gpurun
