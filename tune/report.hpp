#pragma once
// What `gpurun tune` prints and writes (docs/tune.md): the top configurations as a table, the
// counts of failures and the best; the whole search as one JSON document (`--json FILE`: `best`,
// `top`, every evaluation in visit order, the convergence); the convergence as plot data.
#include <cstddef>
#include <ostream>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "tune/search.hpp"
#include "tune/space.hpp"

namespace gpurun::tune {

/// Where and what was tuned, for the report's header.
struct TuneContext {
  std::string kernel;
  std::string source;
  std::string backend;
  std::string device;
  std::string strategy;
  std::uint64_t seed = 0;
  Objective objective = Objective::time;
  std::string simulated_from; ///< the cache a --simulate replayed
};

/// The visited configurations that succeeded, best first (ties: visit order), at most `k`.
[[nodiscard]] std::vector<std::size_t> top_k(const SearchResult& r, Objective objective,
                                             std::size_t k);

/// The table of the top `k`, the failures by kind and the best, for a terminal.
void print_tune_report(std::ostream& out, const TuneContext& context, const Space& space,
                       const SearchResult& r, std::size_t k);

/// The whole search as one document.
[[nodiscard]] nlohmann::json tune_report_json(const TuneContext& context, const Space& space,
                                              const SearchResult& r, std::size_t k);

} // namespace gpurun::tune
