#pragma once
// A suite over several devices of one host (`bench --devices`, docs/multi-gpu.md): one worker
// thread per device, each with its own context, taking cases from a queue shared by the devices of
// one model until none is left; the workers' results merged into one report that names the device
// of every case. Devices of different models are kept apart: each model runs the whole suite, so
// that a case is only ever compared with itself on the same model. A device that fails is reported
// and the others go on; a case it was running when it was lost goes back to the queue.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench/report.hpp"
#include "bench/runner.hpp"
#include "bench/suite.hpp"
#include "pipeline/target.hpp"

namespace gpurun::bench {

/// `--devices LIST|all` for a backend with `device_count` devices: "all", or indices and ranges
/// separated by commas ("0,2", "0-3", "0-1,4"), in the order given. A malformed list, a range
/// that runs backwards or an index given twice is a usage Error naming `field`; an index the
/// backend does not have is an unavailable Error (exit 5, as `--device` is) naming `field` and
/// the count.
[[nodiscard]] std::vector<int> parse_device_list(std::string_view text, std::size_t device_count,
                                                 std::string_view field = "--devices");

/// The devices of one model (same name and architecture): positions in the device list.
struct ModelGroup {
  std::string model; ///< "NVIDIA H200"
  std::string arch;  ///< "sm_90"
  std::vector<std::size_t> members;
};

/// The devices grouped by model, groups in the order of their first device.
[[nodiscard]] std::vector<ModelGroup> group_by_model(std::span<const DeviceProperties> devices);

/// The order in which a queue hands out cases: by estimated cost, largest first, equal costs in
/// suite order — longest processing time first, which keeps the last case to finish short.
[[nodiscard]] std::vector<std::size_t> dispatch_order(std::span<const double> costs);

/// Case indices shared by the workers of one model; every call is thread-safe. A worker calls
/// take() when it is ready for a case (so its previous case is finished), and leave() when it
/// stops; take() waits while the queue is empty but another worker still runs a case it could
/// hand back.
class CaseQueue {
public:
  CaseQueue(std::vector<std::size_t> order, std::size_t workers);
  /// The next case for `worker`, nullopt once the queue is empty and no worker runs a case.
  [[nodiscard]] std::optional<std::size_t> take(std::size_t worker);
  /// `worker` stops, handing back the cases it held unfinished (a lost device's); they are
  /// handed out next, in the given order.
  void leave(std::size_t worker, std::span<const std::size_t> unfinished = {});
  /// What nobody took (once every worker has left), in queue order.
  [[nodiscard]] std::vector<std::size_t> drain();

private:
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<std::size_t> m_cases;
  std::vector<bool> m_busy; ///< per worker: holds a case
};

/// Which shard of the suite each worker takes under --interleave, where a worker must hold its
/// cases at once: a cost-balanced share (bench/shard.hpp's assignment), in suite order.
[[nodiscard]] std::vector<std::vector<std::size_t>> interleave_shares(std::span<const double> costs,
                                                                      std::size_t workers);

/// Runs the cases on every target (devices of one backend, in the order listed) and merges the
/// results: the report's device fields are those of the first target, `devices` has one record
/// per target, and `cases` holds every case once per model, models in first-listed order, each
/// result naming its device. `costs` (one per case, as bench/shard.hpp estimates them) orders the
/// queue.
[[nodiscard]] BenchReport run_bench_spread(const std::string& suite_name,
                                           const std::vector<BenchCase>& cases,
                                           const std::vector<Target>& targets,
                                           const BenchOptions& options,
                                           std::span<const double> costs);

} // namespace gpurun::bench
