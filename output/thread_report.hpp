#pragma once
// The summaries around a thread table: the warp summary, the capture check and the block
// placement of `threads --run`, as human lines and as JSON.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "base/dims.hpp"
#include "output/reports.hpp"
#include "threads/thread_capture.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

/// "[x,y,z]" as JSON.
[[nodiscard]] nlohmann::ordered_json dims_json(const Dim3& d);

[[nodiscard]] nlohmann::ordered_json to_json(const WarpSummary& summary);
/// Human-readable lines, each ending in '\n'.
[[nodiscard]] std::string format_summary(const WarpSummary& summary);

/// "capture check: 128 threads match …" or the differences, one per line.
[[nodiscard]] std::string format_check(const CaptureCheck& check);
[[nodiscard]] nlohmann::ordered_json to_json(const CaptureCheck& check);

/// Lines ending in '\n'; `device_sms` is the device's SM count (0 when unknown).
[[nodiscard]] std::string format_placement(const Placement& placement, int device_sms);
[[nodiscard]] nlohmann::ordered_json to_json(const Placement& placement);

/// The lines above a thread table: the warp summary, then where the warp size came from (or,
/// with --run, where and how the rows were captured).
[[nodiscard]] std::string format_threads_head(const ThreadsReport& report);

/// The lines below a captured table: the capture check and the placement.
[[nodiscard]] std::string format_capture(const CaptureReport& capture);

/// The JSON document's fields before "rows".
[[nodiscard]] nlohmann::ordered_json threads_document_head(const ThreadsReport& report);

/// Lines as a Markdown bullet list ("- line", leading spaces dropped).
[[nodiscard]] std::string markdown_list(const std::string& lines);

} // namespace gpurun
