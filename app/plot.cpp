// `gpurun plot RESULTS.json`: draws a benchmark sweep from a gpurun bench JSON file as SVG.
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/command.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/file_identity.hpp"
#include "base/format.hpp"
#include "bench/result_json.hpp"
#include "output/plot.hpp"

namespace gpurun {

namespace {

struct PlotArgs {
  std::string results;
  std::string output;
  std::optional<std::string> x_axis;
  std::string metric = "auto";
  bool roofline = false;
};

} // namespace

void add_plot_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand(
      "plot",
      "Draw a benchmark sweep from gpurun bench JSON as SVG (time or GB/s against an axis)");
  cmd->footer("Examples:\n"
              "  gpurun bench kernels/suites/stream.json -a 'N[pow2]=[16:26]' --json stream.json\n"
              "  gpurun plot stream.json                      # writes stream.svg\n"
              "  gpurun plot stream.json -o time.svg --y time\n"
              "  gpurun plot results.json --x block --y flops\n"
              "  gpurun bench kernels/suites/matmul.json --metrics roofline --json mm.json\n"
              "  gpurun plot mm.json --roofline               # each case on the device's roofline");
  auto args = std::make_shared<PlotArgs>();
  cmd->add_option("RESULTS", args->results, "A gpurun bench --json file")->required();
  cmd->add_option("-o,--output", args->output, "The SVG to write (default: RESULTS with .svg)");
  cmd->add_option("--x", args->x_axis, "The axis to plot against (default: the longest sweep)");
  cmd->add_option("--y", args->metric,
                  "What to plot: auto (GB/s when the cases declare bytes, else time), time, "
                  "bandwidth, flops");
  cmd->add_flag("--roofline", args->roofline,
                "Place each case on the device's roofline instead (log-log: GFLOP/s against "
                "flop/byte; from --metrics roofline counters, or declared bytes and flops)");
  cmd->callback([args] {
    const PlotMetric metric = parse_plot_metric(args->metric, "--y");
    std::filesystem::path output = args->output;
    if (output.empty())
      output = std::filesystem::path(args->results).replace_extension(".svg");
    const NamedInput results[] = {{args->results, "the results file"}};
    check_output_is_no_input("-o", output, results);
    check_plot_target(output, "-o");
    if (args->roofline) {
      const RooflinePlotData plot = make_roofline_plot(
          bench::read_result_json(args->results, "bench result"), args->results);
      write_roofline_svg(plot, output);
      fmt::print(writes_to_standard_output(output) ? stderr : stdout, "wrote {} ({} case{} on the "
                 "{} roofline{})\n", output.string(), plot.points.size(),
                 plot.points.size() == 1 ? "" : "s", plot.roofline.source,
                 plot.skipped > 0 ? fmt::format(", {} without a point left out", plot.skipped)
                                  : std::string());
      return;
    }
    const PlotData plot = make_plot(bench::read_result_json(args->results, "bench result"),
                                    args->results, args->x_axis, metric);
    write_plot_svg(plot, output);
    // On stderr when the SVG itself goes to standard output.
    fmt::print(writes_to_standard_output(output) ? stderr : stdout,
               "wrote {} ({} series against {}{})\n", output.string(), plot.series.size(),
               plot.x_axis,
               plot.skipped > 0 ? fmt::format(", {} cases without a value left out", plot.skipped)
                                : std::string());
  });
}

} // namespace gpurun
