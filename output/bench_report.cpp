#include "output/bench_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace gpurun {

namespace {

using bench::BenchReport;
using bench::CaseResult;

std::string axis_value(const CaseResult& c, const std::string& axis) {
  for (const auto& [name, value] : c.point)
    if (name == axis)
      return value;
  return "";
}

// Throughput with three significant digits, without exponents: 4123, 41.2, 0.0123.
std::string throughput(std::optional<double> v) {
  if (!v)
    return {};
  if (*v >= 100)
    return fmt::format("{:.0f}", *v);
  if (*v >= 10)
    return fmt::format("{:.1f}", *v);
  return fmt::format("{:.3g}", *v);
}

std::string percent(std::optional<double> v) {
  return v ? fmt::format("{:.1f}%", 100 * *v) : std::string();
}

// Markdown cells must not carry '|' or line breaks.
std::string cell(std::string text) {
  for (char& ch : text)
    if (ch == '|' || ch == '\n')
      ch = ch == '|' ? '/' : ' ';
  return text;
}

struct Column {
  std::string title;
  bool right = true;
  std::vector<std::string> cells;
};

std::string render_table(const std::vector<Column>& columns, std::size_t rows) {
  std::vector<std::size_t> widths;
  for (const auto& c : columns) {
    std::size_t w = c.title.size();
    for (const auto& text : c.cells)
      w = std::max(w, display_width(text));
    widths.push_back(std::max<std::size_t>(w, 3));
  }
  auto pad = [](const std::string& text, std::size_t width, bool right) {
    const std::size_t w = display_width(text);
    const std::string fill = fmt::format("{:{}}", "", width > w ? width - w : 0);
    return right ? fill + text : text + fill;
  };
  std::string out = "|";
  for (std::size_t i = 0; i < columns.size(); ++i)
    out += fmt::format(" {} |", pad(columns[i].title, widths[i], columns[i].right));
  out += "\n|";
  for (std::size_t i = 0; i < columns.size(); ++i)
    out += columns[i].right ? fmt::format(" {:-<{}}: |", "", widths[i] - 1)
                            : fmt::format(" :{:-<{}} |", "", widths[i] - 1);
  out += "\n";
  for (std::size_t r = 0; r < rows; ++r) {
    out += "|";
    for (std::size_t i = 0; i < columns.size(); ++i)
      out += fmt::format(" {} |", pad(columns[i].cells[r], widths[i], columns[i].right));
    out += "\n";
  }
  return out;
}

bool any_of_cases(const BenchReport& report, bool (*has)(const CaseResult&)) {
  return std::any_of(report.cases.begin(), report.cases.end(), has);
}

} // namespace

std::string bench_markdown(const BenchReport& report) {
  const auto& cases = report.cases;
  std::vector<Column> columns;
  auto add = [&](std::string title, bool right, auto&& value) {
    Column c{std::move(title), right, {}};
    for (const auto& r : cases)
      c.cells.push_back(cell(value(r)));
    columns.push_back(std::move(c));
  };
  add("case", false, [](const CaseResult& c) { return c.case_name; });
  for (const auto& axis : report.axis_names)
    add(axis, true, [&](const CaseResult& c) { return axis_value(c, axis); });
  add("samples", true, [](const CaseResult& c) {
    return c.ok ? std::to_string(c.summary.count) : std::string("skipped");
  });
  auto time = [](double bench::SampleSummary::*field) {
    return [field](const CaseResult& c) {
      return c.ok ? format_duration(c.summary.*field) : std::string();
    };
  };
  add("median", true, time(&bench::SampleSummary::median));
  add("min", true, time(&bench::SampleSummary::min));
  add("max", true, time(&bench::SampleSummary::max));
  add("noise", true, [](const CaseResult& c) {
    return c.ok ? fmt::format("{:.2f}%", 100 * c.summary.noise) : std::string();
  });
  if (any_of_cases(report, [](const CaseResult& c) { return c.batch.has_value(); }))
    add("batch", true, [](const CaseResult& c) {
      return c.batch ? format_duration(c.batch->median) : std::string();
    });
  if (any_of_cases(report, [](const CaseResult& c) { return c.bandwidth_gbs.has_value(); })) {
    add("GB/s", true, [](const CaseResult& c) { return throughput(c.bandwidth_gbs); });
    if (report.peak_bandwidth_gbs > 0)
      add("% peak", true, [](const CaseResult& c) { return percent(c.peak_fraction); });
    if (report.measured_peak_gbs)
      add("% measured", true,
          [](const CaseResult& c) { return percent(c.measured_peak_fraction); });
  }
  if (any_of_cases(report, [](const CaseResult& c) { return c.gflops.has_value(); }))
    add("GFLOP/s", true, [](const CaseResult& c) { return throughput(c.gflops); });
  if (any_of_cases(report, [](const CaseResult& c) { return c.roofline.has_value(); })) {
    add("flop/byte", true, [](const CaseResult& c) {
      return c.roofline ? fmt::format("{:.3g}", c.roofline->intensity) : std::string();
    });
    add("% roof", true, [](const CaseResult& c) {
      return c.roofline ? percent(c.roofline->fraction) : std::string();
    });
    add("bound", false, [](const CaseResult& c) {
      return c.roofline ? c.roofline->bound : std::string();
    });
  }
  if (report.multi_device())
    add("device", true, [](const CaseResult& c) {
      return c.device_index < 0 ? std::string("-") : std::to_string(c.device_index);
    });
  add("stop", false, [](const CaseResult& c) {
    return c.ok ? std::string(bench::to_string(c.measurement.stop_reason)) : std::string();
  });
  add("warnings", false, [](const CaseResult& c) {
    if (!c.ok)
      return "skipped: " + c.reason;
    return c.warnings.empty() ? std::string() : fmt::format("{}", fmt::join(c.warnings, "; "));
  });
  return render_table(columns, cases.size());
}

std::vector<ModelSection> bench_model_sections(const BenchReport& report) {
  if (!report.multi_device())
    return {ModelSection{{}, report}};
  std::vector<ModelSection> sections;
  for (const auto& d : report.devices) {
    auto it = std::find_if(sections.begin(), sections.end(), [&](const ModelSection& s) {
      return s.report.device == d.name && s.report.arch == d.arch;
    });
    if (it == sections.end()) {
      BenchReport part = report;
      part.cases.clear();
      part.devices.clear();
      part.p2p.reset();
      part.device = d.name;
      part.device_index = d.index;
      part.arch = d.arch;
      part.driver_version = d.driver_version;
      part.l2_bytes = d.l2_bytes;
      part.peak_bandwidth_gbs = d.peak_bandwidth_gbs;
      part.measured_peak_gbs = d.measured_peak_gbs;
      part.peak_error = d.peak_error;
      part.clocks = d.clocks;
      sections.push_back(ModelSection{{}, std::move(part)});
      it = std::prev(sections.end());
    }
    it->report.devices.push_back(d);
  }
  for (auto& section : sections) {
    std::vector<std::string> indices;
    for (const auto& d : section.report.devices)
      indices.push_back(std::to_string(d.index));
    section.title = fmt::format("{} ({}), device{} {}", section.report.device, section.report.arch,
                                indices.size() == 1 ? "" : "s", fmt::join(indices, ", "));
    for (const auto& c : report.cases)
      if (c.device == section.report.device &&
          std::any_of(section.report.devices.begin(), section.report.devices.end(),
                      [&](const bench::DeviceRecord& d) {
                        return c.device_index == d.index || c.device_index < 0;
                      }))
        section.report.cases.push_back(c);
  }
  return sections;
}

std::string bench_devices_text(const BenchReport& report) {
  std::string out;
  for (const auto& d : report.devices) {
    out += fmt::format("  {}:{}  {}  {} case{} in {}", report.backend, d.index, d.name, d.cases,
                       d.cases == 1 ? "" : "s", format_duration(d.busy_s));
    if (d.failed())
      out += fmt::format("  FAILED: {}", d.error);
    out += '\n';
  }
  return out;
}

std::string p2p_markdown(const bench::PeerMatrix& m) {
  std::vector<Column> columns;
  Column from{"from \\ to", false, {}};
  for (int d : m.devices)
    from.cells.push_back(std::to_string(d));
  columns.push_back(std::move(from));
  for (std::size_t j = 0; j < m.devices.size(); ++j) {
    Column c{std::to_string(m.devices[j]), true, {}};
    for (std::size_t i = 0; i < m.devices.size(); ++i) {
      const auto& v = m.gbs[i][j];
      if (!v)
        c.cells.push_back("failed");
      else
        c.cells.push_back(throughput(*v) + (m.path[i][j] == "staged" ? " (host)" : ""));
    }
    columns.push_back(std::move(c));
  }
  std::string out = render_table(columns, m.devices.size());
  for (const auto& e : m.errors)
    out += e + '\n';
  return out;
}

std::string bench_csv(const BenchReport& report) {
  std::string out = "name,case";
  for (const auto& axis : report.axis_names)
    out += fmt::format(",{}", axis);
  out += ",status,samples,median_s,mean_s,min_s,max_s,stdev_s,noise,batch_s,bandwidth_gbs,"
         "peak_fraction,gflops,stop_reason,throttled_discarded,reason";
  // Several devices: which one measured each case (columns a one-device report does not have).
  const bool multi = report.multi_device();
  out += multi ? ",device_index,device\n" : "\n";
  auto quoted = [](const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos)
      return text;
    std::string q = "\"";
    for (char ch : text)
      q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  auto number = [](std::optional<double> v) {
    return v ? fmt::format("{:.9g}", *v) : std::string();
  };
  for (const auto& c : report.cases) {
    out += fmt::format("{},{}", quoted(c.name), quoted(c.case_name));
    for (const auto& axis : report.axis_names)
      out += fmt::format(",{}", quoted(axis_value(c, axis)));
    const std::string device_columns =
        multi ? fmt::format(",{},{}", c.device_index, quoted(c.device)) : std::string();
    if (!c.ok) {
      out += fmt::format(",skipped,0,,,,,,,,,,,,0,{}{}\n", quoted(c.reason), device_columns);
      continue;
    }
    const auto& s = c.summary;
    out +=
        fmt::format(",ok,{},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.6g},{},{},{},{},{},{},{}{}\n",
                    s.count, s.median, s.mean, s.min, s.max, s.stdev, s.noise,
                    number(c.batch ? std::optional(c.batch->median) : std::nullopt),
                    number(c.bandwidth_gbs), number(c.peak_fraction), number(c.gflops),
                    bench::to_string(c.measurement.stop_reason), c.measurement.throttled_discarded,
                    quoted(fmt::format("{}", fmt::join(c.warnings, "; "))), device_columns);
  }
  return out;
}

} // namespace gpurun
