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
#include "backends/compilers/cuda_compiler.hpp"
#include "backends/compilers/ptxas_info.hpp"
#include "backends/kit/amdgpu_code_object.hpp"
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
  std::vector<compilers::CompilerInfo> compilers;
  compilers::CompilerInfo chosen; ///< what a .cu compile uses without --compiler
  /// hipRTC (HIP source for AMD GPUs), where the hip backend is built.
  std::optional<compilers::CompilerInfo> hip_compiler;
};

/// `gpurun devices --check BACKEND`.
struct DeviceCheckReport {
  std::string backend;
  bool available = false;
  std::string reason; ///< why not, when not
};

/// Registers, shared and local memory per kernel: from ptxas's own report (a cubin built for
/// `arch`, no GPU needed), from an AMD code object's metadata (VGPRs, SGPRs, LDS, scratch; no
/// GPU needed either) or from a loaded module's function attributes.
struct ResourceReport {
  bool from_ptxas = false;
  std::vector<PtxasKernelInfo> ptxas;                             ///< when from_ptxas
  std::vector<kit::AmdgpuKernel> code_object;                     ///< an AMD code object
  std::vector<std::pair<std::string, FunctionAttributes>> loaded; ///< otherwise, per kernel
  std::string measured_by; ///< "ptxas for sm_90, NVRTC 13.0" or "PTX for sm_90 on cpu:0 …"
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
