#include "bench/merge.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/json_fields.hpp"
#include "base/json_text.hpp"
#include "bench/result_json.hpp"

namespace gpurun::bench {

namespace {

/// One shard's cases, by name.
struct Shard {
  const ShardResult* file = nullptr;
  const ShardInfo* info = nullptr;
  std::map<std::string, const CaseResult*> cases;
};

Shard read_shard(const ShardResult& file) {
  const BenchReport& report = file.report;
  if (!report.shard)
    invalid_field(file.label, "context.gpurun.shard",
                  "missing: not the result of one shard (gpurun bench --shard K/N, or a job "
                  "array's task)");
  if (report.version.empty())
    invalid_field(file.label, "context.gpurun.version", "missing");
  if (report.suite.empty())
    invalid_field(file.label, "context.gpurun.suite", "missing");
  Shard shard{&file, &*report.shard, {}};
  for (const CaseResult& c : report.cases)
    shard.cases.try_emplace(c.name, &c);
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
  const BenchReport& a = first.file->report;
  const BenchReport& b = shard.file->report;
  if (b.version != a.version)
    throw usage_error(fmt::format("{}: gpurun {}, but {}: gpurun {}: merge shards of one gpurun "
                                  "version",
                                  label, b.version, first_label, a.version));
  if (b.suite != a.suite)
    throw usage_error(
        fmt::format("{}: suite '{}', but {}: suite '{}'", label, b.suite, first_label, a.suite));
  if (shard.info->count != first.info->count)
    throw usage_error(fmt::format("{}: shard {}/{}, but {}: shard {}/{}: the shards of one run "
                                  "have the same N",
                                  label, shard.info->index, shard.info->count, first_label,
                                  first.info->index, first.info->count));
  if (shard.info->suite_cases != first.info->suite_cases)
    throw usage_error(fmt::format("{}: suite '{}' expanded to other cases than in {} (another "
                                  "suite file, -a or --filter)",
                                  label, b.suite, first_label));
}

/// Settings that make times comparable; shards that differ in them get a warning.
void compare_settings(const Shard& first, const Shard& shard, std::vector<std::string>& warnings) {
  const BenchReport& a = first.file->report;
  const BenchReport& b = shard.file->report;
  auto differ = [&](const char* key, const auto& va, const auto& vb) {
    if (va != vb)
      warnings.push_back(fmt::format("{}: measured with {} {}, {} with {}", shard.file->label, key,
                                     json_text(nlohmann::json(vb)), first.file->label,
                                     json_text(nlohmann::json(va))));
  };
  differ("backend", a.backend, b.backend);
  differ("mode", a.mode, b.mode);
  differ("hold", a.hold, b.hold);
  differ("max_noise", a.rules.max_noise, b.rules.max_noise);
  differ("min_samples", a.rules.min_samples, b.rules.min_samples);
  differ("min_time_s", a.rules.min_time_s, b.rules.min_time_s);
  differ("timeout_s", a.rules.timeout_s, b.rules.timeout_s);
}

} // namespace

ShardResult read_shard_result(const std::filesystem::path& path) {
  return {path.string(), read_result_json(path, "shard result")};
}

MergedReport merge_shards(const std::vector<ShardResult>& files, const MergeOptions& options) {
  if (files.empty())
    throw usage_error("merge: no shard results given");
  std::vector<Shard> shards;
  for (const auto& file : files)
    shards.push_back(read_shard(file));
  std::stable_sort(shards.begin(), shards.end(),
                   [](const Shard& a, const Shard& b) { return a.info->index < b.info->index; });
  const Shard& first = shards.front();
  const ShardInfo& run = *first.info;
  MergedReport merged;
  merged.suite = first.file->report.suite;
  merged.shard_count = run.count;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    check_same_run(first, shards[i]);
    const ShardInfo& info = *shards[i].info;
    if (i > 0 && info.index == shards[i - 1].info->index)
      throw usage_error(fmt::format("{}: shard {}/{} given twice (also {})", shards[i].file->label,
                                    info.index, info.count, shards[i - 1].file->label));
    compare_settings(first, shards[i], merged.warnings);
    merged.shards.push_back(info.index);
  }

  // Each case from the lowest shard that holds it.
  const std::set<std::string> suite_cases(run.suite_cases.begin(), run.suite_cases.end());
  std::map<std::string, const Shard*> chosen;
  std::set<std::string> duplicated;
  for (const Shard& shard : shards)
    for (const CaseResult& c : shard.file->report.cases) {
      if (!suite_cases.contains(c.name))
        throw usage_error(fmt::format("{}: case '{}' is not one of the suite's cases",
                                      shard.file->label, c.name));
      if (!chosen.try_emplace(c.name, &shard).second)
        duplicated.insert(c.name);
    }
  for (const auto& name : run.suite_cases) {
    if (!chosen.contains(name))
      merged.missing.push_back(name);
    if (duplicated.contains(name))
      merged.duplicated.push_back(name);
  }
  // The K not given (the first few; N may be large).
  std::string absent_shards;
  const std::size_t absent = run.count - merged.shards.size();
  for (std::size_t k = 0, next = 0, named = 0; k < run.count && named < 8 && named < absent; ++k) {
    while (next < merged.shards.size() && merged.shards[next] < k)
      ++next;
    if (next < merged.shards.size() && merged.shards[next] == k)
      continue;
    absent_shards += fmt::format("{}{}/{}", named++ == 0 ? "" : ", ", k, run.count);
  }
  if (absent > 8)
    absent_shards += fmt::format(" and {} more", absent - 8);
  if (!merged.missing.empty() || !merged.duplicated.empty()) {
    std::vector<std::string> parts;
    if (!merged.missing.empty())
      parts.push_back(
          fmt::format("{} of {} cases missing{}: {}", merged.missing.size(), run.suite_cases.size(),
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

  // The merged report: the lowest shard's context, every case in suite order, each saying which
  // host and device measured it.
  BenchReport& report = merged.report;
  report = first.file->report;
  report.cases.clear();
  report.shard.reset();
  MergeRecord record;
  record.shard_count = run.count;
  for (const Shard& shard : shards) {
    const BenchReport& r = shard.file->report;
    std::size_t kept = 0;
    for (const auto& [name, from] : chosen)
      kept += from == &shard ? 1 : 0;
    record.shards.push_back(
        {shard.info->index, shard.file->label, r.host_name, r.device, r.date, kept});
    if (kept > 0 &&
        std::find(merged.hosts.begin(), merged.hosts.end(), r.host_name) == merged.hosts.end())
      merged.hosts.push_back(r.host_name);
  }
  std::map<std::string, std::size_t> cases_per_device;
  for (const auto& name : run.suite_cases) {
    const auto it = chosen.find(name);
    if (it == chosen.end())
      continue;
    const Shard& shard = *it->second;
    CaseResult c = *shard.cases.at(name);
    if (c.host_name.empty())
      c.host_name = shard.file->report.host_name;
    if (c.device.empty()) {
      c.device = shard.file->report.device;
      c.device_index = shard.file->report.device_index;
    }
    if (cases_per_device[c.device]++ == 0)
      merged.devices.push_back(c.device);
    report.cases.push_back(std::move(c));
  }
  merged.cases = report.cases.size();
  if (merged.devices.size() > 1) {
    std::vector<std::string> counts;
    for (const auto& d : merged.devices)
      counts.push_back(fmt::format("{} ({} cases)", d, cases_per_device[d]));
    merged.warnings.push_back(
        fmt::format("cases measured on {} device models: {}; their times compare only within "
                    "one model",
                    merged.devices.size(), fmt::join(counts, ", ")));
  }
  report.host_name = fmt::format("{}", fmt::join(merged.hosts, ", "));
  if (!merged.devices.empty())
    report.device = fmt::format("{}", fmt::join(merged.devices, ", "));
  record.hosts = merged.hosts;
  record.devices = merged.devices;
  record.partial = !merged.missing.empty() || !merged.duplicated.empty();
  record.missing = merged.missing;
  record.duplicated = merged.duplicated;
  record.suite_cases = run.suite_cases.size();
  report.merged = std::move(record);
  return merged;
}

} // namespace gpurun::bench
