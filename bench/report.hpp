#pragma once
// What `gpurun bench` found: the context of the measurement and one result per case, with its
// statistics and warnings. Printed by the output layer (Printer::print_bench) as a table, Google
// Benchmark's JSON, CSV or Markdown.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench/axes.hpp"
#include "bench/measure.hpp"
#include "bench/statistics.hpp"
#include "pipeline/roofline.hpp"

namespace gpurun::bench {

struct CaseResult {
  std::string name;      ///< "copy/N:1048576"
  std::string case_name; ///< "copy"
  AxisPoint point;
  bool ok = false;
  std::string reason; ///< why the case was skipped
  /// What kind of failure skipped it: "compile", "check" (an expect did not hold), "device" (a
  /// launch or device error, a watchdog timeout), "spec" (its parameters are invalid); empty
  /// when it ran.
  std::string failure;
  Measurement measurement;
  SampleSummary summary;                        ///< of measurement.samples_s
  std::optional<SampleSummary> batch;           ///< of measurement.batch_samples_s
  std::optional<double> bytes;                  ///< per launch
  std::optional<double> flops;                  ///< per launch
  std::optional<double> bandwidth_gbs;          ///< bytes / median
  std::optional<double> peak_fraction;          ///< of the device's theoretical bandwidth
  std::optional<double> measured_peak_fraction; ///< of `bench --peak`'s measured bandwidth
  std::optional<double> gflops;                 ///< flops / median
  /// --metrics: the hardware counters of one launch, collected after the samples.
  std::optional<CounterReport> counters;
  /// Where the case sits on the roofline: from its counters with the roofline preset, else from
  /// its declared bytes and flops (fp32 roof), timed by its median.
  std::optional<RooflinePoint> roofline;
  std::size_t outliers = 0;
  std::vector<std::string> warnings;
  std::string device;    ///< the model of the device that measured the case ("NVIDIA H200")
  int device_index = 0;  ///< its index in the backend (`--device`)
  std::string host_name; ///< the host that measured it, when not the report's (a merge)
};

/// One device of a multi-device run (`bench --devices`): what it is, what it measured, and why it
/// stopped when it failed.
struct DeviceRecord {
  int index = 0;    ///< in the backend (`--device`)
  std::string name; ///< the model
  std::string arch;
  std::string driver_version;
  std::size_t l2_bytes = 0;
  double peak_bandwidth_gbs = 0; ///< theoretical; 0 when unknown
  std::optional<double> measured_peak_gbs;
  std::string peak_error;
  std::string clocks;    ///< "nvml" or "unavailable: <reason>"
  std::size_t cases = 0; ///< cases it measured (ok or skipped)
  double busy_s = 0;     ///< wall time its worker ran
  std::string error;     ///< why the device stopped (empty: it did not fail)
  std::optional<Roofline> roofline; ///< its roofs (not in the JSON: the report's are)
  [[nodiscard]] bool failed() const { return !error.empty(); }
};

/// Copy bandwidth between every ordered pair of devices (`bench --p2p`).
struct PeerMatrix {
  std::vector<int> devices; ///< the device indices, in row and column order
  std::size_t bytes = 0;    ///< per copy
  /// gbs[from][to]: GB/s of a copy from device row to device column (the diagonal: a copy
  /// within one device); nullopt where it failed
  std::vector<std::vector<std::optional<double>>> gbs;
  /// path[from][to]: "direct", "staged", or "" on the diagonal and where it failed
  std::vector<std::vector<std::string>> path;
  std::vector<std::string> errors; ///< one line per pair that failed
};

/// Which shard of a suite a report holds (bench --shard, or a job array's task).
struct ShardInfo {
  std::size_t index = 0;
  std::size_t count = 1;
  std::string source;     ///< what said so: "--shard 2/8", "SLURM_ARRAY_TASK_ID=2, …"
  std::string cost_basis; ///< what the balance was made of: "bytes", "timings", …
  /// Every case of the suite as expanded, in suite order: what the shards together hold, so that
  /// `gpurun merge` can name the cases a missing shard had.
  std::vector<std::string> suite_cases;
};

/// Where the cases of a merged report came from (`gpurun merge`).
struct MergeRecord {
  struct Shard {
    std::size_t index = 0; ///< K
    std::string file;      ///< as given to merge
    std::string host_name;
    std::string device;
    std::string date;
    std::size_t cases = 0; ///< the merged report holds this many of its cases
  };
  std::size_t shard_count = 0;         ///< N
  std::vector<Shard> shards;           ///< those given, ascending K
  std::vector<std::string> hosts;      ///< that measured cases, in shard order
  std::vector<std::string> devices;    ///< device models that measured cases, in shard order
  bool partial = false;                ///< cases are missing or duplicated
  std::vector<std::string> missing;    ///< cases no shard holds
  std::vector<std::string> duplicated; ///< cases several shards hold; the lowest K's is kept
  std::size_t suite_cases = 0;         ///< cases of the suite
};

struct BenchReport {
  std::string suite;
  std::string version; ///< gpurun's
  std::string date;    ///< ISO 8601 with the UTC offset
  std::string host_name;
  std::string backend;
  std::string device;
  int device_index = 0;
  std::string arch;
  std::string driver_version;
  std::size_t l2_bytes = 0;
  double peak_bandwidth_gbs = 0; ///< theoretical; 0 when unknown
  std::optional<double> measured_peak_gbs;
  std::string peak_error; ///< why --peak measured nothing
  std::string mode;       ///< "cold", "hot" or "batch"
  bool hold = true;       ///< samples were taken behind a stream hold
  StoppingRules rules;
  std::string clocks;                  ///< "nvml" or "unavailable: <reason>"
  /// The machine, build and device settings the figures were taken under (bench/environment.hpp):
  /// gpurun_version, build_type, cpu, cpus, os, backend, device, driver_version, and from NVML
  /// power_limit_w, ecc, mig, persistence_mode, sm_clock_application_mhz, … where it reports them.
  std::vector<std::pair<std::string, std::string>> environment;
  /// The device's roofs: from the counters of the roofline preset when collected, else from its
  /// properties and default SM clock; empty when neither is known (the CPU backend).
  std::optional<Roofline> roofline;
  std::vector<std::string> axis_names; ///< every axis of every case, in first-seen order
  std::vector<CaseResult> cases;
  std::optional<ShardInfo> shard;    ///< when the report holds one shard of the suite
  std::optional<MergeRecord> merged; ///< when it was merged from shards
  /// The devices of `bench --devices`, in the order given (empty for a run on one device, which
  /// the fields above describe). Cases of different models are not mixed: every model runs the
  /// whole suite, and its cases follow each other in `cases`, models in first-listed order.
  std::vector<DeviceRecord> devices;
  std::optional<PeerMatrix> p2p; ///< bench --p2p
  double wall_s = 0;             ///< the suite from start to end on all devices (multi-device)

  /// Whether the cases come from several devices.
  [[nodiscard]] bool multi_device() const { return !devices.empty(); }

  [[nodiscard]] std::size_t failed() const {
    std::size_t n = 0;
    for (const auto& c : cases)
      n += c.ok ? 0 : 1;
    return n;
  }
};

} // namespace gpurun::bench
