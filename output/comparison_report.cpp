#include "output/comparison_report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/format.hpp"
#include "output/color.hpp"

namespace gpurun {

namespace {

using bench::CaseComparison;
using bench::ComparisonReport;
using bench::Verdict;

constexpr std::size_t k_columns = 6;
using Row = std::array<std::string, k_columns>;

/// A pipe inside a cell would end it.
std::string escape_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}

std::string optional_seconds(const std::optional<double>& s) {
  return s ? format_duration(*s) : "-";
}

std::string change_text(const std::optional<double>& change) {
  return change ? fmt::format("{:+.2f}%", 100 * *change) : "-";
}

std::string p_value_text(const std::optional<double>& p) {
  if (!p)
    return "-";
  return *p < 1e-4 ? "<0.0001" : fmt::format("{:.4f}", *p);
}

/// Why a noisy case is undecided: "undecided: noise too high for 5%; 95% CI -3.10% to +7.40%".
std::string undecided_text(const CaseComparison& c, const bench::CompareOptions& options) {
  std::string text = fmt::format("undecided: noise too high for {:g}%", 100 * options.threshold);
  if (c.interval)
    text += fmt::format("; {:g}% CI {:+.2f}% to {:+.2f}%", 100 * (1 - options.alpha),
                        100 * c.interval->low, 100 * c.interval->high);
  return text;
}

std::string verdict_text(const CaseComparison& c, const bench::CompareOptions& options) {
  std::string text(bench::to_string(c.verdict));
  if (c.verdict == Verdict::skipped && !c.reason.empty())
    text += " (" + c.reason + ")";
  if (c.verdict == Verdict::noisy)
    text += " (" + undecided_text(c, options) + ")";
  return escape_cell(text);
}

Row row_of(const CaseComparison& c, const bench::CompareOptions& options) {
  return {escape_cell(c.name),
          optional_seconds(c.baseline_median_s),
          optional_seconds(c.new_median_s),
          change_text(c.change),
          p_value_text(c.p_value),
          verdict_text(c, options)};
}

std::optional<Tone> verdict_tone(Verdict verdict) {
  switch (verdict) {
  case Verdict::slower:
    return Tone::bad;
  case Verdict::faster:
    return Tone::good;
  case Verdict::noisy:
    return Tone::warn;
  default:
    return std::nullopt;
  }
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? nlohmann::ordered_json(*v) : nlohmann::ordered_json();
}

} // namespace

std::string summary_line(const ComparisonReport& report) {
  const auto s = report.summary();
  std::string line =
      fmt::format("{} slower, {} faster, {} same, {} noisy", s.slower, s.faster, s.same, s.noisy);
  std::vector<std::string> extra;
  if (s.only_in_baseline != 0)
    extra.push_back(fmt::format("{} only in baseline", s.only_in_baseline));
  if (s.only_in_new != 0)
    extra.push_back(fmt::format("{} only in new", s.only_in_new));
  if (s.skipped != 0)
    extra.push_back(fmt::format("{} skipped", s.skipped));
  if (!extra.empty())
    line += fmt::format("; {}", fmt::join(extra, ", "));
  return line;
}

std::string render_comparison_table(const ComparisonReport& report, bool color) {
  std::vector<Row> rows{{"case", "baseline", "new", "change", "p-value", "verdict"}};
  for (const auto& c : report.cases)
    rows.push_back(row_of(c, report.options));
  std::array<std::size_t, k_columns> width{};
  for (const auto& row : rows)
    for (std::size_t i = 0; i < k_columns; ++i)
      width[i] = std::max({width[i], display_width(row[i]), std::size_t{3}});
  // Names and verdicts read left to right; numbers line up on their right.
  constexpr std::array<bool, k_columns> right{false, true, true, true, true, false};

  std::string text;
  const auto add_row = [&](const Row& row, std::optional<Tone> verdict_tone) {
    for (std::size_t i = 0; i < k_columns; ++i) {
      std::string cell = right[i] ? fmt::format("{:>{}}", row[i], width[i])
                                  : fmt::format("{:<{}}", row[i], width[i]);
      if (i == k_columns - 1 && verdict_tone)
        cell = paint(*verdict_tone, cell, color);
      text += "| " + cell + " ";
    }
    text += "|\n";
  };
  add_row(rows.front(), std::nullopt);
  for (std::size_t i = 0; i < k_columns; ++i)
    text += right[i] ? fmt::format("|-{:-<{}}:", "", width[i])
                     : fmt::format("|:{:-<{}}-", "", width[i]);
  text += "|\n";
  for (std::size_t r = 1; r < rows.size(); ++r)
    add_row(rows[r], verdict_tone(report.cases[r - 1].verdict));
  text += '\n' + summary_line(report) + '\n';
  return text;
}

nlohmann::ordered_json comparison_json(const ComparisonReport& report) {
  using nlohmann::ordered_json;
  ordered_json cases = ordered_json::array();
  for (const auto& c : report.cases) {
    ordered_json entry{{"name", c.name},
                       {"verdict", bench::json_name(c.verdict)},
                       {"baseline_median_s", optional_json(c.baseline_median_s)},
                       {"new_median_s", optional_json(c.new_median_s)},
                       {"baseline_samples", c.baseline_samples},
                       {"new_samples", c.new_samples},
                       {"change", optional_json(c.change)},
                       {"p_value", optional_json(c.p_value)},
                       {"change_low", c.interval ? optional_json(c.interval->low) : nullptr},
                       {"change_high", c.interval ? optional_json(c.interval->high) : nullptr}};
    if (report.baseline_runs > 1)
      entry["baseline_runs"] = c.baseline_runs;
    if (!c.reason.empty())
      entry["reason"] = c.reason;
    else if (c.verdict == Verdict::noisy)
      entry["reason"] = undecided_text(c, report.options);
    cases.push_back(std::move(entry));
  }
  const auto s = report.summary();
  return {{"baseline",
           {{"file", report.baseline_file},
            {"format", bench::to_string(report.baseline_format)},
            {"runs", report.baseline_runs}}},
          {"new", {{"file", report.new_file}, {"format", bench::to_string(report.new_format)}}},
          {"alpha", report.options.alpha},
          {"threshold", report.options.threshold},
          {"cases", cases},
          {"summary",
           {{"slower", s.slower},
            {"faster", s.faster},
            {"same", s.same},
            {"noisy", s.noisy},
            {"only_in_baseline", s.only_in_baseline},
            {"only_in_new", s.only_in_new},
            {"skipped", s.skipped}}},
          {"warnings", report.warnings},
          {"exit_code", report.exit_code()}};
}

} // namespace gpurun
