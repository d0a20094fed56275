#pragma once
/// @file
/// The backend interface: Backend → Device → Context (a stream) → Buffer / Module / Function /
/// Timer. Every backend (cuda, hip, cpu) implements these classes; the run pipeline in pipeline/
/// and the commands in app/ speak only to them (compilers and resources included). Vendor libraries
/// are opened with dlopen inside the backend. Errors are exceptions (gpurun::Error / BackendError);
/// expected outcomes such as a compile error are values.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/kit/amdgpu_code_object.hpp"
#include "base/dims.hpp"
#include "base/error.hpp"

namespace gpurun {

/// A device address as the kernel sees it (CUdeviceptr, or an emulator address).
using DevicePtr = std::uint64_t;

/// Source languages, detected from the file extension.
enum class Language { cuda, hip, opencl, metal, ptx };

/// Static properties of a device, filled by the backend.
struct DeviceProperties {
  std::string name;      ///< "NVIDIA H200", "gpurun PTX emulator"
  std::string vendor;    ///< "NVIDIA", "gpurun"
  std::string arch;      ///< "sm_90"
  int compute_major = 0; ///< compute capability, where it applies
  int compute_minor = 0;
  int multiprocessors = 0; ///< SMs (CPU backend: worker threads)
  int warp_size = 32;
  std::uint64_t total_memory = 0; ///< bytes
  unsigned max_threads_per_block = 1024;
  Dim3 max_block{1024, 1024, 64};
  Dim3 max_grid{2147483647u, 65535u, 65535u};
  std::size_t max_shared_per_block = 48 * 1024;       ///< without opt-in
  std::size_t max_shared_per_block_optin = 48 * 1024; ///< with the opt-in attribute
  std::size_t l2_bytes = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  double memory_bandwidth_gbs = 0; ///< theoretical, GB/s (0 when unknown)
  std::string driver_version;      ///< "13.0" (empty when not applicable)
  std::string pci_bus_id;          ///< "0000:3B:00.0" (empty when not applicable)
};

/// Text of a kernel file plus where it came from (for includes and messages).
struct KernelSource {
  std::string text;
  std::filesystem::path path; ///< may be empty for in-memory sources
  Language language = Language::cuda;
  /// A module image as the file holds it (a .fatbin or .cubin, e.g. one a capture saved):
  /// `image_format` "fatbin" or "cubin". The CUDA backend loads it as it is, so the driver picks
  /// the machine code the application ran; `text` is then the PTX it carries (empty when it
  /// carries none), which the CPU backend runs.
  std::vector<std::byte> image{};
  std::string image_format{};
};

/// Options for a JIT compile.
struct CompileOptions {
  std::vector<std::string> defines;      ///< "NAME" or "NAME=VALUE"
  std::vector<std::string> include_dirs; ///< -I
  std::string std_version;               ///< "c++17"; empty = compiler default
  std::string arch; ///< "sm_90" (binary) / "compute_90" (PTX); empty = the device's own
  std::vector<std::string> extra; ///< passed through (--opt)
  std::string compiler;           ///< CUDA compiler: "nvrtc", "clang"; empty = automatic
  bool line_info = true;          ///< -lineinfo (the emulator maps PTX lines to source)
  /// Kernel names as written in the source (possibly templates: "saxpy<float>") whose lowered
  /// (mangled) names the compiler should report.
  std::vector<std::string> name_expressions;
  /// The kernels the compile is for ("layernorm_forward_kernel3", "ns::k"): of a whole file only
  /// what they need is compiled (compilers/whole_file.hpp). Empty: every kernel in the file.
  std::vector<std::string> kernels;
};

/// What a compile produced: a binary the same backend can load later (the compile cache stores
/// it), or a log explaining why not. A compile error is a value, not an exception.
struct CompileResult {
  bool ok = false;
  std::string log;
  std::string binary_format; ///< "ptx", "cubin", …
  std::vector<std::byte> binary;
  std::map<std::string, std::string> lowered_names; ///< name expression → mangled name
  std::string compiler_version;                     ///< "nvrtc 13.0"
  std::string target;                               ///< the arch actually compiled for
  /// What of a whole file the compiler was not given (host code, headers not needed for the
  /// device: compilers/whole_file.hpp); empty when nothing was left out.
  std::string source_summary;
};

/// A kernel parameter as the compiled code lays it out (PTX .param).
struct ParamLayout {
  std::size_t offset = 0;
  std::size_t size = 0; ///< 0: the compiled kernel does not say
  std::size_t align = 0;
  /// The parameter as the compiled kernel declares it, macros expanded ("__global const float*
  /// v"), where the backend can tell (OpenCL's kernel argument info); empty otherwise.
  std::string declaration;
};

/// Per-function resource usage (-1/0 where the backend cannot tell).
struct FunctionAttributes {
  int registers = -1;
  std::size_t static_shared_bytes = 0;
  std::size_t local_bytes = 0;
  std::size_t const_bytes = 0;
  int max_threads_per_block = 0;
};

/// A device allocation; freed in the destructor.
class Buffer {
public:
  virtual ~Buffer() = default;
  [[nodiscard]] virtual std::size_t size() const = 0;
  /// The address passed to kernels.
  [[nodiscard]] virtual DevicePtr address() const = 0;
};

/// A kernel entry point in a loaded module.
class Function {
public:
  virtual ~Function() = default;
  [[nodiscard]] virtual const std::string& name() const = 0; ///< the (lowered) symbol
  [[nodiscard]] virtual const std::vector<ParamLayout>& params() const = 0;
  [[nodiscard]] virtual FunctionAttributes attributes() const = 0;
};

/// A module-scope variable (`__device__`, `__constant__`).
struct GlobalSymbol {
  DevicePtr address = 0;
  std::size_t size = 0;
};

/// A loaded module.
class Module {
public:
  virtual ~Module() = default;
  /// Entry points by (lowered) name; throws Error(usage) naming the kernel when absent.
  [[nodiscard]] virtual Function& function(const std::string& name) = 0;
  [[nodiscard]] virtual std::vector<std::string> kernel_names() const = 0;
  /// std::nullopt when there is no such variable.
  [[nodiscard]] virtual std::optional<GlobalSymbol> global(const std::string& name) = 0;
};

/// Grid, block and dynamic shared memory of a launch.
struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::size_t shared_bytes = 0;
};

/// One kernel argument: a device buffer, a scalar's bytes as the parameter lays them out, or a
/// size of local memory. A buffer stays a Buffer until the backend passes it (CUDA and the CPU
/// backend pass its address; OpenCL sets its cl_mem).
struct KernelArg {
  const Buffer* buffer = nullptr;
  std::vector<std::byte> bytes; ///< scalars only
  /// An OpenCL `__local` pointer parameter: the bytes of local memory it gets.
  std::optional<std::size_t> local_bytes;
};

/// The arguments of one launch, one per parameter in order.
struct ArgPack {
  std::vector<KernelArg> values;
  void add_buffer(const Buffer& buffer) { values.push_back({&buffer, {}, {}}); }
  void add_bytes(std::vector<std::byte> bytes) { values.push_back({nullptr, std::move(bytes), {}}); }
  void add_local(std::size_t bytes) { values.push_back({nullptr, {}, bytes}); }
  /// The bytes parameter `i` receives where a buffer is passed as its device address.
  [[nodiscard]] std::vector<std::byte> address_form(std::size_t i) const {
    const KernelArg& arg = values.at(i);
    if (arg.local_bytes)
      throw usage_error("a size of local memory (local:BYTES) is for OpenCL kernels' __local "
                        "pointer parameters");
    if (arg.buffer == nullptr)
      return arg.bytes;
    const DevicePtr address = arg.buffer->address();
    std::vector<std::byte> out(sizeof address);
    std::memcpy(out.data(), &address, sizeof address);
    return out;
  }
};

/// Device-side timing (events on GPUs, host clock on the CPU backend).
class Timer {
public:
  virtual ~Timer() = default;
  virtual void start() = 0;
  virtual void stop() = 0;
  /// Milliseconds between start and stop; waits for the stop to complete.
  [[nodiscard]] virtual double elapsed_ms() = 0;
};

/// Keeps the work enqueued after it from starting until release(), or until the hold's own time
/// limit passes, so that a caller that never releases cannot hang the device. Released by the
/// destructor at the latest.
class StreamHold {
public:
  virtual ~StreamHold() = default;
  virtual void release() = 0;
};

/// Receives device printf text in the order the device produced it; never called by two threads
/// at once.
using DeviceOutputSink = std::function<void(std::string_view text)>;

/// What a run asks of the device besides the launch itself, typed. Each backend reads the fields
/// it implements and leaves the rest: the CPU backend all of them; CUDA and HIP the printf buffer
/// and the heap (on a GPU the checks are compute-sanitizer's, docs/sanitizers.md).
struct DeviceSettings {
  /// Bytes of the device printf buffer (CUDA's cudaLimitPrintfFifoSize); empty: the default.
  std::optional<std::size_t> printf_buffer;
  /// Bytes of the device heap of in-kernel malloc (cudaLimitMallocHeapSize); empty: 8 MiB.
  std::optional<std::size_t> heap_bytes;
  bool memcheck = false;   ///< check every memory access against its allocation
  bool racecheck = false;  ///< shared-memory hazards between threads of a block
  bool initcheck = false;  ///< reads of memory never written
  bool synccheck = false;  ///< barriers and warp collectives not every member reaches
  bool leak_check = false; ///< device-heap blocks malloc'ed and never freed
  /// Findings shown in full (the rest are counted); empty: 10.
  std::optional<std::size_t> max_findings;
  bool stats = false;   ///< count executed instructions
  int host_threads = 0; ///< worker threads of a backend that runs on the host; 0: all cores
  /// The CPU backend's engine: "interpret", "compiled" (PTX compiled to native code) or "auto"
  /// (empty: auto).
  std::string cpu_engine;
};

/// Options that apply to one context.
struct ContextOptions {
  DeviceSettings settings;
  /// Where device printf text goes. Empty: the process's standard output, where a host program
  /// sees it (the CUDA driver writes it there when the context synchronizes).
  DeviceOutputSink device_output;
};

/// How a copy between the memories of two devices travels (Context::copy_to_peer).
enum class PeerPath {
  direct, ///< device to device (peer access: NVLink or PCIe; a memcpy on the CPU backend)
  staged, ///< device → host memory → device
};

/// How far a launch has got (Context::launch_progress).
struct LaunchProgress {
  std::uint64_t blocks_done = 0;
  std::uint64_t blocks = 0;
  double seconds = 0;
};

/// One hardware counter metric of one launch, by Nsight Compute's name ("dram__bytes.sum").
struct MetricValue {
  std::string name;
  double value = 0;
  std::string unit; ///< "byte", "%", "cycle/second"; empty for a plain number
};

/// What Context::measure_counters collects.
struct CounterRequest {
  std::vector<std::string> metrics; ///< the device's metric names, checked by the backend
  /// Called before every pass, the stream idle: puts the kernel's memory back as it was before
  /// the first, so that each pass replays the same launch. The backend then leaves the caches
  /// holding none of the kernel's data (CUDA: the L2 clean, backends/cuda/l2_clean.hpp).
  std::function<void()> before_pass;
  std::optional<double> timeout_s; ///< watchdog of each pass's synchronize
};

/// The counters of one launch, replayed over as many passes as the metrics need.
struct CounterReport {
  std::vector<MetricValue> values; ///< in the order asked for
  int passes = 0;
  std::string collector; ///< "CUPTI 13.0 range profiler, GH100"
};

/// A metric a device offers (`--metrics list`).
struct MetricInfo {
  std::string name; ///< "dram__bytes"
  std::string kind; ///< "counter", "ratio", "throughput"
  std::string unit; ///< "byte"
  std::string description;
};

struct MetricCatalog {
  std::string collector; ///< as in CounterReport
  std::vector<MetricInfo> metrics;
};

/// A context with one stream: allocation, copies, compile, launch, synchronize.
class Context {
public:
  virtual ~Context() = default;
  [[nodiscard]] virtual std::unique_ptr<Buffer> allocate(std::size_t bytes) = 0;
  virtual void copy_to_device(Buffer& dst, std::span<const std::byte> src) = 0;
  virtual void copy_to_host(std::span<std::byte> dst, const Buffer& src) = 0;
  virtual void copy_device(Buffer& dst, const Buffer& src) = 0;
  /// Enqueues setting every byte of `dst` to `value` (ordered with launches: it runs after the
  /// work before it and before the work after it).
  virtual void memset(Buffer& dst, std::uint8_t value) = 0;
  /// Writes host bytes to a module global (`--global`).
  virtual void copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) = 0;
  virtual void copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) = 0;

  /// JIT compile; a compile error is returned in the result.
  [[nodiscard]] virtual CompileResult compile(const KernelSource& source,
                                              const CompileOptions& options) = 0;
  /// Loads what compile() produced (possibly from the compile cache).
  [[nodiscard]] virtual std::unique_ptr<Module> load(const CompileResult& compiled) = 0;

  /// Enqueues a launch. The config must already be validated against the device's limits.
  virtual void launch(Function& fn, const LaunchConfig& config, const ArgPack& args) = 0;
  /// Enqueues `count` identical launches back to back, with the per-launch work of the host
  /// (argument packing, checks) done once, so that a batch is as fast as a raw launch loop.
  virtual void launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                               int count) {
    for (int i = 0; i < count; ++i)
      launch(fn, config, args);
  }
  /// Waits for all enqueued work; throws Error(timeout) after `timeout_s` seconds (no limit when
  /// empty) and Error(device) naming the kernel when it faulted.
  virtual void synchronize(std::optional<double> timeout_s = std::nullopt) = 0;
  [[nodiscard]] virtual std::unique_ptr<Timer> create_timer() = 0;
  /// Holds the stream (StreamHold) for at most `limit_s` seconds, so that a launch enqueued
  /// after it starts only at release(): the cost of enqueueing stays outside a timer placed
  /// around the launch. Optional hook; nullptr where the backend cannot hold its stream.
  [[nodiscard]] virtual std::unique_ptr<StreamHold> hold_stream(double limit_s) { return nullptr; }

  /// Identifies the compiler and target for the compile cache key ("nvrtc 13.0 sm_90"); changes
  /// whenever compile() with these options could produce different output. Optional hook;
  /// default: empty.
  [[nodiscard]] virtual std::string compiler_id(const CompileOptions& options) const { return {}; }
  /// Names a buffer for diagnostics (memcheck findings name it). Optional hook; default: no-op.
  virtual void name_buffer(const Buffer& buffer, const std::string& name) {}

  /// Lets this context read and write `peer`'s memory directly (`peer` is a context of another
  /// device of the same backend); false where the devices cannot, which is not an error. Optional
  /// hook; default: false.
  [[nodiscard]] virtual bool enable_peer_access(Context& peer) { return false; }
  /// Copies `src`, a buffer of this context, into `dst`, a buffer of `peer` (another device's
  /// context of the same backend), and waits until the bytes are there. Direct where
  /// enable_peer_access(peer) succeeded, else staged through host memory. Returns the path taken.
  /// Optional hook; default: staged through pageable host memory with copy_to_host and
  /// copy_to_device.
  virtual PeerPath copy_to_peer(Context& peer, Buffer& dst, const Buffer& src) {
    std::vector<std::byte> staging(std::min(dst.size(), src.size()));
    copy_to_host(staging, src);
    peer.copy_to_device(dst, staging);
    peer.synchronize();
    return PeerPath::staged;
  }

  /// Counters of the last launch (CPU backend with stats: warp_instructions, lane_instructions,
  /// seconds). Optional hook; default: none.
  [[nodiscard]] virtual std::map<std::string, double> last_launch_stats() const { return {}; }
  /// How the last launch ran, where a backend has several ways (the CPU backend: "compiled" or
  /// "interpreted (why)"). Optional hook; default: empty (one way only).
  [[nodiscard]] virtual std::string last_launch_engine() const { return {}; }
  /// What the last launch did that the user should hear of although it succeeded (device printf
  /// calls dropped, a barrier in divergent code), one line each. Optional hook; default: none.
  [[nodiscard]] virtual std::vector<std::string> last_launch_warnings() const { return {}; }
  /// Where the launch in flight (or the last one) stands, for a progress line: blocks done of
  /// the grid and seconds since it started. Safe to call from another thread while a launch runs.
  /// Optional hook; default: none (a GPU does not say).
  [[nodiscard]] virtual std::optional<LaunchProgress> launch_progress() const {
    return std::nullopt;
  }

  /// The hardware counters of one launch of `fn`, launched once per pass the metrics need (the
  /// stream otherwise idle). Throws Error(usage) naming a metric the device does not have,
  /// Error(unavailable) where the backend or machine cannot count. Optional hook; default:
  /// unavailable.
  [[nodiscard]] virtual CounterReport measure_counters(Function& /*fn*/,
                                                       const LaunchConfig& /*config*/,
                                                       const ArgPack& /*args*/,
                                                       const CounterRequest& /*request*/) {
    throw unavailable_error("--metrics: this backend has no hardware counters (they are read "
                            "through CUPTI on the cuda backend)");
  }
  /// Checks that measure_counters could collect `metrics` here, without launching anything:
  /// Error(usage) naming a metric the device lacks, Error(unavailable) where the backend or
  /// machine cannot count. Optional hook; default: unavailable, as measure_counters.
  virtual void check_metrics(const std::vector<std::string>& /*metrics*/) {
    throw unavailable_error("--metrics: this backend has no hardware counters (they are read "
                            "through CUPTI on the cuda backend)");
  }
  /// The metrics measure_counters can collect on this device. Optional hook; default:
  /// unavailable, as measure_counters.
  [[nodiscard]] virtual MetricCatalog metric_catalog() {
    throw unavailable_error("--metrics: this backend has no hardware counters (they are read "
                            "through CUPTI on the cuda backend)");
  }
};

/// The GPU's default device printf buffer (CUDA's cudaLimitPrintfFifoSize); DeviceSettings::
/// printf_buffer changes it.
inline constexpr std::size_t k_default_printf_buffer = std::size_t{1} << 20;

/// Watchdog limits beyond this many seconds (about 11.6 days) mean no limit: a deadline that far
/// out would overflow the clocks' arithmetic, and no kernel is meant to be watched that long.
inline constexpr double k_max_watchdog_s = 1e6;

/// One reading of a device's clocks.
struct ClockReading {
  double sm_clock_mhz = 0;
  /// Why the clock is held below its maximum, as the vendor's bit set (NVML's clocks event
  /// reasons); 0 when nothing holds it.
  std::uint64_t throttle_reasons = 0;
};

/// Clocks, power and energy of one device, for benchmarks to notice throttling (NVML on NVIDIA).
class ClockMonitor {
public:
  virtual ~ClockMonitor() = default;
  /// The SM clock the device runs at when nothing holds it back (the default application clock,
  /// else the maximum).
  [[nodiscard]] virtual double default_sm_clock_mhz() = 0;
  [[nodiscard]] virtual ClockReading read() = 0;
  /// "sw_thermal, hw_slowdown" for a reasons bit set; "none" for 0.
  [[nodiscard]] virtual std::string describe(std::uint64_t throttle_reasons) const = 0;
  /// Board power draw now; nullopt where the device does not report it.
  [[nodiscard]] virtual std::optional<double> power_w() = 0;
  /// Energy used since the driver loaded, in joules; nullopt where not reported.
  [[nodiscard]] virtual std::optional<double> energy_j() = 0;
  /// The device's settings that change what a benchmark measures, as name → value ("power_limit_w"
  /// → "700", "ecc" → "enabled", …), in a fixed order; a setting the device does not report reads
  /// "unknown". Recorded with bench's results, which `compare` checks for differences.
  [[nodiscard]] virtual std::vector<std::pair<std::string, std::string>> settings() { return {}; }
};

/// One device of a backend.
class Device {
public:
  virtual ~Device() = default;
  [[nodiscard]] virtual const DeviceProperties& properties() const = 0;
  [[nodiscard]] virtual std::unique_ptr<Context> create_context(const ContextOptions& options) = 0;
  /// The device's clock monitor, or nullptr with the reason in `why_not` ("libnvidia-ml.so.1 not
  /// found", "the CPU backend has no clocks to watch"). Optional hook.
  [[nodiscard]] virtual std::unique_ptr<ClockMonitor> clock_monitor(std::string& why_not) {
    why_not = "not available for this backend";
    return nullptr;
  }
};

/// A compiler a backend compiles with, as found at run time (`gpurun devices`).
struct CompilerInfo {
  std::string name; ///< "nvrtc", "clang", "nvcc", "hiprtc"
  bool available = false;
  std::string version;  ///< "13.0", "14.0.6", "13.0.88"
  std::string location; ///< the library or executable that will be used
  std::string reason;   ///< why it is unavailable
  /// NVRTC: the libnvrtc-builtins file its compiles use (loaded from beside `location`).
  std::string builtins;
  /// The automatic choice: why a compiler it prefers was passed over although it was found
  /// ("nvrtc unusable: … needs libnvrtc-builtins.so.13.0, which is …"); empty otherwise.
  std::string passed_over;
};

/// One kernel as ptxas reports it (`-v`) for one architecture.
struct PtxasKernelInfo {
  std::string name; ///< the (lowered) entry name
  std::string arch; ///< "sm_90"
  int registers = -1;
  int barriers = 0;
  std::size_t shared_bytes = 0; ///< static shared memory (smem)
  std::size_t stack_frame_bytes = 0;
  std::size_t spill_store_bytes = 0;
  std::size_t spill_load_bytes = 0;
  std::size_t constant_bytes = 0; ///< cmem[0] (parameters and compiler constants)
};

/// Registers, shared and local memory per kernel: from ptxas (a cubin compiled for the target,
/// no GPU needed), from an AMD code object's metadata (VGPRs, SGPRs, LDS, scratch; no GPU needed
/// either) or from a loaded module's function attributes.
struct ResourceReport {
  bool from_ptxas = false;
  std::vector<PtxasKernelInfo> ptxas;                             ///< when from_ptxas
  std::vector<kit::AmdgpuKernel> code_object;                     ///< an AMD code object
  std::vector<std::pair<std::string, FunctionAttributes>> loaded; ///< otherwise, per kernel
  std::string measured_by; ///< "ptxas for sm_90, NVRTC 13.0" or "PTX for sm_90 on cpu:0 …"
};

/// Result of probing a backend: available, or not with the reason.
struct ProbeResult {
  bool available = false;
  std::string reason; ///< "libcuda.so.1 not found", "no device"
};

/// A backend: cuda, hip, opencl, metal, cpu.
class Backend {
public:
  virtual ~Backend() = default;
  [[nodiscard]] virtual std::string name() const = 0;
  /// Cheap availability check (loads the vendor library once, caches the answer).
  [[nodiscard]] virtual ProbeResult probe() = 0;
  /// The devices (empty when unavailable).
  [[nodiscard]] virtual std::vector<Device*> devices() = 0;
  /// Languages this backend compiles (CUDA: cuda, ptx; CPU: cuda, hip, ptx).
  [[nodiscard]] virtual std::vector<Language> languages() const = 0;

  /// The compilers this backend's compiles may use, as found now (found or not, with why).
  [[nodiscard]] virtual std::vector<CompilerInfo> compilers() const { return {}; }
  /// The compiler a compile of `language` with `options` uses; nullopt where the backend has no
  /// choice to make (PTX) or no compiler of that language.
  [[nodiscard]] virtual std::optional<CompilerInfo>
  chosen_compiler(Language /*language*/, const CompileOptions& /*options*/) const {
    return std::nullopt;
  }
  /// Whether `target` ("sm_90", "gfx90a") names a binary this backend's compilers make without
  /// a device of it, for compile_for.
  [[nodiscard]] virtual bool compiles_offline_for(const std::string& /*target*/) const {
    return false;
  }
  /// Compiles for a target named by compiles_offline_for, no device needed. Throws
  /// Error(unavailable) without a compiler; a compile error comes back in the result.
  [[nodiscard]] virtual CompileResult compile_for(const KernelSource& /*source*/,
                                                  const CompileOptions& /*options*/,
                                                  const std::string& target) {
    throw usage_error("'" + target + "': the " + name() +
                      " backend makes no binary for a named target without its device");
  }
  /// The resources of the kernels of `compiled` as the compiler reports them for the target,
  /// without a device (ptxas, an AMD code object's metadata); nullopt when it cannot say (then
  /// a loaded module's attributes are the answer).
  [[nodiscard]] virtual std::optional<ResourceReport>
  compiled_resources(const KernelSource& /*source*/, const CompileOptions& /*options*/,
                     const CompileResult& /*compiled*/) const {
    return std::nullopt;
  }
  /// Makes `count` devices for a backend whose devices are its own making (the CPU backend's
  /// virtual devices, `--cpu-devices N`), before anything asked for them. Throws Error(usage)
  /// for a backend that cannot, or a count it does not allow.
  virtual void set_device_count(std::size_t /*count*/) {
    throw usage_error("the " + name() + " backend's devices are the machine's");
  }
};

} // namespace gpurun
