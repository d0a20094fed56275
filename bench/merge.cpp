#include "bench/merge.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_read.hpp"
#include "base/json_text.hpp"

namespace gpurun::bench {

namespace {

using nlohmann::ordered_json;

[[noreturn]] void invalid(const std::string& label, std::string_view field, std::string_view what) {
  throw usage_error(fmt::format("{}: {}: {}", label, field, what));
}

const ordered_json& object_at(const std::string& label, const ordered_json& parent,
                              const std::string& where, const char* key) {
  const auto it = parent.find(key);
  if (it == parent.end() || it->is_null())
    invalid(label, fmt::format("{}.{}", where, key), "missing");
  if (!it->is_object())
    invalid(label, fmt::format("{}.{}", where, key), "expected an object");
  return *it;
}

std::string text_at(const std::string& label, const ordered_json& parent, const std::string& where,
                    const char* key) {
  const auto it = parent.find(key);
  if (it == parent.end() || it->is_null())
    invalid(label, fmt::format("{}.{}", where, key), "missing");
  if (!it->is_string())
    invalid(label, fmt::format("{}.{}", where, key), "expected a string");
  return it->get<std::string>();
}

std::size_t count_at(const std::string& label, const ordered_json& parent, const std::string& where,
                     const char* key) {
  const auto it = parent.find(key);
  if (it == parent.end() || it->is_null())
    invalid(label, fmt::format("{}.{}", where, key), "missing");
  // Counts up to 2^64 - 1 (--shard 0/18446744073709551615) are unsigned: no signed read of them.
  if (it->is_number_unsigned())
    return it->get<std::size_t>();
  if (!it->is_number_integer() || it->get<std::int64_t>() < 0)
    invalid(label, fmt::format("{}.{}", where, key), "expected a whole number ≥ 0");
  return static_cast<std::size_t>(it->get<std::int64_t>());
}

/// A text field that may be absent ("" then).
std::string text_or_empty(const ordered_json& parent, const char* key) {
  const auto it = parent.find(key);
  return it != parent.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// One case of a shard: its entries (the iteration entry and the aggregates after it).
struct ShardCase {
  std::string name;
  std::vector<const ordered_json*> entries;
};

/// What one shard file says about itself and its cases.
struct Shard {
  const ShardResult* file = nullptr;
  std::size_t index = 0;
  std::size_t count = 0;
  std::string version;
  std::string suite;
  std::string host;
  std::string device;
  std::string date;
  std::vector<std::string> suite_cases;
  std::vector<ShardCase> cases;
};

Shard read_shard(const ShardResult& file) {
  const std::string& label = file.label;
  const ordered_json& doc = file.document;
  if (!doc.is_object())
    throw usage_error(fmt::format("{}: not a JSON object", label));
  const ordered_json& context = object_at(label, doc, "", "context");
  if (!context.contains("gpurun"))
    invalid(label, "context.gpurun", "missing: not a gpurun bench result");
  const ordered_json& g = object_at(label, context, "context", "gpurun");
  if (!g.contains("shard") || g["shard"].is_null())
    invalid(label, "context.gpurun.shard",
            "missing: not the result of one shard (gpurun bench --shard K/N, or a job array's "
            "task)");
  const ordered_json& s = object_at(label, g, "context.gpurun", "shard");
  const std::string where = "context.gpurun.shard";
  Shard shard;
  shard.file = &file;
  shard.index = count_at(label, s, where, "index");
  shard.count = count_at(label, s, where, "count");
  if (shard.count == 0 || shard.index >= shard.count)
    invalid(label, where, fmt::format("shard {}/{} is not one of N", shard.index, shard.count));
  shard.version = text_at(label, g, "context.gpurun", "version");
  shard.suite = text_at(label, g, "context.gpurun", "suite");
  shard.device = text_or_empty(g, "device");
  shard.host = text_or_empty(context, "host_name");
  shard.date = text_or_empty(context, "date");
  const auto names = s.find("suite_cases");
  if (names == s.end() || !names->is_array())
    invalid(label, where + ".suite_cases", "expected an array of case names");
  for (std::size_t i = 0; i < names->size(); ++i) {
    if (!(*names)[i].is_string())
      invalid(label, fmt::format("{}.suite_cases[{}]", where, i), "expected a string");
    shard.suite_cases.push_back((*names)[i].get<std::string>());
  }

  const auto benchmarks = doc.find("benchmarks");
  if (benchmarks == doc.end() || !benchmarks->is_array())
    invalid(label, "benchmarks", "expected an array");
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < benchmarks->size(); ++i) {
    const ordered_json& entry = (*benchmarks)[i];
    const std::string at = fmt::format("benchmarks[{}]", i);
    if (!entry.is_object())
      invalid(label, at, "expected an object");
    if (entry.contains("gpurun")) {
      (void)object_at(label, entry, at, "gpurun");
      shard.cases.push_back({text_at(label, entry, at, "name"), {&entry}});
      by_name[shard.cases.back().name] = shard.cases.size() - 1;
      continue;
    }
    // An aggregate written for Google Benchmark's tools: it belongs to its run's case.
    const std::string run = text_or_empty(entry, "run_name");
    if (const auto it = by_name.find(run); it != by_name.end())
      shard.cases[it->second].entries.push_back(&entry);
  }
  return shard;
}

/// "a, b, c and 4 more".
std::string listing(const std::vector<std::string>& names, std::size_t shown = 8) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i)
    out += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > shown)
    out += fmt::format(" and {} more", names.size() - shown);
  return out;
}

void check_same_run(const Shard& first, const Shard& shard) {
  const std::string& label = shard.file->label;
  const std::string& first_label = first.file->label;
  if (shard.version != first.version)
    throw usage_error(fmt::format("{}: gpurun {}, but {}: gpurun {}: merge shards of one gpurun "
                                  "version",
                                  label, shard.version, first_label, first.version));
  if (shard.suite != first.suite)
    throw usage_error(fmt::format("{}: suite '{}', but {}: suite '{}'", label, shard.suite,
                                  first_label, first.suite));
  if (shard.count != first.count)
    throw usage_error(fmt::format("{}: shard {}/{}, but {}: shard {}/{}: the shards of one run "
                                  "have the same N",
                                  label, shard.index, shard.count, first_label, first.index,
                                  first.count));
  if (shard.suite_cases != first.suite_cases)
    throw usage_error(fmt::format("{}: suite '{}' expanded to other cases than in {} (another "
                                  "suite file, -a or --filter)",
                                  label, shard.suite, first_label));
}

/// Settings that make times comparable; shards that differ in them get a warning.
void compare_settings(const Shard& first, const Shard& shard, std::vector<std::string>& warnings) {
  static const char* const keys[] = {"backend",     "mode",       "hold",     "max_noise",
                                     "min_samples", "min_time_s", "timeout_s"};
  const ordered_json& a = first.file->document["context"]["gpurun"];
  const ordered_json& b = shard.file->document["context"]["gpurun"];
  for (const char* key : keys) {
    const ordered_json va = a.contains(key) ? a[key] : ordered_json();
    const ordered_json vb = b.contains(key) ? b[key] : ordered_json();
    if (va != vb)
      warnings.push_back(fmt::format("{}: measured with {} {}, {} with {}", shard.file->label, key,
                                     json_text(vb), first.file->label, json_text(va)));
  }
}

} // namespace

ShardResult read_shard_result(const std::filesystem::path& path) {
  return {path.string(), read_json_file<ordered_json>(path, "shard result")};
}

MergedReport merge_shards(const std::vector<ShardResult>& files, const MergeOptions& options) {
  if (files.empty())
    throw usage_error("merge: no shard results given");
  std::vector<Shard> shards;
  for (const auto& file : files)
    shards.push_back(read_shard(file));
  std::stable_sort(shards.begin(), shards.end(),
                   [](const Shard& a, const Shard& b) { return a.index < b.index; });
  const Shard& first = shards.front();
  MergedReport merged;
  merged.suite = first.suite;
  merged.shard_count = first.count;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    check_same_run(first, shards[i]);
    if (i > 0 && shards[i].index == shards[i - 1].index)
      throw usage_error(fmt::format("{}: shard {}/{} given twice (also {})", shards[i].file->label,
                                    shards[i].index, shards[i].count, shards[i - 1].file->label));
    compare_settings(first, shards[i], merged.warnings);
    merged.shards.push_back(shards[i].index);
  }

  // Each case from the lowest shard that holds it.
  const std::set<std::string> suite_cases(first.suite_cases.begin(), first.suite_cases.end());
  std::map<std::string, std::pair<const Shard*, const ShardCase*>> chosen;
  std::set<std::string> duplicated;
  std::map<std::string, std::size_t> cases_per_device;
  for (const Shard& shard : shards)
    for (const ShardCase& c : shard.cases) {
      if (!suite_cases.contains(c.name))
        throw usage_error(fmt::format("{}: case '{}' is not one of the suite's cases",
                                      shard.file->label, c.name));
      if (!chosen.try_emplace(c.name, &shard, &c).second)
        duplicated.insert(c.name);
    }
  for (const auto& name : first.suite_cases) {
    if (!chosen.contains(name))
      merged.missing.push_back(name);
    if (duplicated.contains(name))
      merged.duplicated.push_back(name);
  }
  // The K not given (the first few; N may be large).
  std::string absent_shards;
  const std::size_t absent = first.count - merged.shards.size();
  for (std::size_t k = 0, next = 0, named = 0; k < first.count && named < 8 && named < absent;
       ++k) {
    while (next < merged.shards.size() && merged.shards[next] < k)
      ++next;
    if (next < merged.shards.size() && merged.shards[next] == k)
      continue;
    absent_shards += fmt::format("{}{}/{}", named++ == 0 ? "" : ", ", k, first.count);
  }
  if (absent > 8)
    absent_shards += fmt::format(" and {} more", absent - 8);
  if (!merged.missing.empty() || !merged.duplicated.empty()) {
    std::vector<std::string> parts;
    if (!merged.missing.empty())
      parts.push_back(fmt::format(
          "{} of {} cases missing{}: {}", merged.missing.size(), first.suite_cases.size(),
          absent_shards.empty() ? std::string()
                                : fmt::format(" (shards not given: {})", absent_shards),
          listing(merged.missing)));
    if (!merged.duplicated.empty())
      parts.push_back(fmt::format("{} case{} in more than one shard: {}", merged.duplicated.size(),
                                  merged.duplicated.size() == 1 ? "" : "s",
                                  listing(merged.duplicated)));
    const std::string text = fmt::format("{}", fmt::join(parts, "; "));
    if (!options.allow_partial)
      throw usage_error(fmt::format("merge: {} (--allow-partial merges what there is)", text));
    merged.warnings.push_back(fmt::format("partial merge: {}", text));
  }

  // The merged document: the lowest shard's context, every case in suite order.
  ordered_json doc = first.file->document;
  ordered_json benchmarks = ordered_json::array();
  ordered_json shard_list = ordered_json::array();
  for (const Shard& shard : shards) {
    std::size_t kept = 0;
    for (const auto& [name, from] : chosen)
      kept += from.first == &shard ? 1 : 0;
    shard_list.push_back({{"index", shard.index},
                          {"file", shard.file->label},
                          {"host_name", shard.host},
                          {"device", shard.device},
                          {"date", shard.date},
                          {"cases", kept}});
    if (kept > 0 &&
        std::find(merged.hosts.begin(), merged.hosts.end(), shard.host) == merged.hosts.end())
      merged.hosts.push_back(shard.host);
  }
  for (const auto& name : first.suite_cases) {
    const auto it = chosen.find(name);
    if (it == chosen.end())
      continue;
    const auto& [shard, c] = it->second;
    const std::size_t family = merged.cases++;
    for (const ordered_json* entry : c->entries) {
      ordered_json copy = *entry;
      copy["family_index"] = family;
      if (copy.contains("gpurun")) {
        ordered_json& g = copy["gpurun"];
        if (!g.contains("host_name"))
          g["host_name"] = shard->host;
        if (!g.contains("device"))
          g["device"] = shard->device;
        const std::string device = text_or_empty(g, "device");
        if (cases_per_device[device]++ == 0)
          merged.devices.push_back(device);
      }
      benchmarks.push_back(std::move(copy));
    }
  }
  if (merged.devices.size() > 1) {
    std::vector<std::string> counts;
    for (const auto& d : merged.devices)
      counts.push_back(fmt::format("{} ({} cases)", d, cases_per_device[d]));
    merged.warnings.push_back(
        fmt::format("cases measured on {} device models: {}; their times compare only within "
                    "one model",
                    merged.devices.size(), fmt::join(counts, ", ")));
  }

  ordered_json& context = doc["context"];
  context["host_name"] = fmt::format("{}", fmt::join(merged.hosts, ", "));
  ordered_json& g = context["gpurun"];
  g.erase("shard");
  if (!merged.devices.empty())
    g["device"] = fmt::format("{}", fmt::join(merged.devices, ", "));
  g["merged"] = {{"shard_count", first.count},
                 {"shards", shard_list},
                 {"hosts", merged.hosts},
                 {"devices", merged.devices},
                 {"partial", !merged.missing.empty() || !merged.duplicated.empty()},
                 {"missing", merged.missing},
                 {"duplicated", merged.duplicated},
                 {"suite_cases", first.suite_cases.size()}};
  doc["benchmarks"] = std::move(benchmarks);
  merged.document = std::move(doc);
  return merged;
}

} // namespace gpurun::bench
