#include "app/run_options.hpp"

#include "app/command.hpp"

#include <fmt/format.h>

#include "backends/compilers/cuda_compiler.hpp"
#include "base/dims.hpp"
#include "base/error.hpp"
#include "base/expr.hpp"
#include "pipeline/spec.hpp"

namespace gpurun {

void add_run_options(CLI::App& cmd, RunOptions& o) {
  cmd.add_option("file", o.file, "Kernel file (.cu .hip .ptx) or JSON run spec (.json)")
      ->required();
  cmd.add_option("--spec", o.spec, "JSON run spec (flags override it)");
  cmd.add_option("--kernel,-k", o.kernel, "Kernel name (templates: 'saxpy<float>')");
  cmd.add_option("--grid,-g", o.grid, "Grid dimensions X[,Y[,Z]]");
  cmd.add_option("--block,-b", o.block, "Block dimensions X[,Y[,Z]]");
  cmd.add_option("--shared", o.shared, "Dynamic shared memory in bytes");
  cmd.add_option("--arg,-a", o.args, "Kernel argument, one per parameter in order")
      ->allow_extra_args(false);
  cmd.add_option("--global", o.globals, "Fill a __device__/__constant__ variable: NAME=SPEC")
      ->allow_extra_args(false);
  cmd.add_option("-D", o.defines, "Preprocessor define NAME[=VALUE]")->allow_extra_args(false);
  cmd.add_option("-I", o.include_dirs, "Include directory")->allow_extra_args(false);
  cmd.add_option("--std", o.std_version, "Language standard (c++17, c++20)");
  cmd.add_option("--arch", o.arch, "Target architecture (sm_90, compute_90)");
  cmd.add_option("--opt", o.opts, "Extra compiler option, passed through")->allow_extra_args(false);
  cmd.add_option("--compiler", o.compiler,
                 "CUDA compiler: auto (NVRTC, else clang), nvrtc, clang, nvcc");
  cmd.add_option("--print", o.print, "Buffers to print: outputs (default), all, none, or NAMES");
  cmd.add_option("--save", o.save_dir, "Write every buffer as DIR/NAME.npy");
  cmd.add_option("--expect", o.expects, "Expected output: NAME=@ref.npy | NAME=[…] | NAME=SPEC")
      ->allow_extra_args(false);
  cmd.add_option("--rtol", o.rtol, "Relative tolerance of --expect (default 1e-5)");
  cmd.add_option("--atol", o.atol, "Absolute tolerance of --expect (default 1e-8)");
  cmd.add_option("--repeat", o.repeat, "Launch N times (timing)")->check(whole_number_at_least(1));
  cmd.add_option("--timeout", o.timeout_s, "Watchdog: give up on a kernel after SEC seconds");
  cmd.add_option("--backend", o.backend, "auto|cuda|hip|opencl|metal|cpu");
  cmd.add_option("--device", o.device, "Device index")->check(whole_number_at_least(0));
  cmd.add_option("--cpu-threads", o.cpu_threads, "CPU backend: worker threads (0 = all cores)")
      ->check(whole_number_at_least(0));
  cmd.add_option("--printf-buffer", o.printf_buffer,
                 "Device printf buffer in bytes (default 1048576, as CUDA's)")
      ->check(whole_number_at_least(1));
  cmd.add_flag("--json", o.json, "Print one JSON document");
  cmd.add_flag("-v,--verbose", o.verbose,
               "Say which compiler compiled what of the file; a compile error's whole log");
  cmd.add_option("--junit", o.junit_file,
                 "Also write a JUnit XML report (each --expect a test case) for CI");
  cmd.add_flag("--no-cache", o.no_cache, "Do not use the compile cache");
  cmd.add_flag("--memcheck", o.memcheck, "CPU backend: check every memory access");
  cmd.add_flag("--racecheck", o.racecheck,
               "CPU backend: report shared-memory hazards between threads of a block");
  cmd.add_flag("--initcheck", o.initcheck,
               "CPU backend: report reads of device, shared and local memory never written");
  cmd.add_flag("--synccheck", o.synccheck,
               "CPU backend: report barriers and warp collectives not every member reaches");
  cmd.add_flag("--leak-check", o.leak_check,
               "CPU backend: report device-heap blocks malloc'ed and never freed (CUDA: "
               "destroy the context before exit, for compute-sanitizer's leak check)");
  cmd.add_option("--heap-size", o.heap_size,
                 "Device heap for in-kernel malloc in bytes (default 8388608, as CUDA's)")
      ->check(whole_number_at_least(1));
  cmd.add_option("--max-findings", o.max_findings,
                 "Sanitizer findings shown in full (default 10; the rest are counted)")
      ->check(whole_number_at_least(0));
  cmd.add_flag("--stats", o.stats, "CPU backend: count executed instructions");
  cmd.add_flag("--quiet,-q", o.quiet, "Print only failures");
}

namespace {
bool given(const CLI::App& cmd, const char* name) {
  return cmd.get_option(name)->count() > 0;
}

bool is_spec_file(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}
} // namespace

RunRequest make_run_request(const CLI::App& cmd, const RunOptions& o) {
  RunOverrides flags;
  std::string spec_path = o.spec;
  if (is_spec_file(o.file)) {
    if (!spec_path.empty())
      throw usage_error(fmt::format("--spec {}: FILE {} is already a spec", spec_path, o.file));
    spec_path = o.file;
  } else {
    flags.source = o.file;
  }
  flags.base_dir = std::filesystem::current_path();
  if (given(cmd, "--kernel"))
    flags.kernel = o.kernel;
  if (given(cmd, "--grid"))
    flags.grid = parse_dims(o.grid, "--grid");
  if (given(cmd, "--block"))
    flags.block = parse_dims(o.block, "--block");
  if (given(cmd, "--shared")) {
    const long long bytes = eval_int_expr(o.shared, "--shared");
    if (bytes < 0)
      throw usage_error(fmt::format("--shared {}: must be ≥ 0", o.shared));
    flags.shared_bytes = static_cast<std::size_t>(bytes);
  }
  if (given(cmd, "--arg"))
    flags.args = o.args;
  if (given(cmd, "--global"))
    flags.globals = o.globals;
  if (given(cmd, "--expect"))
    flags.expects = o.expects;
  if (given(cmd, "--rtol"))
    flags.rtol = o.rtol;
  if (given(cmd, "--atol"))
    flags.atol = o.atol;
  flags.more_defines = o.defines;
  flags.more_include_dirs = o.include_dirs;
  flags.more_options = o.opts;
  if (given(cmd, "--std"))
    flags.std_version = o.std_version;
  if (given(cmd, "--arch"))
    flags.arch = o.arch;
  if (given(cmd, "--compiler"))
    flags.compiler = compilers::parse_cuda_compiler(o.compiler, "--compiler") ==
                             compilers::CudaCompiler::automatic
                         ? std::string()
                         : o.compiler;
  if (given(cmd, "--print"))
    flags.print = o.print;
  if (given(cmd, "--save"))
    flags.save_dir = o.save_dir;
  if (given(cmd, "--repeat"))
    flags.repeat = o.repeat;
  if (given(cmd, "--timeout"))
    flags.timeout_s = o.timeout_s;
  if (given(cmd, "--backend"))
    flags.backend = o.backend;
  if (given(cmd, "--device"))
    flags.device = o.device;

  RunRequest request = spec_path.empty() ? RunRequest{} : read_spec(spec_path);
  apply_overrides(request, flags);
  // Flags that only exist on the command line.
  request.cpu_threads = o.cpu_threads;
  request.printf_buffer = o.printf_buffer;
  request.json = o.json;
  request.use_cache = !o.no_cache;
  request.memcheck = o.memcheck;
  request.racecheck = o.racecheck;
  request.initcheck = o.initcheck;
  request.synccheck = o.synccheck;
  request.leak_check = o.leak_check;
  request.heap_size = o.heap_size;
  request.max_findings = o.max_findings;
  request.stats = o.stats;
  request.quiet = o.quiet;
  return request;
}

} // namespace gpurun
