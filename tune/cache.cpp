#include "tune/cache.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "base/read_file.hpp"

namespace gpurun::tune {

namespace {
using nlohmann::json;

constexpr int k_cache_version = 1;

/// A JSON value of Kernel Tuner's tune_params or a cache entry, as the text gpurun keeps.
std::string value_text(const json& v) {
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_number_integer())
    return std::to_string(v.get<long long>());
  return v.dump();
}

std::optional<double> number(const json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end() || !it->is_number())
    return std::nullopt;
  return it->get<double>();
}

/// A whole number ≥ 0 of a cache line, or 0 when the line holds something else there. A float is
/// no count: 6e+60 converted to an integer has no value.
std::size_t whole_number(const json& doc, const char* key) {
  const auto it = doc.find(key);
  if (it == doc.end())
    return 0;
  if (it->is_number_unsigned())
    return it->get<std::size_t>();
  if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
    return static_cast<std::size_t>(it->get<std::int64_t>());
  return 0;
}

json header_json(const CacheHeader& h) {
  json params = json::array();
  for (const auto& p : h.params)
    params.push_back({{"name", p.name}, {"values", p.values}});
  return {{"gpurun_tune_cache", k_cache_version},
          {"kernel", h.kernel},
          {"source", h.source},
          {"params", params},
          {"restrictions", h.restrictions},
          {"objective", h.objective},
          {"backend", h.backend},
          {"device", h.device}};
}

Evaluation evaluation_from(const json& line) {
  Evaluation e;
  e.key = line.value("key", std::string{}); // re-derived from the configuration by the reader
  const auto status = status_from_string(line.value("status", "error"));
  e.status = status.value_or(Status::error);
  e.reason = line.value("reason", "");
  e.time_s = number(line, "time_s");
  e.gbs = number(line, "gbs");
  e.gflops = number(line, "gflops");
  e.energy_j = number(line, "energy_j");
  e.samples = whole_number(line, "samples");
  e.noise = line.value("noise", 0.0);
  e.wall_s = line.value("wall_s", 0.0);
  e.sampling_s = line.value("sampling_s", 0.0);
  return e;
}

/// Value indices of `config` (name → value) along `params`; nullopt when a value is not listed.
std::optional<std::vector<std::uint32_t>> coords_of(const json& config,
                                                    const std::vector<bench::Axis>& params) {
  std::vector<std::uint32_t> coords;
  for (const auto& p : params) {
    const auto it = config.find(p.name);
    if (it == config.end())
      return std::nullopt;
    const std::string v = value_text(*it);
    const auto at = std::find(p.values.begin(), p.values.end(), v);
    if (at == p.values.end())
      return std::nullopt;
    coords.push_back(static_cast<std::uint32_t>(at - p.values.begin()));
  }
  return coords;
}

Cache read_gpurun_cache(const std::string& text, std::string_view field) {
  Cache cache;
  cache.format = "gpurun";
  std::istringstream lines(text);
  std::string line;
  bool header = false;
  while (std::getline(lines, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos)
      continue;
    json doc;
    try {
      doc = parse_json(line, field);
    } catch (const Error&) {
      ++cache.skipped_lines; // a line cut short by a crash
      continue;
    }
    if (!header) {
      if (!doc.is_object() || !doc.contains("gpurun_tune_cache"))
        throw usage_error(fmt::format("{}: not a gpurun tuning cache (its first line is no "
                                      "header)",
                                      field));
      if (doc.at("gpurun_tune_cache") != k_cache_version)
        throw usage_error(fmt::format("{}: a tuning cache of version {}, this gpurun reads {}",
                                      field, doc.at("gpurun_tune_cache").dump(), k_cache_version));
      try {
        for (const auto& p : doc.at("params"))
          cache.header.params.push_back(
              {p.at("name").get<std::string>(), p.at("values").get<std::vector<std::string>>()});
        cache.header.kernel = doc.value("kernel", "");
        cache.header.source = doc.value("source", "");
        cache.header.restrictions = doc.value("restrictions", std::vector<std::string>{});
        cache.header.objective = doc.value("objective", "time");
        cache.header.backend = doc.value("backend", "");
        cache.header.device = doc.value("device", "");
      } catch (const json::exception& e) {
        throw usage_error(fmt::format("{}: its header is damaged: {}", field, e.what()));
      }
      header = true;
      continue;
    }
    try {
      Evaluation e = evaluation_from(doc);
      const auto coords = coords_of(doc.at("config"), cache.header.params);
      if (!coords) {
        ++cache.skipped_lines;
        continue;
      }
      // The key is the configuration's values, whatever the line says.
      e.key.clear();
      for (std::size_t j = 0; j < coords->size(); ++j)
        e.key += (j == 0 ? "" : ",") + cache.header.params[j].values[(*coords)[j]];
      if (cache.evaluations.count(e.key) == 0)
        cache.configs.push_back(*coords);
      cache.evaluations[e.key] = std::move(e);
    } catch (const json::exception&) {
      ++cache.skipped_lines;
    }
  }
  if (!header)
    throw usage_error(fmt::format("{}: an empty tuning cache", field));
  return cache;
}

/// Kernel Tuner's cache: {"tune_params_keys": [...], "tune_params": {...}, "cache": {"16,1":
/// {..., "time": ms | "InvalidConfig" | "CompilationFailedConfig" | "RuntimeFailedConfig"}}}.
/// A file Kernel Tuner was still writing lacks its closing braces.
/// Python's json writes NaN and Infinity, which JSON has not: read as null.
std::string without_python_numbers(std::string text) {
  for (const std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at)) {
      const char before = at > 0 ? text[at - 1] : ' ';
      if (before == '"' || std::isalnum(static_cast<unsigned char>(before)) != 0) {
        at += word.size();
        continue;
      }
      text.replace(at, word.size(), "null");
    }
  }
  return text;
}

Cache read_kernel_tuner_cache(std::string text, std::string_view field) {
  text = without_python_numbers(std::move(text));
  json doc;
  try {
    doc = parse_json(text, field);
  } catch (const Error&) {
    while (!text.empty() && (std::isspace(static_cast<unsigned char>(text.back())) != 0 ||
                             text.back() == ','))
      text.pop_back();
    doc = parse_json(text + "}}", field);
  }
  Cache cache;
  cache.format = "kernel_tuner";
  try {
    const auto& keys = doc.at("tune_params_keys");
    const auto& values = doc.at("tune_params");
    for (const auto& k : keys) {
      bench::Axis axis{k.get<std::string>(), {}};
      for (const auto& v : values.at(axis.name))
        axis.values.push_back(value_text(v));
      cache.header.params.push_back(std::move(axis));
    }
    cache.header.kernel = doc.value("kernel_name", "");
    cache.header.device = doc.value("device_name", "");
    if (const auto it = doc.find("objective"); it != doc.end())
      cache.header.objective = it->is_array() && !it->empty() && it->front().is_string()
                                   ? it->front().get<std::string>()
                               : it->is_string() ? it->get<std::string>()
                                                 : "time";
    cache.header.backend = "kernel_tuner";
    for (const auto& [key, entry] : doc.at("cache").items()) {
      const auto coords = coords_of(entry, cache.header.params);
      if (!coords) {
        ++cache.skipped_lines;
        continue;
      }
      Evaluation e;
      std::string k;
      for (std::size_t j = 0; j < coords->size(); ++j)
        k += (j == 0 ? "" : ",") + cache.header.params[j].values[(*coords)[j]];
      e.key = k;
      // An invalid configuration: "__error__" (Kernel Tuner 1.4), the error's name in place of
      // the time (0.4.2 to 1.3), or a time of 1e20 (before).
      const auto& time = entry.contains("time") ? entry.at("time") : json();
      const json error = entry.contains("__error__") ? entry.at("__error__") : json();
      if (error.is_null() && time.is_number() && time.get<double>() < 1e20 &&
          time.get<double>() > 0) {
        e.time_s = time.get<double>() / 1e3;
        e.status = Status::ok;
      } else {
        const std::string why = error.is_string() ? error.get<std::string>()
                                : time.is_string() ? time.get<std::string>()
                                : time.is_number() ? "InvalidConfig"
                                                   : "no time";
        e.status = why == "CompilationFailedConfig" ? Status::compile_error
                   : why == "RuntimeFailedConfig"   ? Status::launch_failure
                   : why == "InvalidConfig"         ? Status::invalid
                                                    : Status::error;
        e.reason = why;
      }
      if (const auto it = entry.find("times"); it != entry.end() && it->is_array())
        e.samples = it->size();
      for (const char* name : {"GB/s", "gbs"})
        if (const auto v = number(entry, name))
          e.gbs = v;
      for (const char* name : {"GFLOP/s", "gflops", "GFLOPS"})
        if (const auto v = number(entry, name))
          e.gflops = v;
      if (const auto v = number(entry, "energy"))
        e.energy_j = v;
      // What evaluating it cost, in Kernel Tuner's milliseconds.
      double ms = 0;
      for (const char* part : {"compile_time", "verification_time", "benchmark_time"})
        ms += number(entry, part).value_or(0);
      e.wall_s = ms / 1e3;
      if (cache.evaluations.count(e.key) == 0)
        cache.configs.push_back(*coords);
      cache.evaluations[e.key] = std::move(e);
    }
  } catch (const json::exception& e) {
    throw usage_error(fmt::format("{}: not a Kernel Tuner cache: {}", field, json_error_text(e)));
  }
  return cache;
}

std::string now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&t, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

void write_all(int fd, const std::string& text, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      throw usage_error(fmt::format("--cache {}: cannot write: {}", path.string(),
                                    std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
  (void)::fsync(fd);
}

} // namespace

Cache read_cache(const std::filesystem::path& path, std::string_view field) {
  std::string why;
  auto text = read_file(path, &why);
  if (!text)
    throw usage_error(fmt::format("{}: cannot read the cache: {}", field, why));
  const auto first = text->find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
    throw usage_error(fmt::format("{}: an empty tuning cache", field));
  const auto newline = text->find('\n', first);
  const std::string_view head(text->data() + first,
                              (newline == std::string::npos ? text->size() : newline) - first);
  if (head.find("gpurun_tune_cache") != std::string_view::npos)
    return read_gpurun_cache(*text, field);
  return read_kernel_tuner_cache(std::move(*text), field);
}

Cache merge_caches(const std::vector<std::string>& paths, std::string_view flag) {
  Cache merged;
  std::set<std::string> have;
  for (const auto& path : paths) {
    const std::string field = fmt::format("{} {}", flag, path);
    Cache c = read_cache(path, field);
    if (merged.format.empty()) {
      merged.format = c.format;
      merged.header = c.header;
    } else {
      check_cache_matches(c, merged.header, field);
    }
    for (const auto& coords : c.configs) {
      std::vector<std::uint32_t> mine;
      std::string key;
      for (std::size_t j = 0; j < coords.size(); ++j) {
        const std::string& value = c.header.params[j].values[coords[j]];
        const auto& values = merged.header.params[j].values;
        const auto at = std::find(values.begin(), values.end(), value);
        if (at == values.end())
          break;
        mine.push_back(static_cast<std::uint32_t>(at - values.begin()));
        key += (j == 0 ? "" : ",") + value;
      }
      if (mine.size() == coords.size() && have.insert(key).second) {
        merged.configs.push_back(std::move(mine));
        merged.evaluations[key] = c.evaluations.at(key);
      }
    }
    merged.skipped_lines += c.skipped_lines;
  }
  std::sort(merged.configs.begin(), merged.configs.end());
  return merged;
}

void check_cache_matches(const Cache& cache, const CacheHeader& now, std::string_view field) {
  std::set<std::string> had;
  std::set<std::string> have;
  for (const auto& p : cache.header.params)
    had.insert(p.name);
  for (const auto& p : now.params)
    have.insert(p.name);
  if (had != have)
    throw usage_error(fmt::format("{}: made for the parameters {}, not {}", field,
                                  fmt::join(had, " "), fmt::join(have, " ")));
  if (cache.header.backend != now.backend || cache.header.device != now.device)
    throw usage_error(fmt::format("{}: made on {} ({}), this is {} ({}): its timings would not "
                                  "compare",
                                  field, cache.header.device, cache.header.backend, now.device,
                                  now.backend));
  if (cache.header.kernel != now.kernel || cache.header.source != now.source)
    throw usage_error(fmt::format("{}: made for {} in {}, not {} in {}", field,
                                  cache.header.kernel, cache.header.source, now.kernel,
                                  now.source));
}

CacheWriter::CacheWriter(std::filesystem::path path, const CacheHeader& header)
    : m_path(std::move(path)) {
  m_fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (m_fd < 0)
    throw usage_error(
        fmt::format("--cache {}: cannot open: {}", m_path.string(), std::strerror(errno)));
  const off_t size = ::lseek(m_fd, 0, SEEK_END);
  if (size == 0) {
    write_all(m_fd, header_json(header).dump() + "\n", m_path);
  } else {
    // A last line cut short by a crash ends here, so that the next line starts on its own.
    char last = '\n';
    const int in = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in >= 0) {
      if (::pread(in, &last, 1, size - 1) != 1)
        last = '\n';
      ::close(in);
    }
    if (last != '\n')
      write_all(m_fd, "\n", m_path);
  }
}

CacheWriter::~CacheWriter() {
  if (m_fd >= 0)
    ::close(m_fd);
}

void CacheWriter::append(const Evaluation& e, const bench::AxisPoint& point) {
  json line = evaluation_json(e, point);
  line.erase("from_cache");
  line.erase("elapsed_s");
  line["at"] = now_iso();
  write_all(m_fd, line.dump() + "\n", m_path);
}

json evaluation_json(const Evaluation& e, const bench::AxisPoint& point) {
  json config = json::object();
  for (const auto& [name, value] : point)
    config[name] = value;
  json doc = {{"key", e.key}, {"config", config}, {"status", to_string(e.status)}};
  if (!e.reason.empty())
    doc["reason"] = e.reason;
  const auto put = [&](const char* name, const std::optional<double>& v) {
    if (v)
      doc[name] = *v;
  };
  put("time_s", e.time_s);
  put("gbs", e.gbs);
  put("gflops", e.gflops);
  put("energy_j", e.energy_j);
  doc["samples"] = e.samples;
  doc["noise"] = e.noise;
  doc["wall_s"] = e.wall_s;
  doc["sampling_s"] = e.sampling_s;
  doc["elapsed_s"] = e.elapsed_s;
  doc["from_cache"] = e.from_cache;
  return doc;
}

json t4_results(const Space& space, const SearchResult& r, Objective objective) {
  json results = json::array();
  for (std::size_t i = 0; i < r.evaluations.size(); ++i) {
    const Evaluation& e = r.evaluations[i];
    json configuration = json::object();
    for (const auto& [name, value] : space.point(r.configs[i])) {
      long long n = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
      configuration[name] =
          ec == std::errc() && end == value.data() + value.size() ? json(n) : json(value);
    }
    json measurements = json::array();
    if (e.time_s)
      measurements.push_back({{"name", "time"}, {"value", *e.time_s * 1e3}, {"unit", "ms"}});
    if (e.gbs)
      measurements.push_back({{"name", "GB/s"}, {"value", *e.gbs}, {"unit", "GB/s"}});
    if (e.gflops)
      measurements.push_back({{"name", "GFLOP/s"}, {"value", *e.gflops}, {"unit", "GFLOP/s"}});
    if (e.energy_j)
      measurements.push_back({{"name", "energy"}, {"value", *e.energy_j}, {"unit", "J"}});
    const std::string invalidity = e.status == Status::ok             ? "correct"
                                   : e.status == Status::compile_error ? "compile"
                                   : e.status == Status::launch_failure ? "runtime"
                                   : e.status == Status::wrong_answer   ? "correctness"
                                                                        : "constraints";
    results.push_back({                       {"configuration", configuration},
                       {"times",
                        {{"compilation", 0},
                         {"benchmark", e.wall_s * 1e3},
                         {"framework", 0},
                         {"search_algorithm", 0},
                         {"validation", 0},
                         {"runtimes", e.time_s ? json::array({*e.time_s * 1e3})
                                               : json::array()}}},
                       {"invalidity", invalidity},
                       {"correctness", e.status == Status::wrong_answer ? 0 : 1},
                       {"measurements", measurements},
                       {"objectives", {objective == Objective::time ? "time"
                                       : objective == Objective::bandwidth ? "GB/s"
                                       : objective == Objective::flops     ? "GFLOP/s"
                                                                           : "energy"}}});
  }
  return {{"schema_version", "1.0.0"},
          {"metadata", {{"timeunit", "milliseconds"}}},
          {"results", results}};
}

} // namespace gpurun::tune
