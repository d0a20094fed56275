#include "bench/result_json.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <unordered_set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_fields.hpp"
#include "base/json_read.hpp"
#include "bench/statistics.hpp"
#include "pipeline/counters.hpp"

namespace gpurun::bench {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// ---- writing -----------------------------------------------------------------------------------

ordered_json optional_number(std::optional<double> v) {
  return v ? ordered_json(*v) : ordered_json();
}

ordered_json optional_text(const std::string& text) {
  return text.empty() ? ordered_json() : ordered_json(text);
}

ordered_json case_json(const CaseResult& c, const BenchReport& report) {
  const auto& m = c.measurement;
  ordered_json axes = ordered_json::object();
  for (const auto& [name, value] : c.point)
    axes[name] = value;
  ordered_json g{{"case", c.case_name}, {"axes", axes}, {"status", c.ok ? "ok" : "skipped"}};
  const std::string& device = c.device.empty() ? report.device : c.device;
  const int device_index = c.device.empty() ? report.device_index : c.device_index;
  const std::string& host = c.host_name.empty() ? report.host_name : c.host_name;
  if (!c.ok) {
    g["reason"] = c.reason;
    g["device"] = device;
    g["device_index"] = device_index;
    g["host_name"] = host;
    return g;
  }
  g["samples_s"] = m.samples_s;
  g["median_s"] = c.summary.median;
  g["mean_s"] = c.summary.mean;
  g["min_s"] = c.summary.min;
  g["max_s"] = c.summary.max;
  g["stdev_s"] = c.summary.stdev;
  g["noise"] = c.summary.noise;
  g["stop_reason"] = std::string(to_string(m.stop_reason));
  g["batch_s"] = c.batch ? ordered_json(c.batch->median) : ordered_json();
  g["batch_launches"] = m.batch_launches;
  g["batch_samples_s"] = m.batch_samples_s;
  g["throttled_discarded"] = m.throttled_discarded;
  if (m.clocks)
    g["sm_clock_mhz"] = {{"min", m.clocks->min_mhz},
                         {"mean", m.clocks->mean_mhz},
                         {"default", m.clocks->default_mhz}};
  if (!m.sample_clock_mhz.empty())
    g["sample_sm_clock_mhz"] = m.sample_clock_mhz;
  if (!m.sample_power_w.empty()) {
    ordered_json power = ordered_json::array();
    for (const auto& w : m.sample_power_w)
      power.push_back(optional_number(w));
    g["sample_power_w"] = power;
  }
  g["energy_j"] = optional_number(m.energy_j);
  g["power_w"] = optional_number(m.power_w);
  g["bytes"] = optional_number(c.bytes);
  g["flops"] = optional_number(c.flops);
  g["bandwidth_gbs"] = optional_number(c.bandwidth_gbs);
  g["peak_fraction"] = optional_number(c.peak_fraction);
  g["measured_peak_fraction"] = optional_number(c.measured_peak_fraction);
  g["gflops"] = optional_number(c.gflops);
  if (c.counters)
    g["counters"] = ordered_json(counters_json(*c.counters));
  if (c.roofline)
    g["roofline"] = ordered_json(roofline_point_json(*c.roofline));
  g["outliers"] = c.outliers;
  g["wall_s"] = m.wall_s;
  g["warnings"] = c.warnings;
  g["device"] = device;
  g["device_index"] = device_index;
  g["host_name"] = host;
  return g;
}

ordered_json device_json(const DeviceRecord& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"arch", d.arch},
          {"driver_version", d.driver_version},
          {"l2_bytes", d.l2_bytes},
          {"peak_bandwidth_gbs", d.peak_bandwidth_gbs},
          {"measured_peak_gbs", optional_number(d.measured_peak_gbs)},
          {"peak_error", optional_text(d.peak_error)},
          {"clocks", d.clocks},
          {"cases", d.cases},
          {"busy_s", d.busy_s},
          {"status", d.failed() ? "failed" : "ok"},
          {"error", optional_text(d.error)}};
}

ordered_json p2p_json(const PeerMatrix& m) {
  ordered_json gbs = ordered_json::array();
  for (const auto& row : m.gbs) {
    ordered_json r = ordered_json::array();
    for (const auto& v : row)
      r.push_back(optional_number(v));
    gbs.push_back(std::move(r));
  }
  return {{"devices", m.devices},
          {"bytes", m.bytes},
          {"gbs", gbs},
          {"path", m.path},
          {"errors", m.errors}};
}

ordered_json merge_json(const MergeRecord& m) {
  ordered_json shards = ordered_json::array();
  for (const auto& s : m.shards)
    shards.push_back({{"index", s.index},
                      {"file", s.file},
                      {"host_name", s.host_name},
                      {"device", s.device},
                      {"date", s.date},
                      {"cases", s.cases}});
  return {{"shard_count", m.shard_count},
          {"shards", shards},
          {"hosts", m.hosts},
          {"devices", m.devices},
          {"partial", m.partial},
          {"missing", m.missing},
          {"duplicated", m.duplicated},
          {"suite_cases", m.suite_cases}};
}

ordered_json context_json(const BenchReport& report) {
  ordered_json gpurun{{"version", report.version},
                      {"suite", report.suite},
                      {"backend", report.backend},
                      {"device", report.device},
                      {"device_index", report.device_index},
                      {"arch", report.arch},
                      {"driver_version", report.driver_version},
                      {"l2_bytes", report.l2_bytes},
                      {"peak_bandwidth_gbs", report.peak_bandwidth_gbs},
                      {"measured_peak_gbs", optional_number(report.measured_peak_gbs)},
                      {"peak_error", optional_text(report.peak_error)},
                      {"mode", report.mode},
                      {"hold", report.hold},
                      {"max_noise", report.rules.max_noise},
                      {"min_samples", report.rules.min_samples},
                      {"min_time_s", report.rules.min_time_s},
                      {"timeout_s", report.rules.timeout_s},
                      {"clocks", report.clocks}};
  if (!report.environment.empty()) {
    // By name, as a reader's JSON object holds them: a file read and written again is the same.
    ordered_json env = ordered_json::object();
    for (const auto& [name, value] : std::map(report.environment.begin(), report.environment.end()))
      env[name] = value;
    gpurun["environment"] = env;
  }
  if (report.roofline)
    gpurun["roofline"] = ordered_json(roofline_json(*report.roofline));
  if (report.multi_device()) {
    ordered_json devices = ordered_json::array();
    for (const auto& d : report.devices)
      devices.push_back(device_json(d));
    gpurun["devices"] = devices;
    gpurun["wall_s"] = report.wall_s;
  }
  if (report.p2p)
    gpurun["p2p"] = p2p_json(*report.p2p);
  if (report.shard) {
    const auto& shard = *report.shard;
    gpurun["shard"] = {{"index", shard.index},         {"count", shard.count},
                       {"source", shard.source},       {"cost_basis", shard.cost_basis},
                       {"cases", report.cases.size()}, {"suite_cases", shard.suite_cases}};
  }
  if (report.merged)
    gpurun["merged"] = merge_json(*report.merged);
  return {{"date", report.date},
          {"host_name", report.host_name},
          {"executable", "gpurun"},
          {"num_cpus", 1},
          {"mhz_per_cpu", 0},
          {"cpu_scaling_enabled", false},
          {"caches", ordered_json::array()},
          {"library_build_type", "release"},
          {"library_version", "gpurun " + report.version},
          {"json_schema_version", 1},
          {"gpurun", gpurun}};
}

/// A case's entries: its iteration, then (measured) the aggregates Google Benchmark writes for a
/// run with repetitions.
void append_case(ordered_json& benchmarks, const CaseResult& c, std::size_t family,
                 const BenchReport& report) {
  ordered_json b{{"name", c.name},
                 {"family_index", family},
                 {"per_family_instance_index", 0},
                 {"run_name", c.name},
                 {"run_type", "iteration"},
                 {"repetitions", 1},
                 {"repetition_index", 0},
                 {"threads", 1}};
  if (!c.ok) {
    b["error_occurred"] = true;
    b["error_message"] = c.reason;
    b["iterations"] = 0;
    b["real_time"] = 0;
    b["cpu_time"] = 0;
    b["time_unit"] = "us";
    b["gpurun"] = case_json(c, report);
    benchmarks.push_back(std::move(b));
    return;
  }
  b["iterations"] = c.summary.count;
  b["real_time"] = c.summary.median * 1e6;
  b["cpu_time"] = c.summary.median * 1e6;
  b["time_unit"] = "us";
  if (c.bytes && c.summary.median > 0)
    b["bytes_per_second"] = *c.bytes / c.summary.median;
  if (c.flops && c.summary.median > 0)
    b["items_per_second"] = *c.flops / c.summary.median;
  b["gpurun"] = case_json(c, report);
  benchmarks.push_back(std::move(b));
  const std::pair<const char*, double> aggregates[] = {{"mean", c.summary.mean * 1e6},
                                                       {"median", c.summary.median * 1e6},
                                                       {"stddev", c.summary.stdev * 1e6},
                                                       {"cv", c.summary.noise}};
  for (const auto& [name, value] : aggregates) {
    const bool cv = std::string_view(name) == "cv";
    benchmarks.push_back({{"name", fmt::format("{}_{}", c.name, name)},
                          {"family_index", family},
                          {"per_family_instance_index", 0},
                          {"run_name", c.name},
                          {"run_type", "aggregate"},
                          {"repetitions", c.summary.count},
                          {"threads", 1},
                          {"aggregate_name", name},
                          {"aggregate_unit", cv ? "percentage" : "time"},
                          {"iterations", c.summary.count},
                          {"real_time", value},
                          {"cpu_time", value},
                          {"time_unit", "us"}});
  }
}

// ---- reading -----------------------------------------------------------------------------------

std::vector<std::string> texts(const JsonFields& f, const char* key) {
  std::vector<std::string> out;
  const json* list = f.array(key);
  if (!list)
    return out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string())
      invalid_field(f.label(), fmt::format("{}[{}]", f.field(key), i), "expected a string");
    out.push_back((*list)[i].get<std::string>());
  }
  return out;
}

std::vector<double> numbers(const JsonFields& f, const char* key) {
  std::vector<double> out;
  const json* list = f.array(key);
  if (!list)
    return out;
  out.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_number())
      invalid_field(f.label(), fmt::format("{}[{}]", f.field(key), i), "expected a number");
    out.push_back((*list)[i].get<double>());
  }
  return out;
}

int index_at(const JsonFields& f, const char* key) {
  const auto v = f.integer(key).value_or(0);
  if (v < -1 || v > 1'000'000)
    invalid_field(f.label(), f.field(key), "not a device index");
  return static_cast<int>(v);
}

StopReason stop_reason_at(const JsonFields& f, const char* key) {
  const auto text = f.text(key);
  if (!text)
    return StopReason::timeout;
  for (const StopReason r :
       {StopReason::noise, StopReason::settled, StopReason::timeout, StopReason::max_samples})
    if (*text == to_string(r))
      return r;
  invalid_field(f.label(), f.field(key), "expected one of noise, settled, timeout, max_samples");
}

DeviceRecord read_device(const JsonFields& d) {
  DeviceRecord r;
  r.index = index_at(d, "index");
  r.name = d.text_or_empty("name");
  r.arch = d.text_or_empty("arch");
  r.driver_version = d.text_or_empty("driver_version");
  r.l2_bytes = d.count("l2_bytes").value_or(0);
  r.peak_bandwidth_gbs = d.number("peak_bandwidth_gbs").value_or(0);
  r.measured_peak_gbs = d.number("measured_peak_gbs");
  r.peak_error = d.text_or_empty("peak_error");
  r.clocks = d.text_or_empty("clocks");
  r.cases = d.count("cases").value_or(0);
  r.busy_s = d.number("busy_s").value_or(0);
  r.error = d.text_or_empty("error");
  if (r.error.empty() && d.text_or_empty("status") == "failed")
    r.error = "failed";
  return r;
}

PeerMatrix read_p2p(const JsonFields& p) {
  PeerMatrix m;
  if (const json* devices = p.array("devices"))
    for (std::size_t i = 0; i < devices->size(); ++i) {
      if (!(*devices)[i].is_number_integer())
        invalid_field(p.label(), fmt::format("{}[{}]", p.field("devices"), i),
                      "expected a device index");
      m.devices.push_back((*devices)[i].get<int>());
    }
  m.bytes = p.count("bytes").value_or(0);
  const std::size_t n = m.devices.size();
  const json* gbs = p.array("gbs");
  const json* path = p.array("path");
  if (!gbs || gbs->size() != n || !path || path->size() != n)
    invalid_field(p.label(), p.field("gbs"),
                  fmt::format("expected {} rows of GB/s and of paths, one per device", n));
  m.gbs.assign(n, std::vector<std::optional<double>>(n));
  m.path.assign(n, std::vector<std::string>(n));
  for (std::size_t i = 0; i < n; ++i) {
    const json& row = (*gbs)[i];
    const json& kinds = (*path)[i];
    if (!row.is_array() || row.size() != n || !kinds.is_array() || kinds.size() != n)
      invalid_field(p.label(), fmt::format("{}[{}]", p.field("gbs"), i),
                    fmt::format("expected {} values", n));
    for (std::size_t j = 0; j < n; ++j) {
      if (row[j].is_number())
        m.gbs[i][j] = row[j].get<double>();
      else if (!row[j].is_null())
        invalid_field(p.label(), fmt::format("{}[{}][{}]", p.field("gbs"), i, j),
                      "expected a number or null");
      if (!kinds[j].is_string())
        invalid_field(p.label(), fmt::format("{}[{}][{}]", p.field("path"), i, j),
                      "expected a string");
      m.path[i][j] = kinds[j].get<std::string>();
    }
  }
  m.errors = texts(p, "errors");
  return m;
}

ShardInfo read_shard(const JsonFields& s) {
  ShardInfo shard;
  shard.index = s.required_count("index");
  shard.count = s.required_count("count");
  if (shard.count == 0 || shard.index >= shard.count)
    invalid_field(s.label(), s.where(),
                  fmt::format("shard {}/{} is not one of N", shard.index, shard.count));
  shard.source = s.text_or_empty("source");
  shard.cost_basis = s.text_or_empty("cost_basis");
  if (!s.find("suite_cases"))
    invalid_field(s.label(), s.field("suite_cases"), "expected an array of case names");
  shard.suite_cases = texts(s, "suite_cases");
  return shard;
}

MergeRecord read_merged(const JsonFields& m) {
  MergeRecord r;
  r.shard_count = m.count("shard_count").value_or(0);
  if (const json* shards = m.array("shards"))
    for (std::size_t i = 0; i < shards->size(); ++i) {
      const JsonFields s(m.label(), (*shards)[i], fmt::format("{}[{}]", m.field("shards"), i));
      r.shards.push_back({s.count("index").value_or(0), s.text_or_empty("file"),
                          s.text_or_empty("host_name"), s.text_or_empty("device"),
                          s.text_or_empty("date"), s.count("cases").value_or(0)});
    }
  r.hosts = texts(m, "hosts");
  r.devices = texts(m, "devices");
  r.partial = m.flag("partial").value_or(false);
  r.missing = texts(m, "missing");
  r.duplicated = texts(m, "duplicated");
  r.suite_cases = m.count("suite_cases").value_or(0);
  return r;
}

Roofline read_roofline(const JsonFields& f) {
  Roofline r;
  r.bandwidth_bytes_per_s = f.number("bandwidth_bytes_per_s").value_or(0);
  r.source = f.text_or_empty("source");
  if (const json* compute = f.object("compute_flops_per_s"))
    for (const auto& [precision, value] : compute->items())
      if (value.is_number())
        r.compute.push_back({precision, value.get<double>()});
  // In the order the roofs are made: fp32, fp64, fp16, then any other.
  const auto rank = [](const ComputeRoof& c) {
    return c.precision == "fp32" ? 0 : c.precision == "fp64" ? 1 : c.precision == "fp16" ? 2 : 3;
  };
  std::stable_sort(r.compute.begin(), r.compute.end(),
                   [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  return r;
}

CounterReport read_counters(const JsonFields& f) {
  CounterReport c;
  c.collector = f.text_or_empty("collector");
  c.passes = static_cast<int>(f.count("passes").value_or(0));
  if (const json* metrics = f.object("metrics"))
    for (const auto& [name, entry] : metrics->items()) {
      const JsonFields m(f.label(), entry, fmt::format("{}.{}", f.field("metrics"), name));
      c.values.push_back({name, m.number("value").value_or(std::nan("")),
                          m.text_or_empty("unit")});
    }
  return c;
}

RooflinePoint read_roofline_point(const JsonFields& f) {
  RooflinePoint p;
  p.precision = f.text_or_empty("precision");
  p.flops = f.number("flops").value_or(0);
  p.bytes = f.number("bytes").value_or(0);
  p.seconds = f.number("seconds").value_or(0);
  p.intensity = f.number("intensity").value_or(0);
  p.achieved_flops_per_s = f.number("achieved_flops_per_s").value_or(0);
  p.roof_flops_per_s = f.number("roof_flops_per_s").value_or(0);
  p.fraction = f.number("fraction").value_or(0);
  p.ridge = f.number("ridge").value_or(0);
  p.bound = f.text_or_empty("bound");
  p.source = f.text_or_empty("source");
  return p;
}

void read_context(const JsonFields& context, BenchReport& report) {
  report.date = context.text_or_empty("date");
  report.host_name = context.text_or_empty("host_name");
  const json* own = context.object("gpurun");
  if (!own)
    return;
  const JsonFields g(context.label(), *own, context.field("gpurun"));
  report.version = g.text_or_empty("version");
  report.suite = g.text_or_empty("suite");
  report.backend = g.text_or_empty("backend");
  report.device = g.text_or_empty("device");
  report.device_index = index_at(g, "device_index");
  report.arch = g.text_or_empty("arch");
  report.driver_version = g.text_or_empty("driver_version");
  report.l2_bytes = g.count("l2_bytes").value_or(0);
  report.peak_bandwidth_gbs = g.number("peak_bandwidth_gbs").value_or(0);
  report.measured_peak_gbs = g.number("measured_peak_gbs");
  report.peak_error = g.text_or_empty("peak_error");
  report.mode = g.text_or_empty("mode");
  report.hold = g.flag("hold").value_or(true);
  report.rules.max_noise = g.number("max_noise").value_or(report.rules.max_noise);
  report.rules.min_samples = g.count("min_samples").value_or(report.rules.min_samples);
  report.rules.min_time_s = g.number("min_time_s").value_or(report.rules.min_time_s);
  report.rules.timeout_s = g.number("timeout_s").value_or(report.rules.timeout_s);
  report.clocks = g.text_or_empty("clocks");
  if (const json* env = g.object("environment")) {
    const JsonFields e(g.label(), *env, g.field("environment"));
    for (const auto& [name, value] : env->items())
      if (value.is_string())
        report.environment.emplace_back(name, value.get<std::string>());
      else
        (void)e.required_text(name.c_str()); // names the field of the wrong type
  }
  if (const json* roofline = g.object("roofline"))
    report.roofline = read_roofline(JsonFields(g.label(), *roofline, g.field("roofline")));
  if (const json* devices = g.array("devices"))
    for (std::size_t i = 0; i < devices->size(); ++i)
      report.devices.push_back(read_device(
          JsonFields(g.label(), (*devices)[i], fmt::format("{}[{}]", g.field("devices"), i))));
  report.wall_s = g.number("wall_s").value_or(0);
  if (const json* p2p = g.object("p2p"))
    report.p2p = read_p2p(JsonFields(g.label(), *p2p, g.field("p2p")));
  if (const json* shard = g.object("shard"))
    report.shard = read_shard(JsonFields(g.label(), *shard, g.field("shard")));
  if (const json* merged = g.object("merged"))
    report.merged = read_merged(JsonFields(g.label(), *merged, g.field("merged")));
}

CaseResult read_case(const JsonFields& entry, const JsonFields& g) {
  CaseResult c;
  c.name = entry.required_text("name");
  c.case_name = g.text("case").value_or(c.name);
  if (const json* axes = g.object("axes"))
    for (const auto& [name, value] : axes->items())
      c.point.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
  const std::string status = g.text("status").value_or("ok");
  c.ok = status == "ok";
  c.device = g.text_or_empty("device");
  c.device_index = index_at(g, "device_index");
  c.host_name = g.text_or_empty("host_name");
  if (!c.ok) {
    c.reason = g.text("reason").value_or(entry.text("error_message").value_or(status));
    return c;
  }
  auto& m = c.measurement;
  // A file written by hand may hold only the median.
  if (!g.find("samples_s") && !g.find("median_s"))
    invalid_field(g.label(), g.field("samples_s"), "missing");
  m.samples_s = numbers(g, "samples_s");
  // The statistics as stored; what a hand-written file leaves out, from the samples.
  c.summary = summarize(m.samples_s);
  c.summary.count = entry.count("iterations").value_or(m.samples_s.size());
  c.summary.median = g.number("median_s").value_or(c.summary.median);
  c.summary.mean = g.number("mean_s").value_or(c.summary.mean);
  c.summary.min = g.number("min_s").value_or(c.summary.min);
  c.summary.max = g.number("max_s").value_or(c.summary.max);
  c.summary.stdev = g.number("stdev_s").value_or(c.summary.stdev);
  c.summary.noise = g.number("noise").value_or(c.summary.noise);
  m.stop_reason = stop_reason_at(g, "stop_reason");
  const auto launches = g.count("batch_launches").value_or(0);
  if (launches > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    invalid_field(g.label(), g.field("batch_launches"), "too large");
  m.batch_launches = static_cast<int>(launches);
  m.batch_samples_s = numbers(g, "batch_samples_s");
  if (const auto batch = g.number("batch_s")) {
    c.batch = summarize(m.batch_samples_s);
    c.batch->median = *batch;
  }
  m.throttled_discarded = g.count("throttled_discarded").value_or(0);
  if (const json* clocks = g.object("sm_clock_mhz")) {
    const JsonFields k(g.label(), *clocks, g.field("sm_clock_mhz"));
    m.clocks = ClockSummary{k.number("min").value_or(0), k.number("mean").value_or(0),
                            k.number("default").value_or(0), 0};
  }
  // One reading per kept sample, or none.
  m.sample_clock_mhz = numbers(g, "sample_sm_clock_mhz");
  if (!m.sample_clock_mhz.empty() && m.sample_clock_mhz.size() != m.samples_s.size())
    invalid_field(g.label(), g.field("sample_sm_clock_mhz"),
                  fmt::format("{} readings for {} samples", m.sample_clock_mhz.size(),
                              m.samples_s.size()));
  if (const json* power = g.array("sample_power_w")) {
    for (std::size_t i = 0; i < power->size(); ++i) {
      const json& w = (*power)[i];
      if (!w.is_number() && !w.is_null())
        invalid_field(g.label(), fmt::format("{}[{}]", g.field("sample_power_w"), i),
                      "expected a number or null");
      m.sample_power_w.push_back(w.is_number() ? std::optional(w.get<double>()) : std::nullopt);
    }
    if (m.sample_power_w.size() != m.samples_s.size())
      invalid_field(g.label(), g.field("sample_power_w"),
                    fmt::format("{} readings for {} samples", m.sample_power_w.size(),
                                m.samples_s.size()));
  }
  m.energy_j = g.number("energy_j");
  m.power_w = g.number("power_w");
  c.bytes = g.number("bytes");
  c.flops = g.number("flops");
  c.bandwidth_gbs = g.number("bandwidth_gbs");
  c.peak_fraction = g.number("peak_fraction");
  c.measured_peak_fraction = g.number("measured_peak_fraction");
  c.gflops = g.number("gflops");
  if (const json* counters = g.object("counters"))
    c.counters = read_counters(JsonFields(g.label(), *counters, g.field("counters")));
  if (const json* roofline = g.object("roofline"))
    c.roofline = read_roofline_point(JsonFields(g.label(), *roofline, g.field("roofline")));
  c.outliers = g.count("outliers").value_or(0);
  m.wall_s = g.number("wall_s").value_or(0);
  c.warnings = texts(g, "warnings");
  return c;
}

} // namespace

ordered_json result_json(const BenchReport& report) {
  ordered_json benchmarks = ordered_json::array();
  for (std::size_t i = 0; i < report.cases.size(); ++i)
    append_case(benchmarks, report.cases[i], i, report);
  return {{"context", context_json(report)}, {"benchmarks", benchmarks}};
}

bool is_result_json(const json& document) {
  if (!document.is_object())
    return false;
  if (const auto context = document.find("context");
      context != document.end() && context->is_object() && context->contains("gpurun"))
    return true;
  if (const auto benchmarks = document.find("benchmarks");
      benchmarks != document.end() && benchmarks->is_array())
    for (const auto& entry : *benchmarks)
      if (entry.is_object() && entry.contains("gpurun"))
        return true;
  return false;
}

BenchReport parse_result_json(const json& document, std::string_view label) {
  const JsonFields doc(label, document, "");
  const json* benchmarks = doc.array("benchmarks");
  if (!benchmarks)
    invalid_field(label, "benchmarks", "missing: not a gpurun bench result");
  if (!is_result_json(document))
    throw usage_error(
        fmt::format("{}: not a gpurun bench result (gpurun bench --json FILE)", label));
  BenchReport report;
  std::unordered_set<std::string> axes_seen;
  if (const json* context = doc.object("context"))
    read_context(JsonFields(label, *context, "context"), report);
  for (std::size_t i = 0; i < benchmarks->size(); ++i) {
    const JsonFields entry(label, (*benchmarks)[i], fmt::format("benchmarks[{}]", i));
    const json* own = entry.object("gpurun");
    if (!own)
      continue; // an aggregate entry, for Google Benchmark's tools
    report.cases.push_back(read_case(entry, JsonFields(label, *own, entry.field("gpurun"))));
    for (const auto& [axis, value] : report.cases.back().point)
      if (axes_seen.insert(axis).second)
        report.axis_names.push_back(axis);
  }
  return report;
}

BenchReport read_result_json(const std::filesystem::path& path, std::string_view what,
                             std::string_view label) {
  const std::string name = label.empty() ? path.string() : std::string(label);
  return parse_result_json(read_json_file(path, what, name), name);
}

} // namespace gpurun::bench
