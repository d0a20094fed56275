#pragma once
// `gpurun compare`'s report as text (an aligned Markdown table and a one-line summary, for the
// terminal and for --md) and as a JSON document.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "bench/compare.hpp"

namespace gpurun {

/// "2 slower, 1 faster, 5 same, 0 noisy; 1 only in baseline" (the part after ';' lists only
/// what there is: only in baseline, only in new, skipped).
[[nodiscard]] std::string summary_line(const bench::ComparisonReport& report);

/// The table (case, baseline median, new median, change, p-value, verdict), columns padded to
/// line up, then the summary line. With `color`, verdicts are coloured (slower red, faster green,
/// too noisy yellow) without changing the columns' widths.
[[nodiscard]] std::string render_comparison_table(const bench::ComparisonReport& report,
                                                  bool color = false);

/// {"baseline", "new", "alpha", "threshold", "cases": [...], "summary": {...}, "exit_code"}.
[[nodiscard]] nlohmann::ordered_json comparison_json(const bench::ComparisonReport& report);

} // namespace gpurun
