#pragma once
// `gpurun bench` results in each form: the aligned Markdown table shown on the console (and
// written by --md), Google Benchmark's JSON (--json; its tools/compare.py reads it, and so does
// `gpurun compare`) and CSV (--csv).
#include <string>

#include <nlohmann/json.hpp>

#include "base/format.hpp"
#include "bench/report.hpp"

namespace gpurun {

/// The aligned Markdown table, one row per case (a skipped case names its reason in the
/// warnings column).
[[nodiscard]] std::string bench_markdown(const bench::BenchReport& report);

/// Google Benchmark's JSON document (json_schema_version 1) with gpurun's own fields, every raw
/// sample included (docs/bench.md).
[[nodiscard]] nlohmann::ordered_json bench_json(const bench::BenchReport& report);

/// One line per case, a header first.
[[nodiscard]] std::string bench_csv(const bench::BenchReport& report);

} // namespace gpurun
