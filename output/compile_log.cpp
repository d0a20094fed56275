#include "output/compile_log.hpp"

#include <utility>
#include <vector>

#include <fmt/format.h>

namespace gpurun {
namespace {

enum class Severity { none, error, warning, other };

bool digits_before(std::string_view line, std::size_t end, std::size_t& begin) {
  begin = end;
  while (begin > 0 && line[begin - 1] >= '0' && line[begin - 1] <= '9')
    --begin;
  return begin < end;
}

// Whether what ends at `end` is a location: "(12)", ":12" or ":12:5" after a file name.
bool location_ends_at(std::string_view line, std::size_t end) {
  std::size_t begin = 0;
  if (end > 0 && line[end - 1] == ')')
    return digits_before(line, end - 1, begin) && begin > 1 && line[begin - 1] == '(';
  if (!digits_before(line, end, begin) || begin < 2 || line[begin - 1] != ':')
    return false;
  std::size_t before = 0;
  if (digits_before(line, begin - 1, before) && before > 1 && line[before - 1] == ':')
    return true; // file:12:5
  return true;   // file:12
}

// "file(12): error: …" (NVRTC, nvcc's front end), "file:12:5: error: …" (clang, gcc),
// "file:12: error: …"; warnings, remarks and notes likewise.
Severity severity_of(std::string_view line) {
  static constexpr std::pair<std::string_view, Severity> kinds[] = {
      {": catastrophic error", Severity::error},
      {": fatal error", Severity::error},
      {": error", Severity::error},
      {": warning", Severity::warning},
      {": remark", Severity::other},
      {": note", Severity::other}};
  for (const auto& [word, severity] : kinds) {
    const auto at = line.find(word);
    if (at == std::string_view::npos || at == 0)
      continue;
    const std::size_t after = at + word.size();
    if (after < line.size() && line[after] != ':' && line[after] != ' ' && line[after] != '#')
      continue;
    if (location_ends_at(line, at))
      return severity;
  }
  return Severity::none;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    out.push_back(text.substr(0, end));
    if (end == std::string_view::npos)
      break;
    text.remove_prefix(end + 1);
  }
  return out;
}

bool is_count_line(std::string_view line) {
  return line.find(" detected in the compilation of ") != std::string_view::npos ||
         (line.ends_with(" generated.") && line.find("error") != std::string_view::npos);
}

} // namespace

std::string without_jit_hints(std::string_view log) {
  // " Consider using -default-device flag to process unannotated functions as __device__
  // functions in JIT mode" (and its namespace-scope-variable twin).
  static constexpr std::string_view start = " Consider using -default-device flag";
  static constexpr std::string_view end = "in JIT mode";
  std::string out(log);
  for (auto at = out.find(start); at != std::string::npos; at = out.find(start, at)) {
    const auto stop = out.find(end, at);
    const auto line_end = out.find('\n', at);
    if (stop == std::string::npos || (line_end != std::string::npos && stop > line_end)) {
      at += start.size();
      continue;
    }
    out.erase(at, stop + end.size() - at);
  }
  return out;
}

CompileLogSummary summarize_compile_log(std::string_view log, std::size_t max_errors,
                                        std::size_t max_lines) {
  CompileLogSummary summary;
  const std::string cleaned = without_jit_hints(log);
  const auto lines = lines_of(cleaned);
  // Diagnostics: a header line and the lines up to the next header.
  struct Diagnostic {
    Severity severity;
    std::size_t first;
    std::size_t last;
  };
  std::vector<Diagnostic> diagnostics;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Severity s = severity_of(lines[i]);
    if (s != Severity::none) {
      diagnostics.push_back({s, i, i + 1});
      if (s == Severity::error)
        ++summary.errors;
      else if (s == Severity::warning)
        ++summary.warnings;
    } else if (!diagnostics.empty() && !is_count_line(lines[i])) {
      diagnostics.back().last = i + 1;
    }
  }
  if (summary.errors == 0) {
    for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i)
      summary.text += fmt::format("{}\n", lines[i]);
    summary.shortened = lines.size() > max_lines;
    while (!summary.text.empty() && summary.text.back() == '\n')
      summary.text.pop_back();
    if (summary.shortened)
      summary.text += fmt::format("\n({} more lines; full log: -v, or error.log in --json)",
                                  lines.size() - max_lines);
    return summary;
  }
  std::size_t shown = 0;
  std::size_t shown_lines = 0;
  for (std::size_t d = 0; d < diagnostics.size() && shown < max_errors; ++d) {
    const Diagnostic& diag = diagnostics[d];
    if (diag.severity != Severity::error)
      continue;
    ++shown;
    // The error and its notes ("note: declared here") that follow it.
    std::size_t last = diag.last;
    while (d + 1 < diagnostics.size() && diagnostics[d + 1].severity == Severity::other)
      last = diagnostics[++d].last;
    while (last > diag.first + 1 &&
           lines[last - 1].find_first_not_of(" \t\r") == std::string_view::npos)
      --last;
    for (std::size_t i = diag.first; i < last; ++i, ++shown_lines)
      summary.text += fmt::format("{}\n", lines[i]);
  }
  const bool hidden_lines = shown_lines < lines.size();
  summary.shortened = shown < summary.errors || summary.warnings > 0 || hidden_lines;
  const std::string warnings =
      summary.warnings == 0
          ? ""
          : fmt::format(", {} warning{}", summary.warnings, summary.warnings == 1 ? "" : "s");
  summary.text +=
      fmt::format("{} error{}{}", summary.errors, summary.errors == 1 ? "" : "s", warnings);
  if (summary.shortened)
    summary.text += "; full log: -v, or error.log in --json";
  return summary;
}

} // namespace gpurun
