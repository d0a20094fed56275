#include "bench/suite.hpp"

#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/arithmetic.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/json_read.hpp"
#include "base/regex.hpp"
#include "pipeline/spec.hpp"

namespace gpurun::bench {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::string_view k_suite_keys[] = {"name", "description", "defaults", "cases"};
constexpr std::string_view k_bench_keys[] = {"name", "axes", "bytes", "flops"};

std::vector<std::string_view> case_keys() {
  std::vector<std::string_view> keys(std::begin(k_bench_keys), std::end(k_bench_keys));
  for (auto k : spec_keys())
    keys.push_back(k);
  return keys;
}

std::string string_field(const json& j, const std::string& file, const std::string& key) {
  if (!j.is_string())
    throw usage_error(fmt::format("{}: '{}' must be a string", file, key));
  return j.get<std::string>();
}

CaseTemplate read_case(const json& doc, const json& defaults, const std::string& file,
                       const std::string& where) {
  if (!doc.is_object())
    throw usage_error(fmt::format("{}: '{}' must be an object", file, where));
  const auto keys = case_keys();
  check_known_keys(doc, file, where, keys);
  CaseTemplate c;
  if (!doc.contains("name"))
    throw usage_error(fmt::format("{}: '{}.name' is required", file, where));
  c.name = string_field(doc["name"], file, where + ".name");
  if (c.name.empty() || c.name.find('/') != std::string::npos)
    throw usage_error(
        fmt::format("{}: '{}.name' '{}': must be non-empty and without '/'", file, where, c.name));
  c.doc = defaults.is_object() ? defaults : json::object();
  for (const auto& [key, value] : doc.items())
    c.doc[key] = value;
  if (c.doc.contains("axes")) {
    const json& axes = c.doc["axes"];
    if (!axes.is_array())
      throw usage_error(fmt::format("{}: '{}.axes' must be an array of axis texts such as "
                                    "\"N[pow2]=[20:28]\"",
                                    file, where));
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::string key = fmt::format("{}.axes[{}]", where, i);
      c.axes.push_back(parse_axis(string_field(axes[i], file, key), file + ": '" + key + "'"));
    }
  }
  c.doc.erase("name");
  c.doc.erase("axes");
  return c;
}

std::optional<double> per_launch(const json& doc, const char* key, const std::string& case_name,
                                 const std::optional<std::string>& flag, const AxisPoint& point) {
  if (flag)
    return eval_number(substitute(*flag, point), fmt::format("{}: '--{}'", case_name, key));
  if (!doc.contains(key))
    return std::nullopt;
  const json& v = doc[key];
  const std::string field = fmt::format("{}: '{}'", case_name, key);
  if (v.is_number())
    return v.get<double>();
  if (v.is_string())
    return eval_number(v.get<std::string>(), field);
  throw usage_error(fmt::format("{} must be a number or an expression string", field));
}

std::string full_name(const std::string& case_name, const AxisPoint& point) {
  const std::string axes = point_name(point);
  return axes.empty() ? case_name : case_name + "/" + axes;
}

} // namespace

Suite read_suite(const fs::path& path) {
  const json doc = read_json_file(path, "suite");
  std::error_code ec;
  return suite_from_json(doc, path.string(), fs::absolute(path, ec).parent_path(),
                         path.stem().string());
}

Suite suite_from_json(const json& doc, const std::string& file, const fs::path& dir,
                      const std::string& default_name) {
  if (!doc.is_object())
    throw usage_error(fmt::format("{}: a suite is a JSON object with \"cases\"", file));
  check_known_keys(doc, file, "", k_suite_keys);
  Suite suite;
  suite.source_name = file;
  suite.dir = dir;
  suite.name = doc.contains("name") ? string_field(doc["name"], file, "name") : default_name;
  if (doc.contains("description"))
    suite.description = string_field(doc["description"], file, "description");
  json defaults = json::object();
  if (doc.contains("defaults")) {
    defaults = doc["defaults"];
    if (!defaults.is_object())
      throw usage_error(fmt::format("{}: 'defaults' must be an object of case keys", file));
    const auto keys = case_keys();
    check_known_keys(defaults, file, "defaults", keys);
    if (defaults.contains("name"))
      throw usage_error(fmt::format("{}: 'defaults.name': each case names itself", file));
  }
  if (!doc.contains("cases") || !doc["cases"].is_array() || doc["cases"].empty())
    throw usage_error(fmt::format("{}: 'cases' must be a non-empty array", file));
  std::set<std::string> names;
  for (std::size_t i = 0; i < doc["cases"].size(); ++i) {
    CaseTemplate c = read_case(doc["cases"][i], defaults, file, fmt::format("cases[{}]", i));
    if (!names.insert(c.name).second)
      throw usage_error(fmt::format("{}: 'cases[{}].name' '{}' is used twice", file, i, c.name));
    suite.cases.push_back(std::move(c));
  }
  return suite;
}

Suite single_case_suite(const json& case_doc, const std::string& name, const fs::path& dir) {
  Suite suite;
  suite.name = name;
  suite.source_name = "the command line";
  suite.dir = dir;
  CaseTemplate c;
  c.name = name;
  c.doc = case_doc;
  suite.cases.push_back(std::move(c));
  return suite;
}

Suite single_case_suite(const GivenFlags& flags, std::optional<std::string> bytes,
                        std::optional<std::string> flops, const std::string& name,
                        const fs::path& dir) {
  Suite suite = single_case_suite(json::object(), name, dir);
  CaseTemplate& c = suite.cases.front();
  c.flags = flags;
  c.bytes = std::move(bytes);
  c.flops = std::move(flops);
  return suite;
}

std::vector<BenchCase> expand(const Suite& suite, const std::vector<Axis>& overrides,
                              const std::string& filter) {
  // The pattern as messages quote it: a long one by its start.
  const std::string quoted =
      one_line(filter.size() <= 80 ? std::string_view(filter)
                                   : std::string_view(filter).substr(0, 60)) +
      (filter.size() <= 80 ? "" : "…");
  std::optional<Regex> pattern;
  if (!filter.empty())
    pattern = Regex::compile(filter, fmt::format("--filter '{}'", quoted));
  const bool single = suite.cases.size() == 1 && suite.cases.front().axes.empty();
  for (const Axis& o : overrides) {
    const bool used = single || std::any_of(suite.cases.begin(), suite.cases.end(), [&](auto& c) {
                        return std::any_of(c.axes.begin(), c.axes.end(),
                                           [&](const Axis& a) { return a.name == o.name; });
                      });
    if (!used)
      throw usage_error(fmt::format("-a {}: no case of suite '{}' has an axis named '{}'", o.name,
                                    suite.name, o.name));
  }

  std::vector<BenchCase> out;
  for (const CaseTemplate& c : suite.cases) {
    std::vector<Axis> axes = c.axes;
    if (single) {
      axes = overrides;
    } else {
      for (Axis& a : axes)
        for (const Axis& o : overrides)
          if (o.name == a.name)
            a = o;
    }
    for (const AxisPoint& point : cross_product(axes)) {
      BenchCase b;
      b.case_name = c.name;
      b.point = point;
      b.name = full_name(c.name, point);
      if (pattern && !pattern->search(b.name))
        continue;
      try {
        json doc = substitute_case(c.doc, point);
        b.bytes = per_launch(doc, "bytes", b.name, c.bytes, point);
        b.flops = per_launch(doc, "flops", b.name, c.flops, point);
        doc.erase("bytes");
        doc.erase("flops");
        b.request =
            spec_from_json(doc, fmt::format("{}: case '{}'", suite.source_name, b.name), suite.dir);
        apply_flags(b.request, substitute_flags(c.flags, point));
      } catch (const Error& e) {
        if (e.code() != ExitCode::usage)
          throw;
        b.error = e.what();
      }
      out.push_back(std::move(b));
    }
  }
  if (out.empty() && pattern)
    throw usage_error(
        fmt::format("--filter '{}': matches no case of suite '{}'", quoted, suite.name));
  return out;
}

} // namespace gpurun::bench
