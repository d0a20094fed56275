#include "output/run_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/format.hpp"
#include "output/color.hpp"
#include "output/counter_report.hpp"
#include "pipeline/counters.hpp"

namespace gpurun {
using nlohmann::json;

namespace {

constexpr std::size_t k_edge_items = 3;
// Wide enough that a fully printed 1-D buffer stays on its line after the "name (type) before: "
// label; 2-D buffers wrap by rows anyway.
constexpr std::size_t k_line_width = 160;

// A time in milliseconds, in the unit that suits it.
std::string ms(double v) {
  return format_duration(v / 1000);
}

// A stat value: seconds as a duration, rates with an SI prefix, counters with separators.
std::string stat_text(const std::string& name, double v) {
  if (name == "seconds")
    return format_duration(v);
  if (name.ends_with("_per_second"))
    return format_si(v) + "/s";
  return format_count(v);
}

std::string error_text(double v) {
  if (std::isinf(v))
    return "inf";
  return fmt::format("{:.3g}", v);
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string name;
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    if (!name.empty())
      out.push_back(name);
  }
  return out;
}

std::vector<const BufferReport*> selected(const RunOutcome& o, const std::string& selection) {
  std::vector<const BufferReport*> out;
  if (selection == "none")
    return out;
  if (selection == "all" || selection == "outputs" || selection.empty()) {
    for (const auto& b : o.buffers) {
      if (selection == "all" || !b.is_input)
        out.push_back(&b);
    }
    return out;
  }
  for (const auto& name : split_names(selection)) {
    auto it = std::find_if(o.buffers.begin(), o.buffers.end(),
                           [&](const BufferReport& b) { return b.name == name; });
    if (it == o.buffers.end()) {
      std::string names;
      for (const auto& b : o.buffers)
        names += (names.empty() ? "" : ", ") + b.name;
      throw usage_error(fmt::format("--print {}: no buffer named '{}' (buffers: {})", selection,
                                    name, names.empty() ? "none" : names));
    }
    out.push_back(&*it);
  }
  return out;
}

// "label: [1 2 3]" on one line; a multi-line (2-D) array starts on the next line, indented.
void print_array(std::string& out, const std::string& label, const HostBuffer& b) {
  const std::string text = format_buffer(b, k_edge_items, k_print_full_elements, k_line_width);
  if (text.find('\n') == std::string::npos) {
    out += label + " " + text + "\n";
    return;
  }
  out += label + "\n  ";
  for (char c : text) {
    out += c;
    if (c == '\n')
      out += "  ";
  }
  out += "\n";
}

void render_check(std::string& out, const CheckReport& c, bool color) {
  const std::string failed = paint(Tone::bad, "FAILED", color);
  if (!c.message.empty()) {
    out += fmt::format("check {}: {}, {}\n", c.name, failed, c.message);
    return;
  }
  const std::string errors = fmt::format("max abs error {}, max rel error {}",
                                         error_text(c.max_abs_error), error_text(c.max_rel_error));
  if (c.passed) {
    out += fmt::format("check {}: {} ({} elements, {})\n", c.name, paint(Tone::good, "ok", color),
                       c.compared, errors);
    return;
  }
  out += fmt::format("check {}: {}, {} of {} elements differ ({})\n", c.name, failed, c.mismatches,
                     c.compared, errors);
  std::size_t wi = 5, wg = 3;
  for (const auto& [index, got, expected] : c.first_mismatches) {
    wi = std::max(wi, std::to_string(index).size());
    wg = std::max(wg, got.size());
  }
  out += fmt::format("  {:>{}}  {:<{}}  expected\n", "index", wi, "got", wg);
  for (const auto& [index, got, expected] : c.first_mismatches) {
    out += fmt::format("  {:>{}}  {:<{}}  {}\n", index, wi, got, wg, expected);
  }
  if (c.mismatches > c.first_mismatches.size()) {
    out += fmt::format("  … {} more\n", c.mismatches - c.first_mismatches.size());
  }
}

std::string timings_line(const Timings& t, const std::string& compiler) {
  std::vector<std::string> parts;
  if (t.init_ms > 0)
    parts.push_back(fmt::format("init {}", ms(t.init_ms)));
  if (t.context_ms > 0)
    parts.push_back(fmt::format("context {}", ms(t.context_ms)));
  std::vector<std::string> notes;
  if (t.cache_hit)
    notes.emplace_back("cache hit");
  if (!compiler.empty())
    notes.push_back(compiler);
  parts.push_back(fmt::format("compile {}{}", ms(t.compile_ms),
                              notes.empty() ? "" : fmt::format(" ({})", fmt::join(notes, ", "))));
  if (t.load_ms > 0)
    parts.push_back(fmt::format("load {}", ms(t.load_ms)));
  parts.push_back(fmt::format("h2d {}", ms(t.h2d_ms)));
  if (t.p2p_ms > 0)
    parts.push_back(fmt::format("p2p {}", ms(t.p2p_ms)));
  std::string kernel = fmt::format("kernel {}", ms(t.kernel_ms));
  if (t.kernel_samples_ms.size() > 1) {
    const auto [lo, hi] =
        std::minmax_element(t.kernel_samples_ms.begin(), t.kernel_samples_ms.end());
    kernel +=
        fmt::format(" (mean of {}, min {}, max {})", t.kernel_samples_ms.size(), ms(*lo), ms(*hi));
  }
  parts.push_back(kernel);
  parts.push_back(fmt::format("d2h {}", ms(t.d2h_ms)));
  if (t.total_ms > 0)
    parts.push_back(fmt::format("total {}", ms(t.total_ms)));
  return fmt::format("{}\n", fmt::join(parts, " · "));
}

// A float value for JSON: the shortest text that round-trips the element type (0.1f → 0.1, not
// 0.10000000149011612), non-finite values as strings JSON can carry.
json element_json(const HostBuffer& b, std::size_t i) {
  const DType t = b.dtype();
  const std::byte* p = b.element(i);
  if (!is_float(t)) {
    if (is_signed_int(t))
      return load_as_int64(t, p);
    return load_as_uint64(t, p);
  }
  const double v = load_as_double(t, p);
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  if (t == DType::f64)
    return v;
  return std::strtod(format_element(t, p).c_str(), nullptr);
}

json number_or_text(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

} // namespace

std::string render_launch_line(const RunOutcome& o) {
  const LaunchConfig& l = o.launch;
  return fmt::format("{}<<<{},{}{}>>> on {}:{} {}\n", o.kernel, to_string(l.grid),
                     to_string(l.block), l.shared_bytes ? fmt::format(",{}", l.shared_bytes) : "",
                     o.backend, o.device_index, o.device_name);
}

std::string render_results(const RunOutcome& o, const std::string& print_selection, bool color) {
  std::string out;
  for (const BufferReport* b : selected(o, print_selection)) {
    const std::string head = fmt::format("{} ({})", b->name, buffer_type_text(b->after));
    if (b->is_input) {
      print_array(out, head + " input:", b->before);
    } else {
      print_array(out, head + " before:", b->before);
      print_array(out, head + " after: ", b->after);
    }
  }
  for (const auto& c : o.checks)
    render_check(out, c, color);
  out += timings_line(o.timings, o.compiler);
  if (!o.stats.empty()) {
    std::vector<std::string> parts;
    for (const auto& [name, value] : o.stats)
      parts.push_back(name + " " + stat_text(name, value));
    out += fmt::format("stats: {}\n", fmt::join(parts, " · "));
  }
  if (o.counters)
    out += counters_text(*o.counters);
  if (o.roofline)
    out += roofline_text(o.roofline->point);
  if (o.status != "ok")
    out += fmt::format("status: {}\n", o.status);
  return out;
}

json occupancy_json(const arch::Occupancy& o) {
  json limits = json::array();
  for (const auto& l : o.limits)
    limits.push_back({{"resource", l.resource},
                      {"blocks", l.blocks >= 1 << 20 ? json() : json(l.blocks)},
                      {"next_step", l.next_step.empty() ? json() : json(l.next_step)}});
  json j;
  j["kernel"] = o.kernel;
  j["arch"] = o.arch;
  j["block_size"] = o.block_size;
  j["dynamic_shared_bytes"] = o.dynamic_shared;
  j["active_blocks_per_sm"] = o.active_blocks_per_sm;
  j["active_warps_per_sm"] = o.active_warps_per_sm;
  j["max_warps_per_sm"] = o.max_warps_per_sm;
  j["occupancy"] = o.occupancy;
  j["limited_by"] = o.limited_by;
  j["limits"] = limits;
  j["allocated_shared_bytes_per_block"] = o.shared_per_block;
  j["allocated_registers_per_block"] = o.registers_per_block;
  j["cannot_launch"] = o.cannot_launch.empty() ? json() : json(o.cannot_launch);
  j["best_block_sizes"] = o.best_block_sizes;
  j["best_occupancy"] = o.best_occupancy;
  return j;
}

std::string occupancy_line(const arch::Occupancy& o) {
  return fmt::format("occupancy: {} blocks of {} threads per SM of {} ({}/{} warps, {:.1f}%), "
                     "limited by {}\n",
                     o.active_blocks_per_sm, o.block_size, o.arch, o.active_warps_per_sm,
                     o.max_warps_per_sm, 100 * o.occupancy,
                     o.cannot_launch.empty() ? fmt::format("{}", fmt::join(o.limited_by, ", "))
                                             : o.cannot_launch);
}

json to_json(const RunOutcome& o) {
  json j;
  j["kernel"] = o.kernel;
  j["lowered_name"] = o.lowered_name;
  j["compiler"] = o.compiler.empty() ? json(nullptr) : json(o.compiler);
  if (!o.source_summary.empty())
    j["left_out"] = o.source_summary;
  j["backend"] = o.backend;
  j["device"] = o.device_name;
  j["device_index"] = o.device_index;
  const auto dims = [](const Dim3& d) { return json::array({d.x, d.y, d.z}); };
  j["grid"] = dims(o.launch.grid);
  j["block"] = dims(o.launch.block);
  j["shared_bytes"] = o.launch.shared_bytes;
  j["attributes"] = {{"registers", o.attributes.registers},
                     {"static_shared_bytes", o.attributes.static_shared_bytes},
                     {"local_bytes", o.attributes.local_bytes},
                     {"const_bytes", o.attributes.const_bytes},
                     {"max_threads_per_block", o.attributes.max_threads_per_block}};
  if (o.occupancy)
    j["occupancy"] = occupancy_json(*o.occupancy);
  const Timings& t = o.timings;
  j["timings_ms"] = {{"init", t.init_ms},        {"context", t.context_ms},
                     {"compile", t.compile_ms},  {"load", t.load_ms},
                     {"cache_hit", t.cache_hit}, {"h2d", t.h2d_ms},
                     {"kernel", t.kernel_ms},    {"kernel_samples", t.kernel_samples_ms},
                     {"d2h", t.d2h_ms},          {"p2p", t.p2p_ms},
                     {"total", t.total_ms}};
  json buffers = json::object();
  for (const auto& b : o.buffers) {
    json e;
    e["dtype"] = dtype_name(b.after.dtype());
    e["shape"] = b.after.shape();
    e["input"] = b.is_input;
    if (b.after.element_count() <= k_json_max_values) {
      json values = json::array();
      for (std::size_t i = 0; i < b.after.element_count(); ++i) {
        values.push_back(element_json(b.after, i));
      }
      e["values"] = std::move(values);
    }
    buffers[b.name] = std::move(e);
  }
  j["buffers"] = std::move(buffers);
  json checks = json::array();
  for (const auto& c : o.checks) {
    json m = json::array();
    for (const auto& [index, got, expected] : c.first_mismatches) {
      m.push_back({{"index", index}, {"got", got}, {"expected", expected}});
    }
    json e = {{"name", c.name},
              {"passed", c.passed},
              {"compared", c.compared},
              {"mismatches", c.mismatches},
              {"max_abs_error", number_or_text(c.max_abs_error)},
              {"max_rel_error", number_or_text(c.max_rel_error)},
              {"first_mismatches", std::move(m)}};
    if (!c.message.empty())
      e["message"] = c.message;
    checks.push_back(std::move(e));
  }
  j["checks"] = std::move(checks);
  j["stats"] = o.stats;
  if (o.counters)
    j["counters"] = counters_json(*o.counters);
  if (o.roofline) {
    j["roofline"] = roofline_point_json(o.roofline->point);
    j["roofline"]["roofs"] = roofline_json(o.roofline->roofline);
  }
  j["status"] = o.status;
  j["exit_code"] = static_cast<int>(o.status == "ok" ? ExitCode::ok : ExitCode::check_failed);
  if (o.device_output)
    j["device_output"] = *o.device_output;
  if (!o.warnings.empty())
    j["warnings"] = o.warnings;
  return j;
}

} // namespace gpurun
