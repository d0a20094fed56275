#pragma once
// Running a suite's cases on one device: one context for every case, each case prepared through
// the pipeline, verified by a first launch (and its `expect`, when it has one), then sampled; a
// case that fails is reported as skipped and the suite goes on.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "bench/measure.hpp"
#include "bench/report.hpp"
#include "bench/suite.hpp"
#include "pipeline/target.hpp"

namespace gpurun::bench {

/// Where sampling stands, for a progress line.
struct Progress {
  std::size_t index = 0; ///< 0-based case index
  std::size_t count = 0;
  std::string_view name;
  std::size_t samples = 0;
  double noise = 0;
};

struct BenchOptions {
  MeasureOptions measure;
  bool interleave = false; ///< sample the cases round-robin instead of one after another
  bool peak = false;       ///< measure the device's copy bandwidth first (--peak)
  std::function<void(const Progress&)> progress; ///< called after each sample; may be empty
};

/// Runs every case on `target` and returns the report (suite, device, statistics and warnings
/// filled in; version, date and host left to the caller).
[[nodiscard]] BenchReport run_bench(const std::string& suite_name,
                                    const std::vector<BenchCase>& cases, const Target& target,
                                    const BenchOptions& options);

/// Statistics, throughput and warnings of a measured case; exposed for tests.
void annotate(CaseResult& result, const BenchReport& report, const MeasureOptions& options);

} // namespace gpurun::bench
