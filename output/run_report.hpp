#pragma once
// What `gpurun run` prints: a human report (launch line, buffers, checks, timings, stats) and one
// JSON document with the same content.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "pipeline/run_request.hpp"

namespace gpurun {

/// Buffers with at most this many elements print in full; longer ones are elided NumPy-style.
inline constexpr std::size_t k_print_full_elements = 32;
/// Buffers with at most this many elements carry their values in the JSON report.
inline constexpr std::size_t k_json_max_values = 1024;

/// "scalar_add<<<(1,1,1),(20,1,1)>>> on cpu:0 gpurun PTX emulator\n" (with " shared=N" when the
/// launch has dynamic shared memory). Printed before the launch so device printf output follows.
[[nodiscard]] std::string render_launch_line(const RunOutcome& outcome);

/// Everything after the launch line: the selected buffers ("outputs" — the default, "all",
/// "none" or comma-separated names; outputs print before and after, inputs once), the checks
/// with their first mismatches, the timings line, the stats, and the counters and roofline of
/// --metrics. Throws Error(usage) for a name in
/// `print_selection` that is not a buffer of the run. With `color`, ok and FAILED are coloured.
[[nodiscard]] std::string render_results(const RunOutcome& outcome,
                                         const std::string& print_selection, bool color = false);

/// The JSON report: kernel, lowered_name, compiler, backend, device, device_index, grid, block,
/// shared_bytes, attributes, timings_ms {init, compile, cache_hit, h2d, kernel, kernel_samples,
/// d2h, total}, buffers {NAME: {dtype, shape, input, values}} (values when at most
/// k_json_max_values elements; NaN and infinities as the strings "nan", "inf", "-inf"), checks,
/// stats, counters and roofline (--metrics: output/counter_report.hpp; roofline has its roofs),
/// status, exit_code (0 or 1), and device_output when the outcome carries it.
[[nodiscard]] nlohmann::json to_json(const RunOutcome& outcome);
/// One kernel's theoretical occupancy (`compile --occupancy`, a run's report on a CUDA device).
[[nodiscard]] nlohmann::json occupancy_json(const arch::Occupancy& o);
/// "occupancy: 8 blocks of 256 threads per SM of sm_90 (64/64 warps, 100.0%), limited by warps".
[[nodiscard]] std::string occupancy_line(const arch::Occupancy& o);

} // namespace gpurun
