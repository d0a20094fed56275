#include "core/run.hpp"

#include <chrono>
#include <cstdio>
#include <optional>

#include <fmt/format.h>

#include "core/arg_spec.hpp"
#include "core/bind.hpp"
#include "core/check.hpp"
#include "core/compile_cache.hpp"
#include "core/error.hpp"
#include "core/fill.hpp"
#include "core/language.hpp"
#include "core/launch_limits.hpp"
#include "core/npy.hpp"
#include "core/process_clock.hpp"
#include "core/signature.hpp"

namespace gpurun {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// The kernel the request means, with its signature (from the C declaration, or from the .param
/// list for PTX sources).
struct ResolvedKernel {
  std::string expression; ///< as written: "saxpy<float>"
  KernelSignature signature;
  bool needs_lowering = false; ///< C++ linkage: ask the compiler for the mangled name
};

ResolvedKernel resolve_kernel(const RunRequest& request, const KernelSource& source) {
  const bool is_ptx = source.language == Language::ptx;
  auto kernels = is_ptx ? find_ptx_kernels(source.text) : find_kernels(source.text);
  ResolvedKernel resolved;
  if (request.kernel) {
    resolved.expression = *request.kernel;
  } else if (kernels.size() == 1) {
    resolved.expression = kernels.front().name;
  } else {
    std::vector<std::string> names;
    for (const auto& k : kernels)
      names.push_back(k.name);
    throw usage_error(fmt::format(
        "--kernel: {} has {} kernels ({}); name one", source.path.string(), kernels.size(),
        names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  const KernelSignature& found = select_kernel(kernels, resolved.expression);
  if (found.is_template && resolved.expression.find('<') == std::string::npos)
    throw usage_error(
        fmt::format("--kernel {}: a template kernel needs its arguments, e.g. --kernel '{}<float>'",
                    resolved.expression, found.name));
  resolved.signature = instantiate(found, resolved.expression);
  resolved.needs_lowering = !is_ptx && !found.extern_c;
  return resolved;
}

/// Compiles through the cache: a hit skips the compiler entirely.
CompileResult compile_cached(Context& context, const KernelSource& source,
                             const CompileOptions& options, const std::string& backend,
                             bool use_cache, Timings& timings) {
  const auto start = Clock::now();
  std::optional<CompileCache> cache;
  std::string key;
  if (use_cache) {
    cache.emplace(CompileCache::default_dir());
    key = cache->key(source, options, context.compiler_id(options), backend);
    if (auto hit = cache->load(key)) {
      timings.cache_hit = true;
      timings.compile_ms = ms_since(start);
      return std::move(*hit);
    }
  }
  CompileResult result = context.compile(source, options);
  if (!result.ok)
    throw Error(ExitCode::compile,
                fmt::format("{}: compile failed\n{}", source.path.string(), result.log));
  if (cache)
    cache->store(key, result);
  timings.compile_ms = ms_since(start);
  return result;
}

/// A buffer argument on both sides of the copy.
struct BoundBuffer {
  std::string name;
  bool is_input = false;
  HostBuffer host;
  std::unique_ptr<Buffer> device;
};

/// A module global named by --global, filled before launch and read back after.
struct BoundGlobal {
  std::string name;
  GlobalSymbol symbol;
  HostBuffer host;
};

HostBuffer make_host_buffer(const ArgSpec& spec, const std::filesystem::path& base_dir) {
  HostBuffer buffer(*spec.dtype, spec.shape);
  apply_fill(spec.fill, buffer, base_dir);
  return buffer;
}

std::vector<std::byte> address_bytes(DevicePtr address) {
  std::vector<std::byte> bytes(sizeof address);
  std::memcpy(bytes.data(), &address, sizeof address);
  return bytes;
}

void save_buffer(const std::filesystem::path& dir, const std::string& name, const HostBuffer& b) {
  std::filesystem::create_directories(dir);
  write_npy(dir / (name + ".npy"), b);
}

} // namespace

RunOutcome run_kernel(const RunRequest& request, RunTarget& target,
                      const BeforeLaunch& before_launch) {
  RunOutcome outcome;
  outcome.backend = target.backend_name;
  outcome.device_index = target.device_index;
  const DeviceProperties& props = target.device->properties();
  outcome.device_name = props.name;

  // Load the source and find the kernel and its signature.
  KernelSource source = load_kernel_source(request.source);
  trace("source read");
  ResolvedKernel kernel = resolve_kernel(request, source);
  outcome.kernel = kernel.expression;

  if (!request.grid)
    throw usage_error("--grid: required (e.g. --grid 1 or --grid 2,2)");
  if (!request.block)
    throw usage_error("--block: required (e.g. --block 256 or --block 16,16)");
  outcome.launch = LaunchConfig{*request.grid, *request.block, request.shared_bytes};

  // Bind and type-check the arguments before anything is compiled or allocated.
  std::vector<ArgSpec> specs;
  specs.reserve(request.args.size());
  for (const auto& text : request.args)
    specs.push_back(parse_arg_spec(text));
  std::vector<BoundArg> bound = bind_args(kernel.signature, specs);
  trace("arguments bound");

  // Compile (or load from the cache) and resolve the function.
  ContextOptions context_options;
  context_options.memcheck = request.memcheck;
  context_options.stats = request.stats;
  context_options.cpu_threads = request.cpu_threads;
  const auto init_start = Clock::now();
  target.context = target.device->create_context(context_options);
  Context* context = target.context.get();
  outcome.timings.context_ms = ms_since(init_start);
  trace("context created");
  CompileOptions options = request.compile;
  if (kernel.needs_lowering)
    options.name_expressions.push_back(kernel.expression);
  CompileResult compiled = compile_cached(*context, source, options, target.backend_name,
                                          request.use_cache, outcome.timings);
  trace("compiled (or cache hit)");
  const auto load_start = Clock::now();
  auto module = context->load(compiled);
  outcome.lowered_name = kernel.expression;
  outcome.compiler = compiled.compiler_version;
  if (auto it = compiled.lowered_names.find(kernel.expression); it != compiled.lowered_names.end())
    outcome.lowered_name = it->second;
  Function& function = module->function(outcome.lowered_name);
  outcome.attributes = function.attributes();
  outcome.timings.load_ms = ms_since(load_start);
  trace("module loaded");

  check_layout(kernel.signature, function.params());
  validate_launch(outcome.launch, props, outcome.attributes.static_shared_bytes);

  // Allocate, fill and copy in.
  const auto h2d_start = Clock::now();
  std::vector<BoundBuffer> buffers;
  ArgPack pack;
  for (const auto& arg : bound) {
    if (arg.spec.kind == ArgSpec::Kind::scalar) {
      pack.values.push_back(arg.scalar_bytes);
      continue;
    }
    BoundBuffer b;
    b.name = arg.name;
    b.is_input = arg.is_input;
    b.host = make_host_buffer(arg.spec, request.base_dir);
    b.device = context->allocate(std::max<std::size_t>(b.host.size_bytes(), 1));
    context->name_buffer(*b.device, b.name);
    context->copy_to_device(*b.device, b.host.bytes());
    pack.values.push_back(address_bytes(b.device->address()));
    buffers.push_back(std::move(b));
  }
  std::vector<BoundGlobal> globals;
  for (const auto& text : request.globals) {
    auto [name, value] = split_name_value(text, "--global");
    auto symbol = module->global(name);
    if (!symbol)
      throw usage_error(fmt::format("--global {}: no __device__ or __constant__ variable named "
                                    "'{}' in the module",
                                    text, name));
    ArgSpec spec = parse_arg_spec(value);
    if (spec.kind != ArgSpec::Kind::buffer)
      throw usage_error(
          fmt::format("--global {}: expected a buffer spec such as f32[4]:[1,2,3,4]", text));
    BoundGlobal g{name, *symbol, make_host_buffer(spec, request.base_dir)};
    if (g.host.size_bytes() != symbol->size)
      throw usage_error(fmt::format("--global {}: {} bytes given for '{}', which has {} bytes",
                                    text, g.host.size_bytes(), name, symbol->size));
    context->copy_to_symbol(g.symbol, g.host.bytes());
    globals.push_back(std::move(g));
  }
  outcome.timings.h2d_ms = ms_since(h2d_start);
  trace("copied in");

  // Launch: the first launch produces the results; --repeat adds timing-only launches.
  if (before_launch)
    before_launch(outcome);
  std::fflush(stdout);
  auto timer = context->create_timer();
  timer->start();
  context->launch(function, outcome.launch, pack);
  timer->stop();
  context->synchronize(request.timeout_s);
  outcome.timings.kernel_samples_ms.push_back(timer->elapsed_ms());
  outcome.stats = context->last_launch_stats();
  trace("kernel done");

  // Copy out.
  const auto d2h_start = Clock::now();
  for (auto& b : buffers) {
    BufferReport report{b.name, b.is_input, b.host, HostBuffer(b.host.dtype(), b.host.shape())};
    context->copy_to_host(report.after.bytes(), *b.device);
    outcome.buffers.push_back(std::move(report));
  }
  for (auto& g : globals) {
    BufferReport report{g.name, false, g.host, HostBuffer(g.host.dtype(), g.host.shape())};
    context->copy_from_symbol(report.after.bytes(), g.symbol);
    outcome.buffers.push_back(std::move(report));
  }
  outcome.timings.d2h_ms = ms_since(d2h_start);
  trace("copied out");

  for (int i = 1; i < request.repeat; ++i) {
    timer->start();
    context->launch(function, outcome.launch, pack);
    timer->stop();
    context->synchronize(request.timeout_s);
    outcome.timings.kernel_samples_ms.push_back(timer->elapsed_ms());
  }
  double total = 0;
  for (double s : outcome.timings.kernel_samples_ms)
    total += s;
  outcome.timings.kernel_ms = total / static_cast<double>(outcome.timings.kernel_samples_ms.size());

  // Check expectations.
  for (const auto& text : request.expects) {
    auto [name, value] = split_name_value(text, "--expect");
    const BufferReport* got = nullptr;
    for (const auto& b : outcome.buffers)
      if (b.name == name)
        got = &b;
    if (got == nullptr)
      throw usage_error(fmt::format("--expect {}: no buffer named '{}'", text, name));
    HostBuffer expected = parse_expectation(value, got->after, request.base_dir);
    CheckReport check = compare_buffers(name, got->after, expected, request.rtol, request.atol);
    if (!check.passed)
      outcome.status = "check_failed";
    outcome.checks.push_back(std::move(check));
  }

  if (request.save_dir)
    for (const auto& b : outcome.buffers)
      save_buffer(*request.save_dir, b.name, b.after);
  return outcome;
}

} // namespace gpurun
