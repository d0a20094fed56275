#pragma once
// The one reader of the JSON documents a user hands gpurun: run specs, suites, bench results,
// merge shards, plot input, --balance-from timings. A document is read size-checked
// (base/read_file), refused when it nests deeper than k_max_json_depth (nlohmann's tree is
// copied, compared, printed and destroyed by recursion, so 200 000 levels overflow the stack) and
// parsed; every failure is a usage Error naming the file.
#include <cstddef>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace gpurun {

/// How deeply arrays and objects may nest in a document gpurun reads (docs/exit-codes.md).
inline constexpr std::size_t k_max_json_depth = 512;

/// An nlohmann exception's message without its "[json.exception.out_of_range.403] " tag.
[[nodiscard]] std::string json_error_text(const std::exception& e);

/// Parses `text` as one JSON document (nlohmann::json or nlohmann::ordered_json). Throws
/// Error(usage) "NAME: invalid JSON: …" with the line and column for a syntax error, a number
/// beyond a double (1e400), a NUL byte (the parser would take it for the end and ignore what
/// follows) and nesting deeper than k_max_json_depth; "NAME: too large to hold in memory" when the
/// tree does not fit.
template <class Json = nlohmann::json>
[[nodiscard]] Json parse_json(std::string_view text, std::string_view name);

/// Reads the file at `path` (a regular file of at most k_max_read_bytes) and parses it. Messages
/// begin with `label` (the path when empty: "--balance-from PATH" names the option too); one that
/// cannot be read is "LABEL: cannot read the WHAT file: WHY" ("suite", "bench result").
template <class Json = nlohmann::json>
[[nodiscard]] Json read_json_file(const std::filesystem::path& path, std::string_view what,
                                  std::string_view label = {});

} // namespace gpurun
