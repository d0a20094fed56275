#pragma once
// Search strategies over a Space (docs/tune.md): each proposes the next configuration to
// evaluate and is told its cost (lower is better; none for a configuration that failed). Brute
// force, random sampling, simulated annealing, a genetic algorithm and Bayesian optimization with
// a Gaussian process. All are deterministic for a seed, on any machine: their randomness comes
// from the counter-based generator of base/rng.hpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tune/space.hpp"

namespace gpurun::tune {

/// The strategies' names, in help's order.
[[nodiscard]] std::span<const std::string_view> strategy_names();

class Strategy {
public:
  virtual ~Strategy() = default;
  /// The next configuration to evaluate; nullopt when the strategy has nothing more to try. A
  /// configuration already evaluated may come again; the caller then answers it from what it
  /// knows without evaluating it twice.
  [[nodiscard]] virtual std::optional<std::size_t> next() = 0;
  /// The outcome of a configuration next() proposed: its cost, or none when it failed.
  virtual void tell(std::size_t config, std::optional<double> cost) = 0;
};

/// Throws usage Error naming `field` for an unknown name.
[[nodiscard]] std::unique_ptr<Strategy> make_strategy(std::string_view name, const Space& space,
                                                      std::uint64_t seed,
                                                      std::string_view field = "--strategy");

/// Deterministic random numbers for a seed (Philox, one counter step per draw).
class Random {
public:
  explicit Random(std::uint64_t seed) : m_seed(seed) {}
  /// Uniform in [0, n); n > 0.
  [[nodiscard]] std::size_t below(std::size_t n);
  /// Uniform in [0, 1).
  [[nodiscard]] double unit();

private:
  std::uint64_t m_seed;
  std::uint64_t m_counter = 0;
};

namespace detail {
/// A Gaussian process's prediction at one point.
struct Prediction {
  double mean = 0;
  double stddev = 0;
};
/// Gaussian-process regression with a Matérn 5/2 kernel (unit signal variance, `noise` added on
/// the diagonal) over points in [0, 1]^d: fitted to `y` (standardized inside), predicting at
/// `at`. Exposed for tests.
[[nodiscard]] std::vector<Prediction> gp_predict(const std::vector<std::vector<double>>& x,
                                                 const std::vector<double>& y,
                                                 const std::vector<std::vector<double>>& at,
                                                 double length_scale, double noise);
/// The log marginal likelihood of `y` (standardized) under the same model.
[[nodiscard]] double gp_log_likelihood(const std::vector<std::vector<double>>& x,
                                       const std::vector<double>& y, double length_scale,
                                       double noise);
/// Expected improvement below `best` of a normal prediction.
[[nodiscard]] double expected_improvement(const Prediction& p, double best);
} // namespace detail

} // namespace gpurun::tune
