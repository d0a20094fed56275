#include "pipeline/counters.hpp"

#include <algorithm>
#include <cstdint>

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "pipeline/roofline.hpp"

namespace gpurun {
namespace {

// A metric name as Nsight Compute writes them: letters, digits, '_' and '.'.
bool well_formed(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '.';
  });
}

void add_once(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end())
    list.push_back(name);
}

} // namespace

MetricSelection parse_metrics(const std::vector<std::string>& texts) {
  MetricSelection s;
  std::size_t names = 0;
  for (const std::string& text : texts) {
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = std::min(text.find(',', start), text.size());
      const std::string name = text.substr(start, comma - start);
      ++names;
      if (name.empty())
        throw usage_error(fmt::format("--metrics '{}': empty metric name", text));
      if (name == "list") {
        s.list = true;
      } else if (name == "roofline") {
        s.roofline = true;
        for (const std::string& m : roofline_metrics())
          add_once(s.metrics, m);
      } else if (!well_formed(name)) {
        throw usage_error(fmt::format("--metrics '{}': not a metric name (Nsight Compute's "
                                      "names, such as dram__bytes.sum)",
                                      name));
      } else {
        add_once(s.metrics, name);
      }
      if (comma == text.size())
        break;
      start = comma + 1;
    }
  }
  if (s.list && names > 1) {
    std::string given;
    for (const std::string& text : texts)
      given += (given.empty() ? "" : ",") + text;
    throw usage_error(fmt::format("--metrics '{}': list shows the device's metrics and stands "
                                  "alone",
                                  given));
  }
  return s;
}

void check_metrics(Context& context, const MetricSelection& selection) {
  if (!selection.metrics.empty())
    context.check_metrics(selection.metrics);
}

CounterReport measure_counters(PreparedRun& run, const MetricSelection& selection,
                               std::optional<double> timeout_s) {
  Context& context = *run.context;
  CounterRequest request;
  request.metrics = selection.metrics;
  request.timeout_s = timeout_s;
  request.before_pass = [&] {
    for (BoundBuffer& b : run.buffers)
      if (b.device)
        context.copy_to_device(*b.device, b.host.bytes());
    for (BoundGlobal& g : run.globals)
      context.copy_to_symbol(g.symbol, g.host.bytes());
    context.synchronize(timeout_s);
  };
  return context.measure_counters(*run.function, run.outcome.launch, run.args, request);
}

nlohmann::json counters_json(const CounterReport& counters) {
  using nlohmann::json;
  json metrics = json::object();
  for (const MetricValue& m : counters.values)
    metrics[m.name] = {{"value", std::isfinite(m.value) ? json(m.value) : json(nullptr)},
                       {"unit", m.unit}};
  return {{"collector", counters.collector}, {"passes", counters.passes}, {"metrics", metrics}};
}

} // namespace gpurun
