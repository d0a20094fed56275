#include "bench/shard.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <queue>
#include <tuple>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/result_json.hpp"

namespace gpurun::bench {

namespace {

std::optional<std::size_t> whole_number(std::string_view text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end)
    return std::nullopt;
  return value;
}

/// An environment variable as a whole number; nullopt when unset or empty.
std::optional<std::size_t> env_number(const EnvLookup& env, const char* name) {
  const auto text = env(name);
  if (!text || text->empty())
    return std::nullopt;
  const auto value = whole_number(*text);
  if (!value)
    throw usage_error(fmt::format("{}='{}': expected a whole number", name, *text));
  return value;
}

std::optional<ShardSpec> slurm_shard(const EnvLookup& env) {
  const auto id = env_number(env, "SLURM_ARRAY_TASK_ID");
  if (!id)
    return std::nullopt;
  const auto count = env_number(env, "SLURM_ARRAY_TASK_COUNT");
  const auto min = env_number(env, "SLURM_ARRAY_TASK_MIN");
  const auto max = env_number(env, "SLURM_ARRAY_TASK_MAX");
  const std::size_t first = min.value_or(0);
  if (max && *max < first)
    throw usage_error(
        fmt::format("SLURM_ARRAY_TASK_MAX={}: below SLURM_ARRAY_TASK_MIN={}", *max, first));
  if (!count && !max)
    throw usage_error(fmt::format("SLURM_ARRAY_TASK_ID={} is set but neither "
                                  "SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX",
                                  *id));
  if (count && max && *count != *max - first + 1)
    throw usage_error(fmt::format("SLURM_ARRAY_TASK_COUNT={}: disagrees with "
                                  "SLURM_ARRAY_TASK_MIN..MAX = {}..{}; gpurun shards an array "
                                  "without gaps or steps (--array=0-7)",
                                  *count, first, *max));
  const std::size_t n = count ? *count : *max - first + 1;
  if (n == 0)
    throw usage_error("SLURM_ARRAY_TASK_COUNT=0: an array has at least one task");
  if (*id < first || *id - first >= n)
    throw usage_error(fmt::format("SLURM_ARRAY_TASK_ID={}: outside the array's tasks {}..{}", *id,
                                  first, first + n - 1));
  std::string source = fmt::format("SLURM_ARRAY_TASK_ID={}", *id);
  if (min)
    source += fmt::format(", SLURM_ARRAY_TASK_MIN={}", *min);
  source += count ? fmt::format(", SLURM_ARRAY_TASK_COUNT={}", *count)
                  : fmt::format(", SLURM_ARRAY_TASK_MAX={}", *max);
  return ShardSpec{*id - first, n, std::move(source)};
}

std::optional<ShardSpec> kubernetes_shard(const EnvLookup& env) {
  const auto index = env_number(env, "JOB_COMPLETION_INDEX");
  if (!index)
    return std::nullopt;
  const auto count = env_number(env, "GPURUN_SHARD_COUNT");
  if (!count)
    throw usage_error(fmt::format("JOB_COMPLETION_INDEX={} is set but GPURUN_SHARD_COUNT is not: "
                                  "set it to the Job's completions (docs/cluster.md)",
                                  *index));
  if (*count == 0)
    throw usage_error("GPURUN_SHARD_COUNT=0: must be at least 1");
  if (*index >= *count)
    throw usage_error(fmt::format("JOB_COMPLETION_INDEX={}: must be below GPURUN_SHARD_COUNT={}",
                                  *index, *count));
  return ShardSpec{*index, *count,
                   fmt::format("JOB_COMPLETION_INDEX={}, GPURUN_SHARD_COUNT={}", *index, *count)};
}

/// The product of the point's numeric values; text values ("float") and zeros count as 1.
double axes_cost(const AxisPoint& point) {
  double product = 1;
  for (const auto& [name, value] : point) {
    double v = 0;
    const char* end = value.data() + value.size();
    const auto [ptr, ec] = std::from_chars(value.data(), end, v);
    if (ec == std::errc() && ptr == end && std::isfinite(v) && v != 0)
      product *= std::fabs(v);
  }
  return product;
}

/// Whether every case that can run has a positive value of `field`.
bool all_declare(const std::vector<BenchCase>& cases, std::optional<double> BenchCase::*field) {
  bool any = false;
  for (const auto& c : cases) {
    if (c.error)
      continue;
    const auto& v = c.*field;
    if (!v || !(*v > 0) || !std::isfinite(*v))
      return false;
    any = true;
  }
  return any;
}

} // namespace

ShardSpec parse_shard(std::string_view text, std::string_view field) {
  const auto slash = text.find('/');
  const auto k = whole_number(text.substr(0, slash));
  const auto n =
      slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!k || !n)
    throw usage_error(fmt::format("{} '{}': expected K/N, two whole numbers (shard K of N, K from "
                                  "0 to N-1)",
                                  field, text));
  if (*n == 0)
    throw usage_error(fmt::format("{} {}: N must be at least 1", field, text));
  if (*k >= *n)
    throw usage_error(fmt::format("{} {}: K = {} must be below N = {} (shards count from 0)", field,
                                  text, *k, *n));
  return ShardSpec{*k, *n, fmt::format("{} {}", field, text)};
}

EnvLookup process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
}

std::optional<ShardSpec> shard_from_environment(const EnvLookup& env) {
  if (auto slurm = slurm_shard(env))
    return slurm;
  return kubernetes_shard(env);
}

std::string_view to_string(CostBasis basis) {
  switch (basis) {
  case CostBasis::timings:
    return "timings";
  case CostBasis::bytes:
    return "bytes";
  case CostBasis::flops:
    return "flops";
  case CostBasis::axes:
    return "axes";
  }
  return "unknown";
}

CaseCosts estimate_costs(const std::vector<BenchCase>& cases,
                         const std::map<std::string, double>* timings) {
  CaseCosts out;
  out.costs.assign(cases.size(), 0);
  if (timings) {
    double sum = 0;
    std::size_t known = 0;
    for (const auto& c : cases)
      if (const auto it = timings->find(c.name); it != timings->end() && !c.error) {
        sum += it->second;
        ++known;
      }
    if (known > 0) {
      const double mean = sum / static_cast<double>(known);
      for (std::size_t i = 0; i < cases.size(); ++i) {
        if (cases[i].error)
          continue;
        const auto it = timings->find(cases[i].name);
        out.costs[i] = it != timings->end() ? it->second : mean;
      }
      out.basis = CostBasis::timings;
      return out;
    }
  }
  std::optional<double> BenchCase::*declared = nullptr;
  if (all_declare(cases, &BenchCase::bytes)) {
    declared = &BenchCase::bytes;
    out.basis = CostBasis::bytes;
  } else if (all_declare(cases, &BenchCase::flops)) {
    declared = &BenchCase::flops;
    out.basis = CostBasis::flops;
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].error)
      continue;
    out.costs[i] = declared ? *(cases[i].*declared) : axes_cost(cases[i].point);
  }
  return out;
}

std::vector<std::size_t> assign_shards(std::span<const double> costs, std::size_t count) {
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  // With more shards than cases the extra shards stay empty whatever happens: leaving them out
  // changes nothing and keeps a huge N cheap.
  const std::size_t used = std::min(count, costs.size());
  using Load = std::tuple<double, std::size_t, std::size_t>; // cost, cases, shard
  std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
  for (std::size_t s = 0; s < used; ++s)
    least.emplace(0.0, 0, s);
  std::vector<std::size_t> shard(costs.size());
  for (const std::size_t i : order) {
    auto [load, n, s] = least.top();
    least.pop();
    shard[i] = s;
    least.emplace(load + costs[i], n + 1, s);
  }
  return shard;
}

std::map<std::string, double> read_case_timings(const std::filesystem::path& path,
                                                std::string_view field) {
  return case_timings(
      read_result_json(path, "bench result", fmt::format("{} {}", field, path.string())));
}

std::map<std::string, double> case_timings(const BenchReport& report) {
  std::map<std::string, double> timings;
  for (const CaseResult& c : report.cases) {
    if (!c.ok)
      continue;
    double seconds = c.measurement.wall_s;
    if (!(seconds > 0)) {
      seconds = 0;
      for (const double s : c.measurement.samples_s)
        seconds += s;
    }
    if (std::isfinite(seconds) && seconds > 0)
      timings[c.name] = seconds;
  }
  return timings;
}

} // namespace gpurun::bench
