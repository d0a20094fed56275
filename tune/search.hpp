#pragma once
// The search loop of `gpurun tune` (docs/tune.md), as a state machine so that the same loop runs
// against a device (each configuration compiled, verified and measured by the bench runner) and
// against a cache (`--simulate`): next() asks the strategy for configurations, answers those
// already known without evaluating them again, and returns the first that needs an evaluation;
// record() takes that evaluation. The budget counts configurations visited, known or new, so a
// search resumed from its cache with the same seed retraces its steps without evaluating any.
#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tune/space.hpp"
#include "tune/strategy.hpp"

namespace gpurun::tune {

/// What happened to one configuration.
enum class Status { ok, compile_error, launch_failure, wrong_answer, invalid, error };
[[nodiscard]] std::string_view to_string(Status s);
/// The inverse; nullopt for an unknown text.
[[nodiscard]] std::optional<Status> status_from_string(std::string_view text);

struct Evaluation {
  std::string key; ///< the configuration (Space::key)
  Status status = Status::ok;
  std::string reason;          ///< why it failed (one line)
  std::optional<double> time_s; ///< median seconds per launch
  std::optional<double> gbs;
  std::optional<double> gflops;
  std::optional<double> energy_j; ///< per launch
  std::size_t samples = 0;
  double noise = 0;      ///< relative standard deviation of the samples
  double wall_s = 0;     ///< what evaluating it took (compile, verify, sample)
  double sampling_s = 0; ///< of which sampling (the measurement itself)
  double elapsed_s = 0;  ///< since the search began, when it was known
  bool from_cache = false;
};

enum class Objective { time, bandwidth, flops, energy };
/// "time", "gbs" (GB/s), "gflops" (GFLOP/s), "energy" (joules per launch, NVML); throws usage
/// Error naming `field`.
[[nodiscard]] Objective parse_objective(std::string_view text, std::string_view field);
[[nodiscard]] std::string_view to_string(Objective o);
/// Whether more is better (bandwidth, flops).
[[nodiscard]] bool maximized(Objective o);
/// The evaluation's value of the objective; none when it failed or lacks the figure.
[[nodiscard]] std::optional<double> objective_value(const Evaluation& e, Objective o);

struct Budget {
  std::optional<std::size_t> evaluations; ///< configurations visited
  std::optional<double> seconds;          ///< wall time of the search
};

/// Best-so-far after each configuration visited.
struct ConvergencePoint {
  std::size_t visited = 0; ///< configurations visited so far (1-based)
  double elapsed_s = 0;
  std::optional<double> best; ///< the objective's best value so far
};

struct SearchResult {
  std::vector<std::size_t> configs;   ///< in the order visited
  std::vector<Evaluation> evaluations; ///< the same order
  std::optional<std::size_t> best;     ///< index into evaluations
  std::vector<ConvergencePoint> convergence;
  std::size_t evaluated = 0; ///< configurations evaluated in this search (not from the cache)
  std::string stop;          ///< why it stopped: "budget", "time", "space exhausted", …
};

class Search {
public:
  /// `known`: what is known already (a cache), by configuration key.
  /// `simulated_clock`: time is the sum of the visited evaluations' wall_s (a replay), not the
  /// wall clock.
  Search(const Space& space, Strategy& strategy, Objective objective, Budget budget,
         std::map<std::string, Evaluation> known = {}, bool simulated_clock = false);
  /// The next configuration that needs an evaluation; nullopt when the search is over.
  [[nodiscard]] std::optional<std::size_t> next();
  /// The evaluation of the configuration next() returned last.
  void record(Evaluation e);
  /// Adds what became known outside the strategy's walk (the reference configuration): the
  /// strategy is told when it proposes it.
  void learn(Evaluation e);
  /// Stops the search (a lost device).
  void stop(std::string reason);
  [[nodiscard]] const SearchResult& result() const { return m_result; }
  [[nodiscard]] double elapsed_s() const;

private:
  void visit(std::size_t config, Evaluation e);

  const Space& m_space;
  Strategy& m_strategy;
  Objective m_objective;
  Budget m_budget;
  std::map<std::string, Evaluation> m_known;
  std::map<std::size_t, std::size_t> m_visited; ///< config → index into evaluations
  std::optional<std::size_t> m_pending;
  std::chrono::steady_clock::time_point m_start;
  bool m_simulated_clock = false;
  double m_simulated_s = 0;
  std::size_t m_repeats = 0; ///< proposals in a row of configurations already visited
  bool m_over = false;
  SearchResult m_result;
};

/// Runs a whole search against what is known (`--simulate`): a configuration not known counts
/// as failed ("not in the cache").
[[nodiscard]] SearchResult simulate(const Space& space, Strategy& strategy, Objective objective,
                                    Budget budget, const std::map<std::string, Evaluation>& known);

/// The best value of the objective over the space's configurations that are known.
[[nodiscard]] std::optional<double> best_value(const Space& space,
                                               const std::map<std::string, Evaluation>& known,
                                               Objective objective);

/// How a strategy fares over seeds seed … seed+runs−1 (`--simulate … --repeat`): the
/// configurations each run visited before its best came within `within` (a fraction) of the
/// space's best; a run that never got there counts the whole space.
struct StrategyRecord {
  std::size_t reached = 0;
  double median = 0;
  double mean = 0;
  std::vector<double> evaluations; ///< one per run
};
[[nodiscard]] StrategyRecord rate_strategy(std::string_view name, const Space& space,
                                           const std::map<std::string, Evaluation>& known,
                                           Objective objective, Budget budget, std::uint64_t seed,
                                           std::size_t runs, double within);

} // namespace gpurun::tune
