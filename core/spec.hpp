#pragma once
// The JSON run spec (docs/spec.md): the same content as the run flags, in a file.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/run_request.hpp"

namespace gpurun {

/// Reads a run spec. `source`, `compile.include_dirs`, `save` and @paths in `args`, `globals`
/// and `expect` are relative to the spec's folder (made absolute here); base_dir is that folder.
/// Throws Error(usage) naming the file and the key for unknown keys (typo protection), values of
/// the wrong type and invalid JSON.
[[nodiscard]] RunRequest read_spec(const std::filesystem::path& path);

/// The same from an already parsed document; `name` is used in messages and relative paths
/// resolve against `dir`.
[[nodiscard]] RunRequest spec_from_json(const nlohmann::json& doc, const std::string& name,
                                        const std::filesystem::path& dir);

/// The CUDA compiler a spec or flag asks for, as CompileOptions::compiler holds it: "auto" → ""
/// (NVRTC when it can be found, else clang), "nvrtc", "clang". Throws Error(usage) naming `field`
/// for anything else.
[[nodiscard]] std::string compiler_choice(const std::string& text, const std::string& field);

/// Flags override the file: each key in `given_flags` copies that field of `from_flags` over
/// `from_file`. Keys: source kernel grid block shared_bytes args globals expect rtol atol print
/// save repeat timeout backend device std arch compiler (replace); defines include_dirs options
/// (append to the spec's lists). base_dir becomes the flags' (when set): paths from the file are
/// already absolute, so command-line @paths resolve against the working directory.
void apply_overrides(RunRequest& from_file, const RunRequest& from_flags,
                     const std::set<std::string>& given_flags);

} // namespace gpurun
