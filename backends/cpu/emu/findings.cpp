#include "backends/cpu/emu/findings.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

namespace gpurun::emu {

const char* tool_name(Tool tool) noexcept {
  switch (tool) {
  case Tool::memcheck:
    return "memcheck";
  case Tool::racecheck:
    return "racecheck";
  case Tool::initcheck:
    return "initcheck";
  case Tool::synccheck:
    return "synccheck";
  }
  return "?";
}

std::vector<Finding> Findings::all() const {
  std::vector<Finding> sorted = m_all;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Finding& a, const Finding& b) { return a.order < b.order; });
  return sorted;
}

bool Findings::any_error() const noexcept {
  for (const Finding& f : m_all)
    if (f.severity == Severity::error)
      return true;
  return false;
}

namespace {

std::string plural(std::uint64_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

// "2 errors and 1 warning" / "3 errors"
std::string counts(std::uint64_t errors, std::uint64_t warnings) {
  if (errors && warnings)
    return fmt::format("{} and {}", plural(errors, "error"), plural(warnings, "warning"));
  return errors ? plural(errors, "error") : plural(warnings, "warning");
}

} // namespace

FindingsReport summarize(const std::vector<Finding>& findings, const std::string& kernel,
                         std::size_t limit) {
  constexpr std::size_t kTools = 4;
  std::array<std::uint64_t, kTools> errors{}, warnings{}, left_errors{}, left_warnings{};
  FindingsReport report;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    const auto t = static_cast<std::size_t>(f.tool);
    const bool error = f.severity == Severity::error;
    ++(error ? errors : warnings)[t];
    if (i < limit) {
      std::string repeats = f.count > 1 ? fmt::format(" [{} times]", f.count) : std::string();
      report.lines.push_back(fmt::format("{} {}: {}{}", tool_name(f.tool),
                                         error ? "error" : "warning", f.text, repeats));
    } else {
      ++(error ? left_errors : left_warnings)[t];
    }
  }
  std::vector<std::string> parts;
  std::vector<std::string> left;
  for (std::size_t t = 0; t < kTools; ++t) {
    const char* name = tool_name(static_cast<Tool>(t));
    if (errors[t] || warnings[t])
      parts.push_back(fmt::format("{} found {}", name, counts(errors[t], warnings[t])));
    if (left_errors[t] || left_warnings[t])
      left.push_back(fmt::format("{} {}", name, counts(left_errors[t], left_warnings[t])));
  }
  report.summary = fmt::format("kernel '{}': {}", kernel, fmt::join(parts, "; "));
  if (!left.empty())
    report.lines.push_back(fmt::format("… and {} more not shown (--max-findings {}): {}",
                                       findings.size() - limit, limit, fmt::join(left, ", ")));
  return report;
}

} // namespace gpurun::emu
