#include "bench/result_file.hpp"

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_fields.hpp"
#include "base/json_read.hpp"
#include "base/read_file.hpp"
#include "bench/result_json.hpp"

namespace gpurun::bench {

namespace {

using nlohmann::json;

/// Cases by name (and, in gpurun's files, device model) in the order first seen; entries of one
/// name and model add to the same case.
class CaseCollector {
public:
  StoredCase& at(const std::string& name, const std::string& device = {}) {
    const auto [it, added] = m_index.try_emplace(name + '\0' + device, m_cases.size());
    if (added)
      m_cases.push_back(StoredCase{name, {}, false, {}, device});
    return m_cases[it->second];
  }
  StoredCase& operator[](const std::string& name) { return at(name); }
  void skip(const std::string& name, std::string reason, const std::string& device = {}) {
    StoredCase& c = at(name, device);
    c.skipped = true;
    if (c.reason.empty())
      c.reason = std::move(reason);
  }
  [[nodiscard]] std::vector<StoredCase> take() { return std::move(m_cases); }

private:
  std::vector<StoredCase> m_cases;
  std::unordered_map<std::string, std::size_t> m_index;
};

// ---- gpurun bench ------------------------------------------------------------------------------

/// A gpurun bench result (bench/result_json): each case with its raw samples; a file whose case
/// kept no samples (written by hand) stands with its median.
std::vector<StoredCase> stored_cases(const BenchReport& report) {
  CaseCollector cases;
  for (const CaseResult& c : report.cases) {
    if (!c.ok) {
      cases.skip(c.name, c.reason, c.device);
      continue;
    }
    StoredCase& stored = cases.at(c.name, c.device);
    const auto& samples = c.measurement.samples_s;
    if (samples.empty())
      stored.samples_s.push_back(c.summary.median);
    else
      stored.samples_s.insert(stored.samples_s.end(), samples.begin(), samples.end());
  }
  return cases.take();
}

// ---- Google Benchmark --------------------------------------------------------------------------

double seconds_per_unit(std::string_view label, const JsonFields& entry) {
  const std::string unit = entry.text("time_unit").value_or("ns");
  if (unit == "ns")
    return 1e-9;
  if (unit == "us")
    return 1e-6;
  if (unit == "ms")
    return 1e-3;
  if (unit == "s")
    return 1;
  invalid_field(label, entry.field("time_unit"), fmt::format("unknown unit \"{}\"", unit));
}

std::vector<StoredCase> parse_google_benchmark(std::string_view label, const json& benchmarks) {
  CaseCollector cases;
  // Aggregates stand in for a case only when it has no iteration entries (a run with
  // --benchmark_report_aggregates_only); the median is preferred to the mean.
  std::unordered_map<std::string, double> medians;
  std::unordered_map<std::string, double> means;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    const JsonFields entry(label, benchmarks[i], fmt::format("benchmarks[{}]", i));
    const auto aggregate = entry.text("aggregate_name");
    const std::string run_type = entry.text("run_type").value_or(aggregate ? "aggregate" : "");
    std::string name = entry.required_text("name");
    if (auto run_name = entry.text("run_name"))
      name = *run_name;
    else if (aggregate && name.ends_with("_" + *aggregate)) // before run_name existed
      name.resize(name.size() - aggregate->size() - 1);

    if (entry.flag("error_occurred").value_or(false) || entry.flag("skipped").value_or(false)) {
      cases.skip(
          name,
          entry.text("error_message").value_or(entry.text("skip_message").value_or("skipped")));
      continue;
    }
    if (run_type == "iteration" || run_type.empty()) {
      cases[name].samples_s.push_back(entry.required_number("real_time") *
                                      seconds_per_unit(label, entry));
      continue;
    }
    if (run_type != "aggregate")
      invalid_field(label, entry.field("run_type"),
                    fmt::format("expected \"iteration\" or \"aggregate\", got \"{}\"", run_type));
    if (entry.text("aggregate_unit").value_or("time") != "time")
      continue;
    (void)cases[name]; // keeps the case in file order
    if (aggregate == "median")
      medians[name] = entry.required_number("real_time") * seconds_per_unit(label, entry);
    else if (aggregate == "mean")
      means[name] = entry.required_number("real_time") * seconds_per_unit(label, entry);
  }
  auto result = cases.take();
  for (auto& c : result) {
    if (c.skipped || !c.samples_s.empty())
      continue;
    if (const auto it = medians.find(c.name); it != medians.end())
      c.samples_s.push_back(it->second);
    else if (const auto it2 = means.find(c.name); it2 != means.end())
      c.samples_s.push_back(it2->second);
    else {
      c.skipped = true;
      c.reason = "no time in the file (only statistics other than the mean and median)";
    }
  }
  return result;
}

// ---- nvbench -----------------------------------------------------------------------------------

/// nvbench's summaries by tag; each holds its values as [{"name", "type", "value"}] under "data".
class Summaries {
public:
  Summaries(std::string_view label, const JsonFields& state) : m_label(label) {
    const json* list = state.find("summaries");
    if (!list)
      return;
    if (!list->is_array())
      invalid_field(label, state.field("summaries"), "expected an array");
    for (std::size_t k = 0; k < list->size(); ++k) {
      const std::string where = fmt::format("{}[{}]", state.field("summaries"), k);
      const JsonFields summary(label, (*list)[k], where);
      m_by_tag.try_emplace(summary.required_text("tag"), Entry{&(*list)[k], where});
    }
  }

  /// The value named `name` of the summary `tag`, as text (nvbench writes numbers as strings).
  [[nodiscard]] std::optional<std::string> value(const std::string& tag,
                                                 std::string_view name) const {
    const auto it = m_by_tag.find(tag);
    if (it == m_by_tag.end())
      return std::nullopt;
    const json* data = json_member(*it->second.summary, "data");
    if (!data)
      return std::nullopt;
    if (!data->is_array())
      invalid_field(m_label, it->second.where + ".data", "expected an array");
    for (std::size_t k = 0; k < data->size(); ++k) {
      const JsonFields item(m_label, (*data)[k], fmt::format("{}.data[{}]", it->second.where, k));
      if (item.text("name") != name)
        continue;
      const json* v = item.find("value");
      if (v && v->is_string())
        return v->get<std::string>();
      if (v && v->is_number())
        return v->dump();
      invalid_field(m_label, item.field("value"), "expected a string or a number");
    }
    return std::nullopt;
  }

  [[nodiscard]] std::optional<double> number(const std::string& tag, std::string_view name) const {
    const auto text = value(tag, name);
    if (!text)
      return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text->c_str(), &end);
    if (text->empty() || *end != '\0')
      invalid_field(m_label, m_by_tag.at(tag).where,
                    fmt::format("\"{}\" of {} is not a number: \"{}\"", name, tag, *text));
    return v;
  }

private:
  struct Entry {
    const json* summary;
    std::string where;
  };
  std::string_view m_label;
  std::unordered_map<std::string, Entry> m_by_tag;
};

/// Little-endian float32 values, as nvbench writes its sample-time files; `error` says why when the
/// file cannot be used. `expected` < 0: any count.
std::vector<double> read_float32_file(const std::filesystem::path& path, std::int64_t expected,
                                      std::string& error) {
  const auto bytes = read_file(path);
  if (!bytes) {
    error = "cannot be read";
    return {};
  }
  if (bytes->size() % 4 != 0) {
    error = fmt::format("holds {} bytes, not a whole number of float32 values", bytes->size());
    return {};
  }
  if (expected >= 0 && static_cast<std::int64_t>(bytes->size() / 4) != expected) {
    error = fmt::format("holds {} float32 values, not the {} its summary gives", bytes->size() / 4,
                        expected);
    return {};
  }
  if (bytes->empty()) {
    error = "is empty";
    return {};
  }
  std::vector<double> values(bytes->size() / 4);
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t word = 0;
    std::memcpy(&word, bytes->data() + 4 * i, 4);
    if constexpr (std::endian::native == std::endian::big)
      word = __builtin_bswap32(word);
    values[i] = std::bit_cast<float>(word);
  }
  return values;
}

std::vector<StoredCase> parse_nvbench(std::string_view label, const json& benchmarks,
                                      const std::filesystem::path& folder,
                                      std::vector<std::string>& warnings) {
  // Sample files first (cold measurements, then CPU-only benchmarks); otherwise one value.
  static const char* const sample_file_tags[] = {"nv/json/bin:nv/cold/sample_times",
                                                 "nv/json/bin:nv/cpu_only/sample_times"};
  static const char* const time_tags[] = {"nv/cold/time/gpu/median", "nv/cold/time/gpu/mean",
                                          "nv/cpu_only/time/cpu/median",
                                          "nv/cpu_only/time/cpu/mean"};
  CaseCollector cases;
  for (std::size_t b = 0; b < benchmarks.size(); ++b) {
    const JsonFields bench(label, benchmarks[b], fmt::format("benchmarks[{}]", b));
    const std::string bench_name = bench.required_text("name");
    const json* states = bench.find("states");
    if (!states)
      continue; // a benchmark list (--list --json) has no results
    if (!states->is_array())
      invalid_field(label, bench.field("states"), "expected an array");
    for (std::size_t s = 0; s < states->size(); ++s) {
      const JsonFields state(label, (*states)[s], fmt::format("{}[{}]", bench.field("states"), s));
      const std::string state_name = state.text("name").value_or("");
      const std::string name = state_name.empty() ? bench_name : bench_name + "/" + state_name;
      if (state.flag("is_skipped").value_or(false)) {
        cases.skip(name, state.text("skip_reason").value_or("skipped"));
        continue;
      }
      const Summaries summaries(label, state);
      StoredCase& c = cases[name];
      for (const char* tag : sample_file_tags) {
        const auto file = summaries.value(tag, "filename");
        if (!file)
          continue;
        const auto size = summaries.number(tag, "size").value_or(-1);
        const std::filesystem::path path = std::filesystem::path(*file).is_absolute()
                                               ? std::filesystem::path(*file)
                                               : folder / *file;
        std::string error;
        auto samples = read_float32_file(path, static_cast<std::int64_t>(size), error);
        if (error.empty()) {
          c.samples_s = std::move(samples);
          break;
        }
        warnings.push_back(fmt::format("{}: {}: sample file {} {}; compared by its summary time",
                                       label, name, path.string(), error));
      }
      if (!c.samples_s.empty())
        continue;
      for (const char* tag : time_tags) {
        if (const auto v = summaries.number(tag, "value")) {
          c.samples_s.push_back(*v);
          break;
        }
      }
      if (c.samples_s.empty()) {
        c.skipped = true;
        c.reason = "no time summary (nv/cold/time/gpu/mean)";
      }
    }
  }
  return cases.take();
}

} // namespace

std::string_view to_string(ResultFormat format) {
  switch (format) {
  case ResultFormat::gpurun:
    return "gpurun";
  case ResultFormat::google_benchmark:
    return "google-benchmark";
  case ResultFormat::nvbench:
    return "nvbench";
  }
  return "unknown";
}

ResultFile parse_result_document(const json& document, std::string_view label,
                                 const std::filesystem::path& folder) {
  if (!document.is_object())
    throw usage_error(fmt::format("{}: not a JSON object", label));
  const json* benchmarks = json_member(document, "benchmarks");
  if (!benchmarks)
    invalid_field(label, "benchmarks",
                  "missing: not a gpurun, Google Benchmark or nvbench result file");
  if (!benchmarks->is_array())
    invalid_field(label, "benchmarks", "expected an array");

  const auto any_entry_has = [&](const char* key) {
    for (const auto& entry : *benchmarks)
      if (entry.is_object() && entry.contains(key))
        return true;
    return false;
  };
  ResultFile file;
  file.label = std::string(label);
  if (is_result_json(document)) {
    file.format = ResultFormat::gpurun;
    const BenchReport report = parse_result_json(document, label);
    file.cases = stored_cases(report);
    file.environment = report.environment;
  } else if (json_member(document, "meta") || any_entry_has("states")) {
    file.format = ResultFormat::nvbench;
    file.cases = parse_nvbench(label, *benchmarks, folder, file.warnings);
  } else {
    file.format = ResultFormat::google_benchmark;
    file.cases = parse_google_benchmark(label, *benchmarks);
  }
  return file;
}

ResultFile read_result_file(const std::filesystem::path& path) {
  const std::string label = path.string();
  return parse_result_document(read_json_file(path, "result"), label, path.parent_path());
}

} // namespace gpurun::bench
