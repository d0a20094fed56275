#pragma once
// `gpurun bench` results as text: the aligned Markdown table shown on the console (and written by
// --md) and CSV (--csv). The JSON (--json) is bench/result_json's.
#include <string>
#include <vector>

#include "base/format.hpp"
#include "bench/report.hpp"

namespace gpurun {

/// The aligned Markdown table, one row per case (a skipped case names its reason in the
/// warnings column).
[[nodiscard]] std::string bench_markdown(const bench::BenchReport& report);

/// The cases of one device model (a multi-device report keeps models apart): a title
/// ("gpurun PTX emulator (sm_90), devices 0, 1") and the report narrowed to that model's cases and
/// devices. A one-device report is one section with an empty title.
struct ModelSection {
  std::string title;
  bench::BenchReport report;
};
[[nodiscard]] std::vector<ModelSection> bench_model_sections(const bench::BenchReport& report);

/// The devices of a multi-device report, one line each: index, model, cases measured, time busy
/// and, for a device that failed, why.
[[nodiscard]] std::string bench_devices_text(const bench::BenchReport& report);

/// `bench --p2p`'s matrix as an aligned Markdown table of GB/s (rows: from, columns: to; a copy
/// staged through host memory is marked "(host)"), then a line per pair that failed.
[[nodiscard]] std::string p2p_markdown(const bench::PeerMatrix& matrix);

/// One line per case, a header first.
[[nodiscard]] std::string bench_csv(const bench::BenchReport& report);

} // namespace gpurun
