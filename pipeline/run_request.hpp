#pragma once
// What one `gpurun run` is asked to do (from flags and/or a JSON spec), and what it produced.
// The CLI (app/run_options.cpp) and the JSON spec reader (pipeline/spec.cpp) fill RunRequest; the
// pipeline stages (pipeline/prepare.cpp, execute.cpp, collect.cpp) turn it into a RunOutcome; the
// printers (output/) print that.

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/kit/cuda_occupancy.hpp"
#include "base/dims.hpp"
#include "base/host_buffer.hpp"
#include "pipeline/roofline.hpp"

namespace gpurun {

struct RunRequest {
  std::filesystem::path source; ///< kernel file
  /// The source text when it does not come from a file (an embedded kernel); `source` then only
  /// names it (its extension gives the language).
  std::optional<std::string> source_text;
  std::optional<std::string> kernel; ///< --kernel; default: the only kernel in the file
  std::optional<Dim3> grid;          ///< --grid (required in the end)
  std::optional<Dim3> block;         ///< --block (required in the end)
  std::size_t shared_bytes = 0;      ///< --shared
  std::vector<std::string> args;     ///< --arg grammar strings, in order
  std::vector<std::string> globals;  ///< --global NAME=SPEC
  /// --memory NAME=SPEC: device buffers no parameter takes, reached through &NAME pointers
  std::vector<std::string> memory;
  std::vector<std::string> expects;  ///< --expect NAME=@ref.npy | NAME=[…]
  /// --metrics: hardware counters (names, presets, `list`; pipeline/counters.hpp)
  std::vector<std::string> metrics;
  double rtol = 1e-5;
  double atol = 1e-8;
  bool exact = false; ///< --exact: --expect compares bit for bit
  std::string backend = "auto";
  int device = 0;
  CompileOptions compile;        ///< -D -I --std --arch --opt
  std::string print = "outputs"; ///< --print: "outputs" (default), "all", "none", or names
  std::optional<std::filesystem::path> save_dir; ///< --save DIR
  int repeat = 1;
  std::optional<double> timeout_s;
  bool json = false;
  bool use_cache = true;
  /// The backend settings: printf buffer, heap, the CPU backend's checks (docs/sanitizers.md),
  /// stats and worker threads.
  DeviceSettings device_settings;
  bool quiet = false;
  /// Directory relative paths in args (@file) resolve against (the spec file's folder, else cwd).
  std::filesystem::path base_dir;
};

/// One buffer after the run.
struct BufferReport {
  std::string name;
  bool is_input = false; ///< bound to a const T* parameter
  HostBuffer before;     ///< contents copied in
  HostBuffer after;      ///< contents copied out
};

/// One --expect comparison.
struct CheckReport {
  std::string name;
  bool passed = false;
  std::size_t mismatches = 0;
  std::size_t compared = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  /// First mismatches: index, got, expected (as text).
  std::vector<std::tuple<std::size_t, std::string, std::string>> first_mismatches;
  std::string message; ///< when the comparison could not be made (shape mismatch …)
};

struct Timings {
  double init_ms = 0;    ///< backend probe and device enumeration (driver init: cuInit)
  double context_ms = 0; ///< context and stream creation
  double compile_ms = 0;
  bool cache_hit = false;
  double load_ms = 0; ///< module load and kernel lookup
  double h2d_ms = 0;
  double kernel_ms = 0;                  ///< first launch (or mean of --repeat)
  std::vector<double> kernel_samples_ms; ///< every launch of --repeat
  double d2h_ms = 0;
  /// Copies between devices for buffers placed on another device (`@N`): in before the launch,
  /// out after it; 0 when there are none.
  double p2p_ms = 0;
  double total_ms = 0; ///< from main() to the report
};

struct RunOutcome {
  std::string kernel;         ///< as written ("saxpy<float>")
  std::string lowered_name;   ///< the symbol launched
  std::string compiler;       ///< what compiled it: "nvrtc 13.0", "clang 14.0.6", "ptx"
  std::string source_summary; ///< what of a whole file the compiler was not given
  std::string backend;
  int device_index = 0;
  std::string device_name;
  LaunchConfig launch;
  FunctionAttributes attributes;
  /// The launch's theoretical occupancy, on a CUDA device whose architecture has the rules.
  std::optional<arch::Occupancy> occupancy;
  Timings timings;
  std::vector<BufferReport> buffers;
  std::vector<CheckReport> checks;
  std::map<std::string, double> stats; ///< CPU backend --stats
  /// --metrics: the launch's hardware counters, and with the roofline preset its roofline.
  std::optional<CounterReport> counters;
  std::optional<CounterRoofline> roofline;
  /// What the backend said about the launch although it succeeded (dropped printf calls, …).
  std::vector<std::string> warnings;
  std::string status = "ok"; ///< "ok" or "check_failed"
  /// Device printf text when it was kept for the report (--json); absent: it went to stdout.
  std::optional<std::string> device_output;
};

} // namespace gpurun
