#pragma once
// The values the commands hand to a Printer: what `devices`, `compile` and `threads` found, in a
// form that knows nothing of how it will be printed. A run prints its RunOutcome
// (pipeline/run_request.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backends/backend.hpp"
#include "backends/kit/cuda_occupancy.hpp"
#include "output/thread_rows.hpp"
#include "threads/thread_capture.hpp"
#include "threads/thread_table.hpp"

namespace gpurun {

/// How much of a run to print: the --print selection ("outputs", "all", "none" or names) and
/// --quiet (only failed checks).
struct RunView {
  std::string print = "outputs";
  bool quiet = false;
};

struct BackendReport {
  std::string name;
  bool available = false;
  std::string reason; ///< why it is unavailable
  std::vector<DeviceProperties> devices;
  /// Per device, what benchmarks read its clocks with ("nvml") or "unavailable: <why>"; empty
  /// where the backend has no clocks to watch (cpu).
  std::vector<std::string> clocks;
};

/// `gpurun devices`: every backend built in, and the CUDA compilers as found at run time.
struct DevicesReport {
  std::vector<BackendReport> backends;
  std::vector<CompilerInfo> compilers;
  CompilerInfo chosen; ///< what a .cu compile uses without --compiler
  /// hipRTC (HIP source for AMD GPUs), where the hip backend is built.
  std::optional<CompilerInfo> hip_compiler;
};

/// `gpurun devices --check BACKEND`.
struct DeviceCheckReport {
  std::string backend;
  bool available = false;
  std::string reason; ///< why not, when not
};

/// `gpurun compile`: what was compiled and where it went.
struct CompileReport {
  std::string file;
  std::string output_path; ///< -o; empty when nothing was written
  std::size_t bytes = 0;
  std::string binary_format; ///< "ptx", "cubin"
  std::string target;        ///< "sm_90", "compute_90"
  std::string compiler_version;
  std::optional<std::string> ptx;          ///< --ptx without -o: the text itself
  std::optional<ResourceReport> resources; ///< --resources
  std::string left_out; ///< what of a whole file the compiler was not given (CompileResult)
  std::vector<arch::Occupancy> occupancy; ///< --occupancy: per kernel
};

/// What `threads --run` adds to the arithmetic table.
struct CaptureReport {
  std::string backend;
  std::string order; ///< "sorted" or "capture"
  std::string timestamp_unit;
  CaptureCheck check;
  Placement placement;
  int device_sms = 0;
};

/// `gpurun threads`: the warp summary and a table of rows (arithmetic, or captured with --run).
struct ThreadsReport {
  WarpSummary summary;
  std::string warp_source;  ///< where the warp size came from
  std::string device_label; ///< "cuda:0", or "none"
  const ThreadTable* table = nullptr;
  TableView view;
  std::optional<CaptureReport> capture;
};

} // namespace gpurun
