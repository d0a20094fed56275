#include "output/thread_rows.hpp"

#include <algorithm>
#include <deque>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "threads/thread_filter.hpp"

namespace gpurun {

namespace {

std::span<const std::uint64_t> values_of(const RowValues& row, std::size_t columns) {
  return {row.data(), columns};
}

// Counting the rows an elision line stands for means scanning them when a filter is given; beyond
// this many the line says "more rows" instead of a number, so a listing of a huge launch stays
// fast.
constexpr std::uint64_t max_elision_scan = std::uint64_t{1} << 24;

/// The rows a view selects: the first ones, the last ones, and what lies between.
struct Selection {
  std::vector<std::uint64_t> head;
  std::vector<std::uint64_t> tail;     ///< ascending
  std::optional<std::uint64_t> elided; ///< rows left out between head and tail, when counted
  bool truncated = false;
};

class Matcher {
public:
  Matcher(const ThreadTable& table, const RowFilter* filter)
      : m_table(table), m_filter(filter), m_columns(table.columns().size()) {}
  [[nodiscard]] bool operator()(std::uint64_t index) const {
    if (m_filter == nullptr)
      return true;
    const auto row = m_table.row(index);
    return m_filter->matches(values_of(row, m_columns));
  }

private:
  const ThreadTable& m_table;
  const RowFilter* m_filter;
  std::size_t m_columns;
};

// First ceil(limit/2) matching rows and last floor(limit/2), as the table and md views show them.
Selection select_head_tail(const ThreadTable& table, const RowFilter* filter, std::uint64_t limit) {
  Selection s;
  const Matcher match(table, filter);
  const std::uint64_t n = table.size();
  const std::uint64_t head_want = limit - limit / 2;
  std::uint64_t i = 0;
  for (; i < n && s.head.size() < head_want; ++i)
    if (match(i))
      s.head.push_back(i);
  if (i == n)
    return s;
  // Scan backwards for the tail so a listing of a huge launch touches only the rows it shows.
  std::uint64_t j = n;
  std::deque<std::uint64_t> tail;
  const std::uint64_t tail_want = limit / 2;
  std::uint64_t scanned_from = n;
  while (j > i && tail.size() < tail_want) {
    --j;
    if (match(j))
      tail.push_front(j);
    scanned_from = j;
  }
  s.tail.assign(tail.begin(), tail.end());
  if (scanned_from <= i)
    return s; // everything between head and tail was seen
  if (filter == nullptr) {
    s.elided = scanned_from - i;
  } else if (scanned_from - i <= max_elision_scan) {
    std::uint64_t count = 0;
    for (std::uint64_t k = i; k < scanned_from; ++k)
      count += match(k) ? 1 : 0;
    s.elided = count;
  }
  s.truncated = !s.elided || *s.elided > 0;
  return s;
}

/// Calls `visit(index)` for the first `limit` matching rows; returns what was written.
template <typename Visit>
RowsWritten for_first_rows(const ThreadTable& table, const RowFilter* filter,
                           std::optional<std::uint64_t> limit, Visit visit) {
  RowsWritten written;
  const Matcher match(table, filter);
  const std::uint64_t n = table.size();
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!match(i))
      continue;
    if (limit && written.shown >= *limit) {
      written.truncated = true;
      break;
    }
    visit(i);
    ++written.shown;
  }
  return written;
}

std::string elision_text(const Selection& s) {
  if (s.elided)
    return fmt::format("{} row{} not shown", *s.elided, *s.elided == 1 ? "" : "s");
  return "more rows not shown";
}

RowsWritten write_csv(std::ostream& out, const ThreadTable& table, const TableView& view) {
  const auto& cols = table.columns();
  out << fmt::format("{}\n", fmt::join(cols, ","));
  std::string line;
  return for_first_rows(table, view.filter, view.limit, [&](std::uint64_t i) {
    const auto row = table.row(i);
    line.clear();
    for (std::size_t c = 0; c < cols.size(); ++c) {
      if (c != 0)
        line += ',';
      fmt::format_to(std::back_inserter(line), "{}", row[c]);
    }
    line += '\n';
    out << line;
  });
}

RowsWritten write_json_rows(std::ostream& out, const ThreadTable& table, const TableView& view,
                            std::string_view indent = "  ") {
  const auto& cols = table.columns();
  out << '[';
  std::string line;
  bool first = true;
  auto written = for_first_rows(table, view.filter, view.limit, [&](std::uint64_t i) {
    const auto row = table.row(i);
    line.assign(first ? "\n" : ",\n");
    line += indent;
    line += '{';
    first = false;
    for (std::size_t c = 0; c < cols.size(); ++c)
      fmt::format_to(std::back_inserter(line), "{}\"{}\":{}", c == 0 ? "" : ",", cols[c], row[c]);
    line += '}';
    out << line;
  });
  out << (first ? std::string("]") : fmt::format("\n{}]", indent.substr(2)));
  return written;
}

std::size_t digits(std::uint64_t v) {
  return fmt::formatted_size("{}", v);
}

std::vector<std::size_t> column_widths(const ThreadTable& table, const Selection& s,
                                       std::size_t first_column) {
  const auto& cols = table.columns();
  std::vector<std::size_t> widths(cols.size(), 0);
  for (std::size_t c = first_column; c < cols.size(); ++c)
    widths[c] = cols[c].size();
  auto widen = [&](std::uint64_t i) {
    const auto row = table.row(i);
    for (std::size_t c = first_column; c < cols.size(); ++c)
      widths[c] = std::max(widths[c], digits(row[c]));
  };
  std::for_each(s.head.begin(), s.head.end(), widen);
  std::for_each(s.tail.begin(), s.tail.end(), widen);
  return widths;
}

// Grouped by block: a line per block, the column header under it, a blank line between warps.
RowsWritten write_grouped_table(std::ostream& out, const ThreadTable& table, const Selection& s) {
  constexpr std::size_t first = col_thread_x; // block indices live in the group line
  const auto& cols = table.columns();
  const auto widths = column_widths(table, s, first);
  std::string header = " ";
  for (std::size_t c = first; c < cols.size(); ++c)
    header += fmt::format(" {:>{}}", cols[c], widths[c]);
  header += '\n';

  bool have_previous = false; // within a run of consecutive rows
  bool printed_any = false;
  RowValues previous{};
  auto print = [&](std::uint64_t i) {
    const auto row = table.row(i);
    const bool new_block = !have_previous || row[col_block_x] != previous[col_block_x] ||
                           row[col_block_y] != previous[col_block_y] ||
                           row[col_block_z] != previous[col_block_z];
    if (new_block) {
      out << fmt::format("{}block ({},{},{})\n{}", printed_any ? "\n" : "", row[col_block_x],
                         row[col_block_y], row[col_block_z], header);
    } else if (row[col_warp] != previous[col_warp]) {
      out << '\n';
    }
    std::string line = " ";
    for (std::size_t c = first; c < cols.size(); ++c)
      fmt::format_to(std::back_inserter(line), " {:>{}}", row[c], widths[c]);
    line += '\n';
    out << line;
    previous = row;
    have_previous = true;
    printed_any = true;
  };
  std::for_each(s.head.begin(), s.head.end(), print);
  // --limit 0 asks for the summary alone: no rows, so nothing to say is left out.
  if (s.truncated && !(s.head.empty() && s.tail.empty())) {
    out << fmt::format("{}  … {} …\n", s.head.empty() ? "" : "\n", elision_text(s));
    have_previous = false;
  }
  std::for_each(s.tail.begin(), s.tail.end(), print);
  return {s.head.size() + s.tail.size(), s.truncated};
}

RowsWritten write_markdown(std::ostream& out, const ThreadTable& table, const Selection& s) {
  const auto& cols = table.columns();
  const auto widths = column_widths(table, s, 0);
  std::string line = "|";
  for (std::size_t c = 0; c < cols.size(); ++c)
    line += fmt::format(" {:>{}} |", cols[c], widths[c]);
  line += "\n|";
  for (std::size_t c = 0; c < cols.size(); ++c)
    line += fmt::format(" {:->{}}: |", "", widths[c] - 1);
  out << line << '\n';
  auto print = [&](std::uint64_t i) {
    const auto row = table.row(i);
    std::string text = "|";
    for (std::size_t c = 0; c < cols.size(); ++c)
      fmt::format_to(std::back_inserter(text), " {:>{}} |", row[c], widths[c]);
    out << text << '\n';
  };
  std::for_each(s.head.begin(), s.head.end(), print);
  if (s.truncated) {
    std::string text = "|";
    for (std::size_t c = 0; c < cols.size(); ++c)
      text += fmt::format(" {:>{}} |", "…", widths[c]);
    out << text << '\n';
  }
  std::for_each(s.tail.begin(), s.tail.end(), print);
  if (s.truncated)
    out << "\n_" << elision_text(s) << "._\n";
  return {s.head.size() + s.tail.size(), s.truncated};
}

} // namespace

std::optional<std::uint64_t> default_row_limit(OutputFormat format) {
  if (format == OutputFormat::human || format == OutputFormat::md)
    return 64;
  return std::nullopt;
}

RowsWritten write_rows(std::ostream& out, const ThreadTable& table, const TableView& view) {
  const auto limit = view.limit ? view.limit : default_row_limit(view.format);
  switch (view.format) {
  case OutputFormat::csv:
    return write_csv(out, table, view);
  case OutputFormat::json:
    return write_json_rows(out, table, TableView{view.format, limit, view.filter});
  case OutputFormat::human:
  case OutputFormat::md: {
    const auto selection = limit ? select_head_tail(table, view.filter, *limit)
                                 : select_head_tail(table, view.filter, table.size());
    return view.format == OutputFormat::human ? write_grouped_table(out, table, selection)
                                              : write_markdown(out, table, selection);
  }
  }
  return {};
}

void write_json_document(std::ostream& out, const nlohmann::ordered_json& document,
                         const ThreadTable& table, const TableView& view) {
  std::string head = json_text(document, 2);
  // Reopen the object so the rows stream in after the other fields.
  head.erase(head.find_last_of('}'));
  while (!head.empty() && (head.back() == '\n' || head.back() == ' '))
    head.pop_back();
  out << head << (document.empty() ? "\n  " : ",\n  ") << "\"rows\": ";
  const auto written = write_json_rows(out, table, view, "    ");
  out << fmt::format(",\n  \"rows_shown\": {},\n  \"truncated\": {}\n}}\n", written.shown,
                     written.truncated);
}

} // namespace gpurun
