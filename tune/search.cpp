#include "tune/search.hpp"

#include <array>

#include <fmt/format.h>

#include "base/error.hpp"
#include "bench/statistics.hpp"

namespace gpurun::tune {

namespace {

constexpr std::array<std::pair<Status, std::string_view>, 6> k_statuses = {{
    {Status::ok, "ok"},
    {Status::compile_error, "compile_error"},
    {Status::launch_failure, "launch_failure"},
    {Status::wrong_answer, "wrong_answer"},
    {Status::invalid, "invalid"},
    {Status::error, "error"},
}};

/// A strategy that proposes only configurations already visited this many times in a row has
/// nothing new to offer.
constexpr std::size_t k_max_repeats = 100'000;

} // namespace

std::string_view to_string(Status s) {
  for (const auto& [status, name] : k_statuses)
    if (status == s)
      return name;
  return "error";
}

std::optional<Status> status_from_string(std::string_view text) {
  for (const auto& [status, name] : k_statuses)
    if (name == text)
      return status;
  return std::nullopt;
}

Objective parse_objective(std::string_view text, std::string_view field) {
  if (text == "time")
    return Objective::time;
  if (text == "gbs" || text == "GB/s" || text == "bandwidth")
    return Objective::bandwidth;
  if (text == "gflops" || text == "GFLOP/s" || text == "flops")
    return Objective::flops;
  if (text == "energy")
    return Objective::energy;
  throw usage_error(
      fmt::format("{} {}: not an objective (time, gbs, gflops or energy)", field, text));
}

std::string_view to_string(Objective o) {
  switch (o) {
  case Objective::time:
    return "time";
  case Objective::bandwidth:
    return "gbs";
  case Objective::flops:
    return "gflops";
  case Objective::energy:
    return "energy";
  }
  return "time";
}

bool maximized(Objective o) {
  return o == Objective::bandwidth || o == Objective::flops;
}

std::optional<double> objective_value(const Evaluation& e, Objective o) {
  if (e.status != Status::ok)
    return std::nullopt;
  std::optional<double> v;
  switch (o) {
  case Objective::time:
    v = e.time_s;
    break;
  case Objective::bandwidth:
    v = e.gbs;
    break;
  case Objective::flops:
    v = e.gflops;
    break;
  case Objective::energy:
    v = e.energy_j;
    break;
  }
  if (v && !(*v > 0))
    return std::nullopt;
  return v;
}

Search::Search(const Space& space, Strategy& strategy, Objective objective, Budget budget,
               std::map<std::string, Evaluation> known, bool simulated_clock)
    : m_space(space), m_strategy(strategy), m_objective(objective), m_budget(budget),
      m_known(std::move(known)), m_start(std::chrono::steady_clock::now()),
      m_simulated_clock(simulated_clock) {}

double Search::elapsed_s() const {
  if (m_simulated_clock)
    return m_simulated_s;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
}

std::optional<std::size_t> Search::next() {
  if (m_pending)
    throw std::logic_error("Search::next() before the pending evaluation was recorded");
  while (!m_over) {
    if (m_budget.evaluations && m_result.configs.size() >= *m_budget.evaluations) {
      stop("budget");
      break;
    }
    if (m_budget.seconds && elapsed_s() >= *m_budget.seconds) {
      stop("time budget");
      break;
    }
    if (m_result.configs.size() >= m_space.size()) {
      stop("space exhausted");
      break;
    }
    const auto proposed = m_strategy.next();
    if (!proposed) {
      stop("strategy done");
      break;
    }
    if (const auto seen = m_visited.find(*proposed); seen != m_visited.end()) {
      // Told again, so that the strategy moves on.
      const auto v = objective_value(m_result.evaluations[seen->second], m_objective);
      m_strategy.tell(*proposed,
                      v ? std::optional(maximized(m_objective) ? 1.0 / *v : *v) : std::nullopt);
      if (++m_repeats > k_max_repeats)
        stop("strategy repeats itself");
      continue;
    }
    m_repeats = 0;
    const auto known = m_known.find(m_space.key(*proposed));
    if (known != m_known.end()) {
      Evaluation e = known->second;
      e.from_cache = true;
      visit(*proposed, std::move(e));
      continue;
    }
    m_pending = proposed;
    return proposed;
  }
  return std::nullopt;
}

void Search::record(Evaluation e) {
  if (!m_pending)
    throw std::logic_error("Search::record() without a pending configuration");
  const std::size_t config = *m_pending;
  m_pending.reset();
  e.from_cache = false;
  ++m_result.evaluated;
  visit(config, std::move(e));
}

void Search::learn(Evaluation e) {
  m_known[e.key] = std::move(e);
}

void Search::stop(std::string reason) {
  if (m_over)
    return;
  m_over = true;
  m_result.stop = std::move(reason);
}

void Search::visit(std::size_t config, Evaluation e) {
  m_visited[config] = m_result.evaluations.size();
  if (m_simulated_clock)
    m_simulated_s += e.wall_s;
  e.elapsed_s = elapsed_s();
  const auto value = objective_value(e, m_objective);
  m_strategy.tell(config, value ? std::optional(maximized(m_objective) ? 1.0 / *value : *value)
                                : std::nullopt);
  m_result.configs.push_back(config);
  m_result.evaluations.push_back(std::move(e));
  const std::size_t k = m_result.evaluations.size() - 1;
  if (value) {
    const auto best = m_result.best
                          ? objective_value(m_result.evaluations[*m_result.best], m_objective)
                          : std::nullopt;
    if (!best || (maximized(m_objective) ? *value > *best : *value < *best))
      m_result.best = k;
  }
  ConvergencePoint point;
  point.visited = m_result.configs.size();
  point.elapsed_s = m_result.evaluations.back().elapsed_s;
  if (m_result.best)
    point.best = objective_value(m_result.evaluations[*m_result.best], m_objective);
  m_result.convergence.push_back(point);
}

SearchResult simulate(const Space& space, Strategy& strategy, Objective objective, Budget budget,
                      const std::map<std::string, Evaluation>& known) {
  Search search(space, strategy, objective, budget, known, true);
  while (const auto config = search.next()) {
    Evaluation e;
    e.key = space.key(*config);
    e.status = Status::invalid;
    e.reason = "not in the cache";
    search.record(std::move(e));
  }
  return search.result();
}

std::optional<double> best_value(const Space& space,
                                 const std::map<std::string, Evaluation>& known,
                                 Objective objective) {
  std::optional<double> best;
  for (std::size_t i = 0; i < space.size(); ++i) {
    const auto it = known.find(space.key(i));
    if (it == known.end())
      continue;
    const auto v = objective_value(it->second, objective);
    if (v && (!best || (maximized(objective) ? *v > *best : *v < *best)))
      best = v;
  }
  return best;
}

StrategyRecord rate_strategy(std::string_view name, const Space& space,
                             const std::map<std::string, Evaluation>& known, Objective objective,
                             Budget budget, std::uint64_t seed, std::size_t runs, double within) {
  StrategyRecord rec;
  const auto optimum = best_value(space, known, objective);
  if (!optimum || runs == 0)
    return rec;
  const auto good_enough = [&](double v) {
    return maximized(objective) ? v >= *optimum * (1 - within) : v <= *optimum * (1 + within);
  };
  for (std::size_t s = 0; s < runs; ++s) {
    auto strategy = make_strategy(name, space, seed + s);
    const auto r = simulate(space, *strategy, objective, budget, known);
    std::optional<std::size_t> at;
    for (const auto& p : r.convergence)
      if (p.best && good_enough(*p.best)) {
        at = p.visited;
        break;
      }
    if (at)
      ++rec.reached;
    rec.evaluations.push_back(static_cast<double>(at.value_or(space.size())));
  }
  for (double n : rec.evaluations)
    rec.mean += n;
  rec.mean /= static_cast<double>(rec.evaluations.size());
  rec.median = bench::median(rec.evaluations);
  return rec;
}

} // namespace gpurun::tune
