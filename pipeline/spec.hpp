#pragma once
// The JSON run spec (docs/spec.md): the same content as the run flags, in a file.
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "pipeline/run_request.hpp"

namespace gpurun {

/// Reads a run spec. `source`, `compile.include_dirs`, `save` and @paths in `args`, `globals`
/// and `expect` are relative to the spec's folder (made absolute here); base_dir is that folder.
/// Throws Error(usage) naming the file and the key for unknown keys (typo protection), values of
/// the wrong type and invalid JSON.
[[nodiscard]] RunRequest read_spec(const std::filesystem::path& path);

/// Throws Error(usage) "NAME: unknown key 'WHERE.KEY' (did you mean 'K'?)" for the first key of
/// `object` not in `known`.
void check_known_keys(const nlohmann::json& object, const std::string& name,
                      const std::string& where, std::span<const std::string_view> known);

/// The same from an already parsed document; `name` is used in messages and relative paths
/// resolve against `dir`.
[[nodiscard]] RunRequest spec_from_json(const nlohmann::json& doc, const std::string& name,
                                        const std::filesystem::path& dir);

/// The CUDA compiler a spec or flag asks for, as CompileOptions::compiler holds it: "auto" → ""
/// (NVRTC when it can be found, else clang), "nvrtc", "clang". Throws Error(usage) naming `field`
/// for anything else.
[[nodiscard]] std::string compiler_choice(const std::string& text, const std::string& field);

/// A watchdog limit as given (--timeout, "timeout"): NaN, zero or negative is an Error(usage)
/// naming `field`; beyond k_max_watchdog_s (infinity included) it means no limit (nullopt).
[[nodiscard]] std::optional<double> watchdog_limit(double seconds, std::string_view field);

/// A tolerance as given (--rtol, --atol): NaN or negative is an Error(usage) naming `field`.
[[nodiscard]] double tolerance(double value, std::string_view field);

} // namespace gpurun
