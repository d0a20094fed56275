#pragma once
// The formats a command prints in. Every command has the human and the JSON form; tables (thread
// tables now, benchmark tables later) also come as CSV and Markdown.
#include <string_view>

namespace gpurun {

enum class OutputFormat { human, json, csv, md };

/// "table" (the human form), "json", "csv" or "md"; throws usage Error naming `flag` otherwise.
[[nodiscard]] OutputFormat parse_output_format(std::string_view text,
                                               std::string_view flag = "--format");

/// The name parse_output_format reads back ("table" for the human form).
[[nodiscard]] std::string_view format_name(OutputFormat format);

} // namespace gpurun
