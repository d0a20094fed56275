#pragma once
// The rows of a thread table in each output format: the human table grouped by block with the
// middle of a long listing elided, CSV, a Markdown pipe table, and JSON streamed row by row, so
// that any launch size prints without building the rows in memory.
#include <cstdint>
#include <optional>
#include <ostream>

#include <nlohmann/json_fwd.hpp>

#include "output/output_format.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

class RowFilter;

/// What to print of a table.
struct TableView {
  OutputFormat format = OutputFormat::human;
  /// Most rows to print; empty = the format's default (table and md: 64; csv and json: all).
  /// The table and md views show the first and last rows around an elision line; csv and json
  /// show the first rows.
  std::optional<std::uint64_t> limit;
  const RowFilter* filter = nullptr; ///< --where; nullptr = every row
};

/// Rows per format when --limit is not given.
[[nodiscard]] std::optional<std::uint64_t> default_row_limit(OutputFormat format);

/// Writes the rows in `view.format` (json: a bare array). Returns how many rows were written
/// and whether matching rows were left out.
struct RowsWritten {
  std::uint64_t shown = 0;
  bool truncated = false;
};
RowsWritten write_rows(std::ostream& out, const ThreadTable& table, const TableView& view);

/// Writes `document` (a JSON object) with "rows", "rows_shown" and "truncated" appended, without
/// building the rows in memory.
void write_json_document(std::ostream& out, const nlohmann::ordered_json& document,
                         const ThreadTable& table, const TableView& view);

} // namespace gpurun
