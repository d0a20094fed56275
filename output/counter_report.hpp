#pragma once
// Hardware counters and rooflines as `run` and `bench` print them (--metrics): a counters block
// and a roofline line for people, and the device's metric catalog of `--metrics list` (their
// JSON forms are pipeline/counters.hpp's and pipeline/roofline.hpp's).
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "backends/backend.hpp"
#include "pipeline/roofline.hpp"

namespace gpurun {

/// "counters (CUPTI 13.0 range profiler, GH100; 2 passes):\n  dram__bytes.sum  8,388,608 byte\n…"
[[nodiscard]] std::string counters_text(const CounterReport& counters);

/// "roofline (fp32, counters): intensity 0.125 flop/byte, 412 GFLOP/s of a 599 GFLOP/s roof
/// (68.8%), memory-bound (ridge 13.9 flop/byte)\n"
[[nodiscard]] std::string roofline_text(const RooflinePoint& point);

/// "roofs (counters): 4.8 TB/s DRAM · fp32 66.9 TFLOP/s · fp64 33.5 TFLOP/s · fp16 …\n"
[[nodiscard]] std::string roofs_line(const Roofline& roofline);

/// `--metrics list`: one line per metric (name, kind, unit, description) after the collector.
[[nodiscard]] std::string catalog_text(const MetricCatalog& catalog);
[[nodiscard]] nlohmann::json catalog_json(const MetricCatalog& catalog);

} // namespace gpurun
