#pragma once
// Plots of a benchmark sweep (`gpurun bench --plot FILE.svg`, `gpurun plot RESULTS.json`): time,
// bandwidth or GFLOP/s against one axis, one line per variant (the case and its other axes), log
// axes for sweeps over powers of two or decades, the device's peak bandwidth as a line. Drawn by
// gnuplot (Debian's gnuplot-nox), which gpurun runs with a script it writes; the SVG is written
// atomically.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/report.hpp"

namespace gpurun {

enum class PlotMetric { automatic, time, bandwidth, flops };

/// The most lines one plot draws: beyond this many, its key no longer fits beside it and the
/// colours repeat until no line can be told from another.
inline constexpr std::size_t k_max_plot_series = 64;

/// "auto", "time", "bandwidth" (also "gbs"), "flops"; throws usage Error naming `flag` otherwise.
[[nodiscard]] PlotMetric parse_plot_metric(std::string_view text, std::string_view flag);

struct PlotPoint {
  double x = 0;
  double y = 0;
};

struct PlotSeries {
  std::string title;             ///< "copy", "triad T=double"
  std::vector<PlotPoint> points; ///< ascending x
};

/// What a plot shows, taken from a bench report.
struct PlotData {
  std::string title;   ///< "stream on NVIDIA H200 (cold)"
  std::string x_axis;  ///< the swept axis
  std::string y_label; ///< "median time (µs)", "bandwidth (GB/s)", "GFLOP/s"
  PlotMetric metric = PlotMetric::time;
  bool log_x = false;
  int log_x_base = 10; ///< 2 for powers of two
  bool log_y = false;
  std::vector<PlotSeries> series;
  std::optional<double> peak_gbs;          ///< theoretical, on bandwidth plots
  std::optional<double> measured_peak_gbs; ///< bench --peak, on bandwidth plots
  std::size_t skipped = 0;                 ///< cases left out: skipped, or no value for the metric
};

/// Builds the plot of a bench report (`label` names it in errors: "--plot", the result file).
/// `x_axis`: the axis to plot against (default: the numeric axis with the most values). `metric`
/// automatic: bandwidth when the cases declare bytes, else time. Throws usage Error naming `label`
/// for a report without cases, an unknown or non-numeric axis, no case to plot, more than
/// k_max_plot_series lines (with their count). Linear in the number of cases.
[[nodiscard]] PlotData make_plot(const bench::BenchReport& report, std::string_view label,
                                 const std::optional<std::string>& x_axis, PlotMetric metric);

/// The gnuplot script that draws `plot` as SVG into `svg_path`.
[[nodiscard]] std::string gnuplot_script(const PlotData& plot,
                                         const std::filesystem::path& svg_path);

/// Before the work that a plot ends: `path` names a file in an existing folder (usage Error
/// naming `flag` otherwise) and gnuplot is installed (Error(unavailable) otherwise).
void check_plot_target(const std::filesystem::path& path, std::string_view flag);

/// Draws `plot` into `path` through gnuplot. Throws Error(unavailable) when gnuplot is not
/// installed or fails (with its message).
void write_plot_svg(const PlotData& plot, const std::filesystem::path& path);

/// A roofline plot (`gpurun plot --roofline`): the device's roofs, log-log, one point per case.
struct RooflinePlotData {
  struct Point {
    std::string title;     ///< the case's full name ("copy/N:1048576")
    std::string precision; ///< the roof it is set against
    double intensity = 0;  ///< flop/byte
    double gflops = 0;     ///< achieved
  };
  std::string title; ///< "stream on NVIDIA H200: roofline (counters)"
  Roofline roofline;
  std::vector<Point> points;
  std::size_t skipped = 0; ///< cases without a point: skipped, no roofline, or no flops
};

/// The roofline plot of a bench report. Throws usage Error naming `label` when the report has no
/// roofs (run the suite with --metrics roofline, or on a GPU with declared bytes and flops) or
/// no case with a point.
[[nodiscard]] RooflinePlotData make_roofline_plot(const bench::BenchReport& report,
                                                  std::string_view label);
[[nodiscard]] std::string roofline_gnuplot_script(const RooflinePlotData& plot,
                                                  const std::filesystem::path& svg_path);
void write_roofline_svg(const RooflinePlotData& plot, const std::filesystem::path& path);

} // namespace gpurun
