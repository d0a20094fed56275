#pragma once
// What a command run with --json prints on stdout when it fails: one JSON document in place of
// its report, so that a script reads stdout the same way whatever happened (docs/spec.md).
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "base/error.hpp"

namespace gpurun {

/// The exit code an exception ends the process with: a gpurun::Error's own, ExitCode::device for
/// anything else (an internal error).
[[nodiscard]] ExitCode exit_code_of(const std::exception& error) noexcept;

/// "usage", "compile", "device", "unavailable", "timeout", "check_failed"; "ok" for ExitCode::ok.
[[nodiscard]] std::string_view category_name(ExitCode code) noexcept;

/// {"status": "error", "exit_code": N, "error": {...}, "device_output": "…"}. The error object
/// has "category" (category_name, or "internal" for an exception that is not a gpurun::Error)
/// and "message", the first line of what(); further lines go to "details", except that a
/// CompileError's log goes to "log". A BackendError adds "backend", "call", "native_code",
/// "native_name", "file" and "line". "device_output" is present when `device_output` is: the
/// device printf text the command kept before it failed.
[[nodiscard]] nlohmann::ordered_json
error_document(const std::exception& error,
               const std::optional<std::string>& device_output = std::nullopt);

/// The document as text, two-space indented (base/json_text: bytes that are not UTF-8, which
/// device printf may print, become U+FFFD instead of failing the dump).
[[nodiscard]] std::string dump_document(const nlohmann::ordered_json& document);
[[nodiscard]] std::string dump_document(const nlohmann::json& document);

} // namespace gpurun
