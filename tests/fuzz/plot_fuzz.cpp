// Plot input as `gpurun plot` reads it (base/json_read, bench/result_json, output/plot): JSON text
// → a bench report → the series, axis and scales of the plot, and the gnuplot script that draws
// them (gnuplot is not run). The first byte chooses the metric and whether the x axis is "N".
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "bench/result_json.hpp"
#include "output/plot.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace gpurun;
  const auto [choice, text] = fuzz::select(data, size, 8);
  constexpr PlotMetric k_metrics[] = {PlotMetric::automatic, PlotMetric::time,
                                      PlotMetric::bandwidth, PlotMetric::flops};
  const std::optional<std::string> x_axis =
      choice >= 4 ? std::optional<std::string>("N") : std::nullopt;
  try {
    const nlohmann::json doc = parse_json(text, "fuzz.json");
    const PlotData plot = make_plot(bench::parse_result_json(doc, "fuzz.json"), "fuzz.json", x_axis,
                                    k_metrics[choice % 4]);
    (void)gnuplot_script(plot, "/nonexistent-fuzz/plot.svg");
  } catch (const Error&) {
  }
  return 0;
}
