#include "tune/strategy.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "base/error.hpp"
#include "base/rng.hpp"

namespace gpurun::tune {

namespace {

constexpr std::array<std::string_view, 5> k_names = {"brute_force", "random", "annealing",
                                                     "genetic", "bayes"};

/// Draws configurations of a space without repetition (a sparse Fisher–Yates shuffle: memory
/// grows with the draws, not with the space).
class Sampler {
public:
  Sampler(std::size_t size, Random& random) : m_size(size), m_random(&random) {}
  /// A configuration not drawn before, nullopt when every one was.
  std::optional<std::size_t> draw() {
    if (m_drawn >= m_size)
      return std::nullopt;
    const std::size_t j = m_drawn + m_random->below(m_size - m_drawn);
    const std::size_t picked = at(j);
    m_swapped[j] = at(m_drawn);
    ++m_drawn;
    return picked;
  }

private:
  std::size_t at(std::size_t i) const {
    const auto it = m_swapped.find(i);
    return it == m_swapped.end() ? i : it->second;
  }
  std::size_t m_size;
  Random* m_random;
  std::size_t m_drawn = 0;
  std::unordered_map<std::size_t, std::size_t> m_swapped;
};

/// What every strategy but brute force keeps: the configurations seen and their costs.
class Memory {
public:
  bool seen(std::size_t i) const { return m_cost.count(i) != 0; }
  void record(std::size_t i, std::optional<double> cost) { m_cost[i] = cost; }
  std::optional<double> cost(std::size_t i) const {
    const auto it = m_cost.find(i);
    return it == m_cost.end() ? std::nullopt : it->second;
  }
  std::size_t count() const { return m_cost.size(); }

private:
  std::unordered_map<std::size_t, std::optional<double>> m_cost;
};

/// A configuration not seen yet, at random: drawn until one is new (the space is never
/// exhausted by a strategy that asks this while count() < size()).
std::optional<std::size_t> unseen_at_random(Sampler& sampler, const Memory& memory) {
  while (auto i = sampler.draw())
    if (!memory.seen(*i))
      return i;
  return std::nullopt;
}

class BruteForce final : public Strategy {
public:
  explicit BruteForce(const Space& space) : m_size(space.size()) {}
  std::optional<std::size_t> next() override {
    if (m_next >= m_size)
      return std::nullopt;
    return m_next++;
  }
  void tell(std::size_t, std::optional<double>) override {}

private:
  std::size_t m_size;
  std::size_t m_next = 0;
};

class RandomSearch final : public Strategy {
public:
  RandomSearch(const Space& space, std::uint64_t seed)
      : m_random(seed), m_sampler(space.size(), m_random) {}
  std::optional<std::size_t> next() override { return m_sampler.draw(); }
  void tell(std::size_t, std::optional<double>) override {}

private:
  Random m_random;
  Sampler m_sampler;
};

/// A neighbour: one parameter moved one value along its list, or (one time in five) to any of
/// its values. nullopt when the draw leaves the space.
std::optional<std::size_t> neighbour(const Space& space, std::size_t from, Random& random) {
  auto coords = space.coords(from);
  const std::size_t j = random.below(coords.size());
  const std::size_t n = space.params()[j].values.size();
  if (n < 2)
    return std::nullopt;
  if (random.below(5) == 0) {
    coords[j] = static_cast<std::uint32_t>(random.below(n));
  } else {
    const bool up = random.below(2) == 0;
    if (up && coords[j] + 1 < n)
      ++coords[j];
    else if (!up && coords[j] > 0)
      --coords[j];
    else
      coords[j] = up ? coords[j] - 1 : coords[j] + 1;
  }
  return space.find(coords);
}

/// Simulated annealing: a walk that always takes a better neighbour and a worse one with
/// probability exp(-Δ/(cost·T)), the temperature falling geometrically from 1 to 0.001 over the
/// first 200 evaluations; a walk with no unseen neighbour left restarts at a random configuration.
class Annealing final : public Strategy {
public:
  Annealing(const Space& space, std::uint64_t seed)
      : m_space(space), m_random(seed), m_sampler(space.size(), m_random) {}
  std::optional<std::size_t> next() override {
    if (m_memory.count() >= m_space.size())
      return std::nullopt;
    if (m_current)
      for (int attempt = 0; attempt < 32; ++attempt) {
        const auto n = neighbour(m_space, *m_current, m_random);
        if (n && !m_memory.seen(*n))
          return n;
      }
    return unseen_at_random(m_sampler, m_memory);
  }
  void tell(std::size_t config, std::optional<double> cost) override {
    m_memory.record(config, cost);
    const double t = std::pow(1e-3, std::min(1.0, static_cast<double>(m_memory.count()) / 200));
    if (!cost)
      return;
    if (!m_current_cost || *cost < *m_current_cost ||
        m_random.unit() < std::exp(-(*cost - *m_current_cost) / (*m_current_cost * t))) {
      m_current = config;
      m_current_cost = cost;
    }
  }

private:
  const Space& m_space;
  Random m_random;
  Sampler m_sampler;
  Memory m_memory;
  std::optional<std::size_t> m_current;
  std::optional<double> m_current_cost;
};

/// A genetic algorithm: generations of 20, parents by tournaments of two among the best 20 seen,
/// uniform crossover, each parameter mutated with probability 1/parameters; a child outside the
/// space or seen before is mutated again, up to 20 times, then replaced by a random configuration.
class Genetic final : public Strategy {
public:
  Genetic(const Space& space, std::uint64_t seed)
      : m_space(space), m_random(seed), m_sampler(space.size(), m_random) {}
  std::optional<std::size_t> next() override {
    if (m_memory.count() + m_pending.size() >= m_space.size() && m_queue.empty())
      return std::nullopt;
    if (m_queue.empty() && m_pending.empty())
      breed();
    if (m_queue.empty())
      return unseen_at_random(m_sampler, m_memory);
    const std::size_t i = m_queue.back();
    m_queue.pop_back();
    m_pending.insert(i);
    return i;
  }
  void tell(std::size_t config, std::optional<double> cost) override {
    m_memory.record(config, cost);
    m_pending.erase(config);
    m_evaluated.push_back(config);
  }

private:
  static constexpr std::size_t k_population = 20;

  bool fresh(std::size_t i) const {
    return !m_memory.seen(i) && m_pending.count(i) == 0 &&
           std::find(m_queue.begin(), m_queue.end(), i) == m_queue.end();
  }
  void breed() {
    // The population: the best evaluated so far (failed ones last).
    std::vector<std::size_t> pool = m_evaluated;
    std::sort(pool.begin(), pool.end(), [&](std::size_t a, std::size_t b) {
      const auto ca = m_memory.cost(a);
      const auto cb = m_memory.cost(b);
      if (ca.has_value() != cb.has_value())
        return ca.has_value();
      return ca && cb ? *ca < *cb : a < b;
    });
    pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
    if (pool.size() > k_population)
      pool.resize(k_population);
    std::vector<std::size_t> children;
    for (std::size_t c = 0; c < k_population; ++c) {
      std::optional<std::size_t> child;
      if (pool.size() >= 2) {
        const auto pick = [&] {
          const std::size_t a = pool[m_random.below(pool.size())];
          const std::size_t b = pool[m_random.below(pool.size())];
          return std::min(a, b, [&](std::size_t x, std::size_t y) {
            const auto cx = m_memory.cost(x);
            const auto cy = m_memory.cost(y);
            return cx && (!cy || *cx < *cy);
          });
        };
        const auto& ma = m_space.coords(pick());
        const auto& pa = m_space.coords(pick());
        std::vector<std::uint32_t> coords(ma.size());
        for (std::size_t j = 0; j < coords.size(); ++j)
          coords[j] = m_random.below(2) == 0 ? ma[j] : pa[j];
        for (int attempt = 0; attempt < 20 && !child; ++attempt) {
          const auto mutate = [&](std::size_t j) {
            coords[j] =
                static_cast<std::uint32_t>(m_random.below(m_space.params()[j].values.size()));
          };
          if (attempt == 0) {
            for (std::size_t j = 0; j < coords.size(); ++j)
              if (m_random.below(coords.size()) == 0)
                mutate(j);
          } else {
            mutate(m_random.below(coords.size()));
          }
          const auto found = m_space.find(coords);
          if (found && fresh(*found) &&
              std::find(children.begin(), children.end(), *found) == children.end())
            child = found;
        }
      }
      if (!child) {
        child = unseen_at_random(m_sampler, m_memory);
        while (child && std::find(children.begin(), children.end(), *child) != children.end())
          child = unseen_at_random(m_sampler, m_memory);
      }
      if (!child)
        break;
      children.push_back(*child);
    }
    // next() takes from the back: the first child first.
    m_queue.assign(children.rbegin(), children.rend());
  }

  const Space& m_space;
  Random m_random;
  Sampler m_sampler;
  Memory m_memory;
  std::vector<std::size_t> m_evaluated;
  std::vector<std::size_t> m_queue;
  std::unordered_set<std::size_t> m_pending;
};

/// The mean and (population) standard deviation the Gaussian process standardizes its targets
/// by; 1 where they do not vary.
struct Scale {
  double mean = 0;
  double sd = 1;
};
Scale scale_of(const std::vector<double>& y) {
  Scale s;
  for (double v : y)
    s.mean += v;
  s.mean /= static_cast<double>(y.size());
  double var = 0;
  for (double v : y)
    var += (v - s.mean) * (v - s.mean);
  if (y.size() > 1 && var > 0)
    s.sd = std::sqrt(var / static_cast<double>(y.size()));
  return s;
}

/// Bayesian optimization: a Gaussian process over the configurations' positions along each
/// parameter (scaled to [0, 1]) models the log of the cost; after 2·parameters+1 random
/// configurations (at least 5), each next one maximizes the expected improvement among the
/// unseen configurations (all of them, or 1000 at random plus every neighbour of the best when
/// there are more). A failed configuration counts as the worst cost seen, which steers the search
/// away from its region. The kernel's length scale is refitted each step by the marginal
/// likelihood over a small grid every 8 evaluations.
class Bayes final : public Strategy {
public:
  Bayes(const Space& space, std::uint64_t seed)
      : m_space(space), m_random(seed), m_sampler(space.size(), m_random),
        m_initial(std::min<std::size_t>(space.size(),
                                        std::max<std::size_t>(5, 2 * space.params().size() + 1))) {}
  std::optional<std::size_t> next() override {
    if (m_memory.count() >= m_space.size())
      return std::nullopt;
    if (m_memory.count() < m_initial || m_valid == 0)
      return unseen_at_random(m_sampler, m_memory);
    return best_candidate();
  }
  void tell(std::size_t config, std::optional<double> cost) override {
    if (m_memory.seen(config))
      return;
    m_memory.record(config, cost);
    m_order.push_back(config);
    if (cost && *cost > 0)
      ++m_valid;
  }

private:
  std::vector<double> features(std::size_t i) const {
    const auto& c = m_space.coords(i);
    std::vector<double> f(c.size());
    for (std::size_t j = 0; j < c.size(); ++j) {
      const std::size_t n = m_space.params()[j].values.size();
      f[j] = n > 1 ? static_cast<double>(c[j]) / static_cast<double>(n - 1) : 0.0;
    }
    return f;
  }

  std::optional<std::size_t> best_candidate() {
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    double worst = -std::numeric_limits<double>::infinity();
    std::size_t best_config = m_order.front();
    double best_y = std::numeric_limits<double>::infinity();
    for (std::size_t i : m_order)
      if (const auto c = m_memory.cost(i); c && *c > 0) {
        worst = std::max(worst, std::log(*c));
        if (std::log(*c) < best_y) {
          best_y = std::log(*c);
          best_config = i;
        }
      }
    for (std::size_t i : m_order) {
      const auto c = m_memory.cost(i);
      x.push_back(features(i));
      y.push_back(c && *c > 0 ? std::log(*c) : worst);
    }
    // The candidates: every unseen configuration when few, else a sample and the best's
    // neighbours.
    std::vector<std::size_t> candidates;
    const std::size_t unseen = m_space.size() - m_memory.count();
    if (unseen <= k_candidates) {
      for (std::size_t i = 0; i < m_space.size(); ++i)
        if (!m_memory.seen(i))
          candidates.push_back(i);
    } else {
      std::unordered_set<std::size_t> picked;
      auto coords = m_space.coords(best_config);
      for (std::size_t j = 0; j < coords.size(); ++j)
        for (std::uint32_t v = 0; v < m_space.params()[j].values.size(); ++v) {
          auto c = coords;
          c[j] = v;
          if (const auto f = m_space.find(c); f && !m_memory.seen(*f) && picked.insert(*f).second)
            candidates.push_back(*f);
        }
      for (std::size_t tries = 0; candidates.size() < k_candidates && tries < 4 * k_candidates;
           ++tries) {
        const std::size_t i = m_random.below(m_space.size());
        if (!m_memory.seen(i) && picked.insert(i).second)
          candidates.push_back(i);
      }
    }
    if (candidates.empty())
      return unseen_at_random(m_sampler, m_memory);
    // The length scale is refitted every few evaluations: a fit costs five factorizations.
    if (m_fitted_at == 0 || m_order.size() >= m_fitted_at + k_refit_every) {
      double best_likelihood = -std::numeric_limits<double>::infinity();
      for (double l : {0.1, 0.2, 0.35, 0.6, 1.0}) {
        const double ll = detail::gp_log_likelihood(x, y, l, k_noise);
        if (ll > best_likelihood) {
          best_likelihood = ll;
          m_length = l;
        }
      }
      m_fitted_at = m_order.size();
    }
    const double length = m_length;
    std::vector<std::vector<double>> at;
    at.reserve(candidates.size());
    for (std::size_t i : candidates)
      at.push_back(features(i));
    const auto predictions = detail::gp_predict(x, y, at, length, k_noise);
    // In the standardized units gp_predict returns: the best observed value, standardized too.
    const Scale scale = scale_of(y);
    const double target = (best_y - scale.mean) / scale.sd;
    std::size_t chosen = candidates.front();
    double best_ei = -1;
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const double ei = detail::expected_improvement(predictions[k], target);
      if (ei > best_ei) {
        best_ei = ei;
        chosen = candidates[k];
      }
    }
    return chosen;
  }

  static constexpr std::size_t k_candidates = 1000;
  static constexpr std::size_t k_refit_every = 8;
  double m_length = 0.3;
  std::size_t m_fitted_at = 0;
  static constexpr double k_noise = 1e-3;
  const Space& m_space;
  Random m_random;
  Sampler m_sampler;
  Memory m_memory;
  std::vector<std::size_t> m_order;
  std::size_t m_initial;
  std::size_t m_valid = 0;
};

double matern52(const std::vector<double>& a, const std::vector<double>& b, double length) {
  double d2 = 0;
  for (std::size_t j = 0; j < a.size(); ++j)
    d2 += (a[j] - b[j]) * (a[j] - b[j]);
  const double r = std::sqrt(5.0 * d2) / length;
  return (1 + r + r * r / 3) * std::exp(-r);
}

/// Lower-triangular Cholesky factor of the kernel matrix (row-major n×n), jitter added until it
/// is positive definite.
std::vector<double> cholesky(const std::vector<std::vector<double>>& x, double length,
                             double noise) {
  const std::size_t n = x.size();
  for (double jitter = noise;; jitter *= 10) {
    std::vector<double> l(n * n, 0.0);
    bool ok = true;
    for (std::size_t i = 0; i < n && ok; ++i)
      for (std::size_t j = 0; j <= i; ++j) {
        double s = matern52(x[i], x[j], length) + (i == j ? jitter : 0.0);
        for (std::size_t k = 0; k < j; ++k)
          s -= l[i * n + k] * l[j * n + k];
        if (i == j) {
          if (!(s > 0)) {
            ok = false;
            break;
          }
          l[i * n + i] = std::sqrt(s);
        } else {
          l[i * n + j] = s / l[j * n + j];
        }
      }
    if (ok || jitter > 1)
      return l;
  }
}

/// Solves L z = b in place.
void forward(const std::vector<double>& l, std::size_t n, std::vector<double>& b) {
  for (std::size_t i = 0; i < n; ++i) {
    double s = b[i];
    for (std::size_t k = 0; k < i; ++k)
      s -= l[i * n + k] * b[k];
    b[i] = s / l[i * n + i];
  }
}
/// Solves Lᵀ z = b in place.
void backward(const std::vector<double>& l, std::size_t n, std::vector<double>& b) {
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t k = i + 1; k < n; ++k)
      s -= l[k * n + i] * b[k];
    b[i] = s / l[i * n + i];
  }
}

std::vector<double> standardized(const std::vector<double>& y) {
  const Scale scale = scale_of(y);
  std::vector<double> z(y.size());
  for (std::size_t i = 0; i < y.size(); ++i)
    z[i] = (y[i] - scale.mean) / scale.sd;
  return z;
}

} // namespace

std::span<const std::string_view> strategy_names() {
  return k_names;
}

std::size_t Random::below(std::size_t n) {
  return static_cast<std::size_t>(bits_to_range(rand_bits64(m_seed, m_counter++), n));
}

double Random::unit() {
  return rand_unit(m_seed, m_counter++, true);
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const Space& space,
                                        std::uint64_t seed, std::string_view field) {
  if (name == "brute_force")
    return std::make_unique<BruteForce>(space);
  if (name == "random")
    return std::make_unique<RandomSearch>(space, seed);
  if (name == "annealing")
    return std::make_unique<Annealing>(space, seed);
  if (name == "genetic")
    return std::make_unique<Genetic>(space, seed);
  if (name == "bayes")
    return std::make_unique<Bayes>(space, seed);
  throw usage_error(fmt::format("{} {}: not a strategy (one of {})", field, name,
                                fmt::join(k_names, ", ")));
}

namespace detail {

std::vector<Prediction> gp_predict(const std::vector<std::vector<double>>& x,
                                   const std::vector<double>& y,
                                   const std::vector<std::vector<double>>& at, double length_scale,
                                   double noise) {
  const std::size_t n = x.size();
  const auto l = cholesky(x, length_scale, noise);
  std::vector<double> alpha = standardized(y);
  forward(l, n, alpha);
  backward(l, n, alpha);
  std::vector<Prediction> out;
  out.reserve(at.size());
  std::vector<double> k(n);
  for (const auto& p : at) {
    for (std::size_t i = 0; i < n; ++i)
      k[i] = matern52(x[i], p, length_scale);
    double mean = 0;
    for (std::size_t i = 0; i < n; ++i)
      mean += k[i] * alpha[i];
    forward(l, n, k);
    double v = 1.0;
    for (double e : k)
      v -= e * e;
    out.push_back({mean, std::sqrt(std::max(v, 1e-12))});
  }
  return out;
}

double gp_log_likelihood(const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                         double length_scale, double noise) {
  const std::size_t n = x.size();
  const auto l = cholesky(x, length_scale, noise);
  std::vector<double> z = standardized(y);
  forward(l, n, z);
  double fit = 0;
  for (double e : z)
    fit += e * e;
  double logdet = 0;
  for (std::size_t i = 0; i < n; ++i)
    logdet += std::log(l[i * n + i]);
  return -0.5 * fit - logdet;
}

double expected_improvement(const Prediction& p, double best) {
  if (!(p.stddev > 0))
    return std::max(0.0, best - p.mean);
  const double z = (best - p.mean) / p.stddev;
  const double cdf = 0.5 * std::erfc(-z / std::sqrt(2.0));
  const double pdf = std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
  return (best - p.mean) * cdf + p.stddev * pdf;
}

} // namespace detail

} // namespace gpurun::tune
