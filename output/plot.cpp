#include "output/plot.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/read_file.hpp"
#include "base/signal_cleanup.hpp"
#include "base/subprocess.hpp"

namespace gpurun {

namespace {

[[noreturn]] void invalid(std::string_view label, std::string_view what) {
  throw usage_error(fmt::format("{}: {}", label, what));
}

std::optional<double> number_of(std::string_view text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

std::optional<double> finite(std::optional<double> v) {
  return v && std::isfinite(*v) ? v : std::nullopt;
}

/// One measured case as the plot sees it.
struct Case {
  std::string name;
  const bench::AxisPoint* axes = nullptr;
  std::optional<double> median_s, gbs, gflops;
};

std::vector<Case> plot_cases(const bench::BenchReport& report, std::string_view label) {
  std::vector<Case> cases;
  cases.reserve(report.cases.size());
  for (const bench::CaseResult& r : report.cases) {
    Case c{r.case_name, &r.point, {}, {}, {}};
    if (r.ok) {
      c.median_s = finite(r.summary.median);
      c.gbs = finite(r.bandwidth_gbs);
      c.gflops = finite(r.gflops);
    }
    cases.push_back(std::move(c));
  }
  if (cases.empty())
    invalid(label, "no case to plot");
  return cases;
}

/// The numeric axis with the most distinct values (the first such in case order on a tie).
std::string pick_axis(const std::vector<Case>& cases, std::string_view label) {
  std::vector<std::string> order;
  std::unordered_map<std::string, std::set<double>> values;
  std::unordered_set<std::string> non_numeric;
  for (const Case& c : cases)
    for (const auto& [name, value] : *c.axes) {
      if (!values.contains(name) && !non_numeric.contains(name))
        order.push_back(name);
      if (const auto v = number_of(value))
        values[name].insert(*v);
      else
        non_numeric.insert(name);
    }
  std::string best;
  std::size_t best_count = 1;
  for (const std::string& name : order)
    if (!non_numeric.contains(name) && values.contains(name) && values[name].size() > best_count) {
      best = name;
      best_count = values[name].size();
    }
  if (best.empty())
    invalid(label, "nothing to plot against: no numeric axis takes two or more values (sweep one "
                   "with -a, e.g. -a 'N[pow2]=[16:24]')");
  return best;
}

bool is_power_of_two(double v) {
  if (v < 1 || v != std::floor(v) || v > 9.2e18)
    return false;
  const auto n = static_cast<std::uint64_t>(v);
  return (n & (n - 1)) == 0;
}

/// Seconds in the unit that suits the plot's values: the unit and its factor.
std::pair<std::string, double> time_unit(double typical_s) {
  if (typical_s < 1e-6)
    return {"ns", 1e9};
  if (typical_s < 1e-3)
    return {"µs", 1e6};
  if (typical_s < 1)
    return {"ms", 1e3};
  return {"s", 1};
}

/// A gnuplot string literal (single quotes: no escapes but '' for a quote).
std::string gnuplot_string(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'')
      out += "''";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + "'";
}

} // namespace

PlotMetric parse_plot_metric(std::string_view text, std::string_view flag) {
  if (text == "auto")
    return PlotMetric::automatic;
  if (text == "time")
    return PlotMetric::time;
  if (text == "bandwidth" || text == "gbs")
    return PlotMetric::bandwidth;
  if (text == "flops" || text == "gflops")
    return PlotMetric::flops;
  throw usage_error(
      fmt::format("{}: '{}' is not one of auto, time, bandwidth, flops", flag, one_line(text)));
}

PlotData make_plot(const bench::BenchReport& report, std::string_view label,
                   const std::optional<std::string>& x_axis, PlotMetric metric) {
  const std::vector<Case> cases = plot_cases(report, label);
  PlotData plot;
  plot.x_axis = x_axis ? *x_axis : pick_axis(cases, label);
  if (x_axis) {
    bool found = false;
    for (const Case& c : cases)
      for (const auto& [name, value] : *c.axes)
        if (name == *x_axis) {
          found = true;
          if (!number_of(value))
            invalid(label, fmt::format("axis '{}' has the value '{}', which is not a number",
                                       one_line(*x_axis), one_line(value)));
        }
    if (!found)
      invalid(label, fmt::format("no case has an axis '{}'", one_line(*x_axis)));
  }
  if (metric == PlotMetric::automatic)
    metric = std::any_of(cases.begin(), cases.end(), [](const Case& c) { return c.gbs; })
                 ? PlotMetric::bandwidth
                 : PlotMetric::time;
  plot.metric = metric;

  // The cases' values for the metric; a series per case name and other axes, in the order of
  // their first case (found through a hash map: a result may hold millions of cases).
  std::vector<std::pair<std::size_t, PlotPoint>> points; // series index, point
  std::unordered_map<std::string, std::size_t> series_index;
  std::vector<std::string> titles;
  for (const Case& c : cases) {
    std::optional<double> x;
    std::string series = c.name;
    for (const auto& [name, value] : *c.axes) {
      if (name == plot.x_axis)
        x = number_of(value);
      else
        series += fmt::format(" {}={}", name, value);
    }
    const std::optional<double> y = metric == PlotMetric::time        ? c.median_s
                                    : metric == PlotMetric::bandwidth ? c.gbs
                                                                      : c.gflops;
    if (!x || !y) {
      ++plot.skipped;
      continue;
    }
    const auto [it, added] = series_index.try_emplace(std::move(series), titles.size());
    if (added)
      titles.push_back(it->first);
    points.emplace_back(it->second, PlotPoint{*x, *y});
  }
  if (titles.size() > k_max_plot_series)
    invalid(label, fmt::format("{} lines to draw (one per case and value of its other axes "
                               "against '{}'), more than a plot can show ({} at most): narrow "
                               "the cases with bench --filter, or plot against another axis",
                               titles.size(), one_line(plot.x_axis), k_max_plot_series));
  if (points.empty())
    invalid(label, fmt::format("no case has a value to plot against '{}'{}", plot.x_axis,
                               metric == PlotMetric::bandwidth ? " (bandwidth needs --bytes)"
                               : metric == PlotMetric::flops   ? " (GFLOP/s needs --flops)"
                                                               : ""));

  std::vector<double> ys;
  for (const auto& [series, p] : points)
    ys.push_back(p.y);
  std::sort(ys.begin(), ys.end());
  double scale = 1;
  if (metric == PlotMetric::time) {
    const auto [unit, factor] = time_unit(ys[ys.size() / 2]);
    plot.y_label = fmt::format("median time ({})", unit);
    scale = factor;
  } else {
    plot.y_label = metric == PlotMetric::bandwidth ? "bandwidth (GB/s)" : "GFLOP/s";
  }
  for (std::string& title : titles)
    plot.series.push_back({std::move(title), {}});
  for (auto& [series, point] : points) {
    point.y *= scale;
    plot.series[series].points.push_back(point);
  }
  for (PlotSeries& s : plot.series)
    std::sort(s.points.begin(), s.points.end(),
              [](const PlotPoint& a, const PlotPoint& b) { return a.x < b.x; });

  // Log axes for sweeps that span decades (or powers of two).
  double min_x = points.front().second.x, max_x = min_x;
  bool all_pow2 = true;
  for (const auto& [series, p] : points) {
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    all_pow2 = all_pow2 && is_power_of_two(p.x);
  }
  // Powers of two spanning 4× or more (a pow2 sweep), or other values spanning two decades.
  plot.log_x = min_x > 0 && max_x / min_x >= (all_pow2 ? 4 : 100);
  plot.log_x_base = all_pow2 ? 2 : 10;
  plot.log_y =
      plot.log_x && metric == PlotMetric::time && ys.front() > 0 && ys.back() / ys.front() >= 16;

  if (metric == PlotMetric::bandwidth) {
    if (report.peak_bandwidth_gbs > 0 && std::isfinite(report.peak_bandwidth_gbs))
      plot.peak_gbs = report.peak_bandwidth_gbs;
    if (const auto peak = finite(report.measured_peak_gbs); peak && *peak > 0)
      plot.measured_peak_gbs = peak;
  }
  plot.title = report.suite.empty() ? std::string(label) : report.suite;
  if (!report.device.empty())
    plot.title += " on " + report.device;
  if (!report.mode.empty())
    plot.title += " (" + report.mode + ")";
  return plot;
}

std::string gnuplot_script(const PlotData& plot, const std::filesystem::path& svg_path) {
  std::string s;
  s += "set terminal svg size 900,560 dynamic enhanced font 'sans,12' background '#ffffff'\n";
  s += fmt::format("set output {}\n", gnuplot_string(svg_path.string()));
  s += fmt::format("set title {} noenhanced\n", gnuplot_string(plot.title));
  s += fmt::format("set xlabel {} noenhanced\n", gnuplot_string(plot.x_axis));
  s += fmt::format("set ylabel {} noenhanced\n", gnuplot_string(plot.y_label));
  s += "set grid\nset key outside right top noenhanced\n";
  if (plot.log_x)
    s += fmt::format("set logscale x {}\n", plot.log_x_base);
  if (plot.log_x && plot.log_x_base == 2)
    s += "set format x '2^{%L}'\n";
  if (plot.log_y)
    s += "set logscale y 10\n";
  else
    s += "set yrange [0:*]\n";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    s += fmt::format("$s{} << EOD\n", i);
    for (const PlotPoint& p : plot.series[i].points)
      s += fmt::format("{:.17g} {:.17g}\n", p.x, p.y);
    s += "EOD\n";
  }
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < plot.series.size(); ++i)
    parts.push_back(fmt::format("$s{} using 1:2 with linespoints linewidth 2 pointtype 7 title {}",
                                i, gnuplot_string(plot.series[i].title)));
  if (plot.peak_gbs)
    parts.push_back(
        fmt::format("{:.17g} with lines dashtype 2 linewidth 2 linecolor rgb '#c00000' title {}",
                    *plot.peak_gbs,
                    gnuplot_string(fmt::format("theoretical peak {:.0f} GB/s", *plot.peak_gbs))));
  if (plot.measured_peak_gbs)
    parts.push_back(fmt::format(
        "{:.17g} with lines dashtype 3 linewidth 2 linecolor rgb '#606060' title {}",
        *plot.measured_peak_gbs,
        gnuplot_string(fmt::format("measured peak {:.0f} GB/s", *plot.measured_peak_gbs))));
  s += "plot " + fmt::format("{}", fmt::join(parts, ", \\\n     ")) + "\n";
  return s;
}

void check_plot_target(const std::filesystem::path& path, std::string_view flag) {
  if (path.empty())
    throw usage_error(fmt::format("{}: needs a file name", flag));
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw usage_error(fmt::format("{} {}: is a folder, not a file", flag, path.string()));
  const auto parent = path.parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw usage_error(
        fmt::format("{} {}: the folder '{}' does not exist", flag, path.string(), parent.string()));
  if (!proc::find_program("gnuplot"))
    throw unavailable_error(fmt::format(
        "{} {}: gnuplot is not installed (Debian: apt install gnuplot-nox)", flag, path.string()));
}

namespace {

/// Runs gnuplot on the script `script_for` writes for a temporary SVG, then puts that SVG at
/// `path` atomically.
template <class ScriptFor> void draw_svg(const ScriptFor& script_for, const std::filesystem::path& path) {
  const auto gnuplot = proc::find_program("gnuplot");
  if (!gnuplot)
    throw unavailable_error(fmt::format(
        "--plot {}: gnuplot is not installed (Debian: apt install gnuplot-nox)", path.string()));
  proc::TempDir dir("gpurun-plot-");
  const auto script = dir.path() / "plot.gp";
  const auto svg = dir.path() / "plot.svg";
  // A signal while gnuplot draws leaves none of them behind.
  const RemoveOnSignal remove_dir(dir.path(), RemoveOnSignal::Kind::folder);
  const RemoveOnSignal remove_script(script);
  const RemoveOnSignal remove_svg(svg);
  write_file_atomic(script, script_for(svg));
  const std::vector<std::string> argv{gnuplot->string(), script.string()};
  const proc::Finished done = proc::run(argv);
  if (!done.started || done.exit_code != 0 || !std::filesystem::is_regular_file(svg))
    throw unavailable_error(fmt::format("--plot {}: gnuplot failed: {}", path.string(),
                                        one_line(done.started ? done.output : done.error)));
  std::string why;
  const auto text = read_file(svg, &why);
  if (!text)
    throw unavailable_error(
        fmt::format("--plot {}: cannot read what gnuplot drew: {}", path.string(), why));
  write_file_atomic(path, *text);
}

} // namespace

void write_plot_svg(const PlotData& plot, const std::filesystem::path& path) {
  draw_svg([&](const std::filesystem::path& svg) { return gnuplot_script(plot, svg); }, path);
}

RooflinePlotData make_roofline_plot(const bench::BenchReport& report, std::string_view label) {
  if (!report.roofline)
    invalid(label, "no roofline: the device's roofs are unknown (bench --metrics roofline on a "
                   "CUDA GPU, or cases with bytes and flops on a GPU whose peaks gpurun knows)");
  const Roofline& roofs = *report.roofline;
  if (!(roofs.bandwidth_bytes_per_s > 0) || !std::isfinite(roofs.bandwidth_bytes_per_s))
    invalid(label, "the roofline has no DRAM bandwidth (roofline.bandwidth_bytes_per_s)");
  if (std::none_of(roofs.compute.begin(), roofs.compute.end(), [](const ComputeRoof& c) {
        return c.flops_per_s > 0 && std::isfinite(c.flops_per_s);
      }))
    invalid(label, "the roofline has no compute roof (roofline.compute_flops_per_s)");
  RooflinePlotData plot;
  plot.roofline = roofs;
  std::erase_if(plot.roofline.compute, [](const ComputeRoof& c) {
    return !(c.flops_per_s > 0) || !std::isfinite(c.flops_per_s);
  });
  plot.title = fmt::format("{} on {}: roofline ({})", report.suite, report.device,
                           report.roofline->source);
  for (const bench::CaseResult& c : report.cases) {
    if (!c.ok || !c.roofline || !(c.roofline->intensity > 0) ||
        !(c.roofline->achieved_flops_per_s > 0) || !std::isfinite(c.roofline->intensity)) {
      ++plot.skipped;
      continue;
    }
    plot.points.push_back({c.name, c.roofline->precision, c.roofline->intensity,
                           c.roofline->achieved_flops_per_s / 1e9});
  }
  if (plot.points.empty())
    invalid(label, "no case has a point on the roofline (cases need counted or declared bytes "
                   "and flops)");
  return plot;
}

std::string roofline_gnuplot_script(const RooflinePlotData& plot,
                                    const std::filesystem::path& svg_path) {
  const Roofline& r = plot.roofline;
  const double bw_gbs = r.bandwidth_bytes_per_s / 1e9;
  // The x range spans the points and every ridge, a decade beyond on each side.
  double lo = plot.points.front().intensity;
  double hi = lo;
  for (const auto& p : plot.points) {
    lo = std::min(lo, p.intensity);
    hi = std::max(hi, p.intensity);
  }
  double top = 0;
  for (const ComputeRoof& c : r.compute) {
    const double ridge = c.flops_per_s / r.bandwidth_bytes_per_s;
    lo = std::min(lo, ridge);
    hi = std::max(hi, ridge);
    top = std::max(top, c.flops_per_s / 1e9);
  }
  lo = std::pow(10.0, std::floor(std::log10(lo)) - 1);
  hi = std::pow(10.0, std::ceil(std::log10(hi)) + 1);
  double bottom = lo * bw_gbs;
  for (const auto& p : plot.points)
    bottom = std::min(bottom, p.gflops);
  bottom = std::pow(10.0, std::floor(std::log10(bottom)));
  top = std::pow(10.0, std::ceil(std::log10(top)) + 0.3);

  std::string s;
  s += "set terminal svg size 960,620 dynamic enhanced font 'sans,12' background '#ffffff'\n";
  s += fmt::format("set output {}\n", gnuplot_string(svg_path.string()));
  s += fmt::format("set title {} noenhanced\n", gnuplot_string(plot.title));
  s += "set xlabel 'arithmetic intensity (flop/byte of DRAM traffic)'\n";
  s += "set ylabel 'performance (GFLOP/s)'\n";
  s += "set grid\nset key outside right top noenhanced\nset logscale xy 10\n";
  s += "set samples 1000\n";
  s += fmt::format("set xrange [{:.6g}:{:.6g}]\nset yrange [{:.6g}:{:.6g}]\n", lo, hi, bottom, top);
  s += fmt::format("bw = {:.17g}\n", bw_gbs);
  std::vector<std::string> parts;
  static constexpr const char* roof_colors[] = {"#c00000", "#0050a0", "#008040", "#806000"};
  for (std::size_t i = 0; i < r.compute.size(); ++i) {
    const double peak = r.compute[i].flops_per_s / 1e9;
    parts.push_back(fmt::format(
        "(x * bw < {0:.17g} ? x * bw : {0:.17g}) with lines linewidth 2 dashtype {1} linecolor "
        "rgb '{2}' title {3}",
        peak, i + 1, roof_colors[i % 4],
        gnuplot_string(fmt::format("{} roof {} ({} DRAM)", r.compute[i].precision,
                                   format_si(peak * 1e9) + "FLOP/s",
                                   format_si(r.bandwidth_bytes_per_s) + "B/s"))));
  }
  for (std::size_t i = 0; i < plot.points.size(); ++i) {
    const auto& p = plot.points[i];
    s += fmt::format("$p{} << EOD\n{:.17g} {:.17g}\nEOD\n", i, p.intensity, p.gflops);
    parts.push_back(fmt::format("$p{} using 1:2 with points pointtype 7 pointsize 1.3 title {}", i,
                                gnuplot_string(fmt::format("{} ({})", p.title, p.precision))));
  }
  s += "plot " + fmt::format("{}", fmt::join(parts, ", \\\n     ")) + "\n";
  return s;
}

void write_roofline_svg(const RooflinePlotData& plot, const std::filesystem::path& path) {
  draw_svg([&](const std::filesystem::path& svg) { return roofline_gnuplot_script(plot, svg); },
           path);
}

} // namespace gpurun
