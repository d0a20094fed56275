#pragma once
// Tuning caches (docs/tune.md). gpurun's own is JSON Lines, append-only: a header line that says
// what was tuned where, then one line per configuration evaluated, written and flushed as soon as
// it is known, so a search cut short loses nothing it measured and a second run with the cache
// evaluates nothing already in it. A line left half-written by a crash is skipped when read.
// Kernel Tuner's cache files (JSON; "tune_params_keys", "tune_params", "cache") are read too, for
// `--simulate`; and a search is written in Kernel Tuner's T4 results format on request.
#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "bench/axes.hpp"
#include "tune/search.hpp"
#include "tune/space.hpp"

namespace gpurun::tune {

/// What a cache was made for.
struct CacheHeader {
  std::string kernel;
  std::string source;
  std::vector<bench::Axis> params;
  std::vector<std::string> restrictions;
  std::string objective = "time";
  std::string backend;
  std::string device;
};

struct Cache {
  std::string format; ///< "gpurun" or "kernel_tuner"
  CacheHeader header;
  std::map<std::string, Evaluation> evaluations; ///< by configuration key ("16,1,2")
  /// The configurations in the order the cache holds them, as value indices into header.params.
  std::vector<std::vector<std::uint32_t>> configs;
  std::size_t skipped_lines = 0; ///< lines that could not be read (a write cut short)
};

/// Reads a cache of either format; `field` names the option in messages ("--cache PATH").
/// Throws usage Error for a file that cannot be read or is neither format.
[[nodiscard]] Cache read_cache(const std::filesystem::path& path, std::string_view field);

/// Several caches of one space (the shards of a search) as one: each configuration by its values,
/// as positions along the first cache's parameters, the first cache's evaluation kept where they
/// overlap; `configs` in cross-product order. `flag` names the option in messages.
[[nodiscard]] Cache merge_caches(const std::vector<std::string>& paths, std::string_view flag);

/// Throws usage Error naming `field` when `cache` was made for other parameters, another backend
/// or another device than `now`: its timings would not compare.
void check_cache_matches(const Cache& cache, const CacheHeader& now, std::string_view field);

/// Appends to gpurun's cache file; creates it with its header when it does not exist.
class CacheWriter {
public:
  CacheWriter(std::filesystem::path path, const CacheHeader& header);
  CacheWriter(const CacheWriter&) = delete;
  CacheWriter& operator=(const CacheWriter&) = delete;
  ~CacheWriter();
  /// One line, written with a single write() and flushed to the disk.
  void append(const Evaluation& e, const bench::AxisPoint& point);

private:
  std::filesystem::path m_path;
  int m_fd = -1;
};

/// An evaluation as a JSON object (the cache line's and --json's form).
[[nodiscard]] nlohmann::json evaluation_json(const Evaluation& e, const bench::AxisPoint& point);

/// A search in Kernel Tuner's T4 results format (schema 1.0.0): one result per configuration
/// visited, with its times, measurements, objectives and invalidity.
[[nodiscard]] nlohmann::json t4_results(const Space& space, const SearchResult& result,
                                        Objective objective);

} // namespace gpurun::tune
