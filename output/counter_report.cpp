#include "output/counter_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/format.hpp"

namespace gpurun {

using nlohmann::json;

namespace {

std::string rate(double flops_per_s) {
  return format_si(flops_per_s) + "FLOP/s";
}

} // namespace

std::string counters_text(const CounterReport& counters) {
  std::size_t width = 0;
  for (const MetricValue& m : counters.values)
    width = std::max(width, m.name.size());
  std::string out = fmt::format("counters ({}; {} pass{}):\n", counters.collector,
                                counters.passes, counters.passes == 1 ? "" : "es");
  for (const MetricValue& m : counters.values) {
    const std::string value = std::floor(m.value) == m.value && std::fabs(m.value) < 1e15
                                  ? format_count(m.value)
                                  : fmt::format("{:.4g}", m.value);
    out += fmt::format("  {:<{}}  {:>14}{}{}\n", m.name, width, value, m.unit.empty() ? "" : " ",
                       m.unit);
  }
  return out;
}


std::string roofline_text(const RooflinePoint& p) {
  return fmt::format("roofline ({}, {}): intensity {:.3g} flop/byte, {} of a {} roof ({:.1f}%), "
                     "{}-bound (ridge {:.3g} flop/byte)\n",
                     p.precision, p.source, p.intensity, rate(p.achieved_flops_per_s),
                     rate(p.roof_flops_per_s), 100 * p.fraction, p.bound, p.ridge);
}



std::string roofs_line(const Roofline& r) {
  std::string out = fmt::format("roofs ({}): {}B/s DRAM", r.source, format_si(r.bandwidth_bytes_per_s));
  for (const ComputeRoof& c : r.compute)
    out += fmt::format(" · {} {}", c.precision, rate(c.flops_per_s));
  return out + "\n";
}

std::string catalog_text(const MetricCatalog& catalog) {
  std::size_t name_width = 0;
  std::size_t unit_width = 0;
  for (const MetricInfo& m : catalog.metrics) {
    name_width = std::max(name_width, m.name.size());
    unit_width = std::max(unit_width, m.unit.size());
  }
  std::string out = fmt::format(
      "{} metrics of {} (base names: add a rollup such as .sum, .avg, .max, and for counters "
      ".per_second or .avg.pct_of_peak_sustained_elapsed; ratios take .ratio, .pct)\n",
      catalog.metrics.size(), catalog.collector);
  for (const MetricInfo& m : catalog.metrics)
    out += fmt::format("{:<{}}  {:<10}  {:<{}}  {}\n", m.name, name_width, m.kind, m.unit,
                       unit_width, one_line(m.description));
  return out;
}

json catalog_json(const MetricCatalog& catalog) {
  json metrics = json::array();
  for (const MetricInfo& m : catalog.metrics)
    metrics.push_back({{"name", m.name},
                       {"kind", m.kind},
                       {"unit", m.unit},
                       {"description", m.description}});
  return {{"collector", catalog.collector}, {"metrics", metrics}};
}

} // namespace gpurun
