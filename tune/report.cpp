#include "tune/report.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/format.hpp"
#include "tune/cache.hpp"

namespace gpurun::tune {

namespace {

std::string value_text(const Evaluation& e, Objective o) {
  const auto v = objective_value(e, o);
  if (!v)
    return "-";
  switch (o) {
  case Objective::time:
    return format_duration(*v);
  case Objective::bandwidth:
    return fmt::format("{:.1f} GB/s", *v);
  case Objective::flops:
    return fmt::format("{:.1f} GFLOP/s", *v);
  case Objective::energy:
    return fmt::format("{:.3g} J", *v);
  }
  return "-";
}

std::string status_words(Status s) {
  switch (s) {
  case Status::ok:
    return "ok";
  case Status::compile_error:
    return "compile errors";
  case Status::launch_failure:
    return "launch failures";
  case Status::wrong_answer:
    return "wrong answers";
  case Status::invalid:
    return "invalid";
  case Status::error:
    return "errors";
  }
  return "errors";
}

} // namespace

std::vector<std::size_t> top_k(const SearchResult& r, Objective objective, std::size_t k) {
  std::vector<std::size_t> ok;
  for (std::size_t i = 0; i < r.evaluations.size(); ++i)
    if (objective_value(r.evaluations[i], objective))
      ok.push_back(i);
  std::stable_sort(ok.begin(), ok.end(), [&](std::size_t a, std::size_t b) {
    const double va = *objective_value(r.evaluations[a], objective);
    const double vb = *objective_value(r.evaluations[b], objective);
    return maximized(objective) ? va > vb : va < vb;
  });
  if (ok.size() > k)
    ok.resize(k);
  return ok;
}

void print_tune_report(std::ostream& out, const TuneContext& c, const Space& space,
                       const SearchResult& r, std::size_t k) {
  const auto top = top_k(r, c.objective, k);
  if (!top.empty()) {
    std::size_t width = std::string_view("configuration").size();
    for (std::size_t i : top)
      width = std::max(width, display_width(space.describe(r.configs[i])));
    const bool time = c.objective == Objective::time;
    out << fmt::format("{:>4}  {:<{}}  {:>14}{}  {:>8}\n", "rank", "configuration", width,
                       time ? "median" : to_string(c.objective),
                       time ? "" : fmt::format("  {:>10}", "median"), "samples");
    for (std::size_t n = 0; n < top.size(); ++n) {
      const Evaluation& e = r.evaluations[top[n]];
      const std::string config = space.describe(r.configs[top[n]]);
      out << fmt::format("{:>4}  {}{}  {:>14}{}  {:>8}{}\n", n + 1, config,
                         std::string(width - display_width(config), ' '),
                         value_text(e, c.objective),
                         time ? ""
                              : fmt::format("  {:>10}",
                                            e.time_s ? format_duration(*e.time_s) : "-"),
                         e.samples, e.from_cache ? "  (cache)" : "");
    }
  }
  std::map<Status, std::size_t> counts;
  std::size_t from_cache = 0;
  for (const auto& e : r.evaluations) {
    ++counts[e.status];
    from_cache += e.from_cache ? 1 : 0;
  }
  std::vector<std::string> parts;
  for (const auto& [status, n] : counts)
    parts.push_back(fmt::format("{} {}", n, status_words(status)));
  out << fmt::format("{} {} of {} configurations ({} before restrictions){} in {:.1f} s: {}; "
                     "stopped: {}\n",
                     c.simulated_from.empty() ? "visited" : "simulated", r.evaluations.size(),
                     space.size(), space.unrestricted_size(),
                     from_cache > 0 ? fmt::format(", {} from the cache", from_cache) : "",
                     r.convergence.empty() ? 0.0 : r.convergence.back().elapsed_s,
                     fmt::join(parts, ", "), r.stop);
  // The first failure of each kind, so that a systematic one shows at once.
  std::map<Status, bool> shown;
  for (std::size_t i = 0; i < r.evaluations.size(); ++i) {
    const Evaluation& e = r.evaluations[i];
    if (e.status == Status::ok || shown[e.status])
      continue;
    shown[e.status] = true;
    out << fmt::format("  {} e.g. {}: {}\n", status_words(e.status),
                       space.describe(r.configs[i]), one_line(e.reason));
  }
  if (r.best) {
    const Evaluation& b = r.evaluations[*r.best];
    out << fmt::format("best: {}: {}\n", space.describe(r.configs[*r.best]),
                       value_text(b, c.objective));
  } else {
    out << "best: none (no configuration ran and passed its checks)\n";
  }
}

nlohmann::json tune_report_json(const TuneContext& c, const Space& space, const SearchResult& r,
                                std::size_t k) {
  using nlohmann::json;
  json doc;
  doc["tool"] = "gpurun tune";
  doc["kernel"] = c.kernel;
  doc["source"] = c.source;
  doc["backend"] = c.backend;
  doc["device"] = c.device;
  doc["strategy"] = c.strategy;
  doc["seed"] = c.seed;
  doc["objective"] = to_string(c.objective);
  doc["maximize"] = maximized(c.objective);
  if (!c.simulated_from.empty())
    doc["simulated_from"] = c.simulated_from;
  json params = json::object();
  for (const auto& p : space.params())
    params[p.name] = p.values;
  doc["params"] = params;
  doc["restrictions"] = space.restrictions();
  doc["space_size"] = space.size();
  doc["unrestricted_size"] = space.unrestricted_size();
  doc["visited"] = r.evaluations.size();
  doc["evaluated"] = r.evaluated;
  doc["stop"] = r.stop;
  doc["best"] = r.best ? evaluation_json(r.evaluations[*r.best], space.point(r.configs[*r.best]))
                       : json(nullptr);
  json top = json::array();
  for (std::size_t i : top_k(r, c.objective, k))
    top.push_back(evaluation_json(r.evaluations[i], space.point(r.configs[i])));
  doc["top"] = top;
  json all = json::array();
  for (std::size_t i = 0; i < r.evaluations.size(); ++i)
    all.push_back(evaluation_json(r.evaluations[i], space.point(r.configs[i])));
  doc["evaluations"] = all;
  json convergence = json::array();
  for (const auto& p : r.convergence)
    convergence.push_back({{"visited", p.visited},
                           {"elapsed_s", p.elapsed_s},
                           {"best", p.best ? json(*p.best) : json(nullptr)}});
  doc["convergence"] = convergence;
  return doc;
}

} // namespace gpurun::tune
