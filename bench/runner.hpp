#pragma once
// Running a suite's cases on one device: one context for every case, each case prepared through
// the pipeline, verified by a first launch (and its `expect`, when it has one), then sampled; a
// case that fails is reported as skipped and the suite goes on. Several devices share a suite
// through bench/spread.hpp, each device's worker running its cases here.
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
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
  int device_index = 0; ///< the device sampling it
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

/// Hands a device's worker its next case (an index into the case list), nullopt when none is
/// left. Called on the worker's own thread.
using CaseFeed = std::function<std::optional<std::size_t>()>;

/// Why a device stopped in the middle of run_bench_into: it could not make a context (at the
/// start, or after a device error), so it cannot run anything more.
struct DeviceLoss {
  std::exception_ptr error; ///< what creating the context threw
  std::string reason;       ///< its message, one line
  /// Cases the device had taken and not finished: the one whose device error preceded the loss
  /// (its result says so), and under --interleave every case still being sampled.
  std::vector<std::size_t> unfinished;
};

/// The report's device fields (backend, device, arch, L2, bandwidth, clocks) and measurement
/// settings for `target`, without cases.
[[nodiscard]] BenchReport device_report(const std::string& suite_name,
                                        const std::vector<BenchCase>& cases, const Target& target,
                                        const BenchOptions& options);

/// Runs the cases `next` hands out on `target` (one context, remade after a device error),
/// filling `report.cases[i]` — sized to the case list by the caller — for each case taken; the
/// others stay untouched. `report` comes from device_report(). Returns the loss when the device
/// stops being able to make a context; the cases finished before stay in `report`.
[[nodiscard]] std::optional<DeviceLoss>
run_bench_into(BenchReport& report, const std::vector<BenchCase>& cases, const Target& target,
               const BenchOptions& options, const CaseFeed& next);

/// Chooses the next case from the result of the last (gpurun tune): called with nullptr first,
/// then with the result of the case it returned last; nullopt stops.
using AdaptiveFeed = std::function<std::optional<BenchCase>(const CaseResult* last)>;

/// Runs the cases `next` chooses, one after another, on `target` (one context, remade after a
/// device error). `report` comes from device_report(); its case list is used as scratch. Returns
/// the loss when the device stops being able to make a context.
[[nodiscard]] std::optional<DeviceLoss> run_bench_adaptive(BenchReport& report,
                                                           const Target& target,
                                                           const BenchOptions& options,
                                                           const AdaptiveFeed& next);

/// Places a measured case that declares bytes and flops (and has no counted point) under the
/// report's roofs, against the fp32 roof; nothing without roofs.
void place_declared(CaseResult& result, const BenchReport& report);

/// Statistics, throughput and warnings of a measured case; exposed for tests.
void annotate(CaseResult& result, const BenchReport& report, const MeasureOptions& options);

} // namespace gpurun::bench
