#include "pipeline/prepare.hpp"

#include <algorithm>
#include <chrono>
#include <new>
#include <optional>

#include <fmt/format.h>

#include "backends/compilers/clang_names.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "backends/kit/cuda_occupancy.hpp"
#include "backends/compilers/whole_file.hpp"
#include "base/error.hpp"
#include "base/format.hpp"
#include "base/host_memory.hpp"
#include "base/process_clock.hpp"
#include "pipeline/arg_spec.hpp"
#include "pipeline/bind.hpp"
#include "pipeline/collect.hpp"
#include "pipeline/compile_cache.hpp"
#include "pipeline/fill.hpp"
#include "pipeline/language.hpp"
#include "pipeline/launch_limits.hpp"
#include "pipeline/signature.hpp"

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

// A kernel name as --kernel takes it: NAME or NAME<ARGS> with balanced brackets, nothing after
// the closing '>'. What the compiler would only reject with its own log is a usage error here.
void check_kernel_expression(const std::string& text) {
  const auto fail = [&](std::string_view what) {
    throw usage_error(fmt::format("--kernel '{}': {}", text, what));
  };
  if (text.empty())
    fail("empty kernel name");
  int angle = 0;
  int paren = 0;
  std::size_t close = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '\0')
      fail("a kernel name is one line of text");
    if (angle == 0 && close != std::string::npos && c != ' ')
      fail("nothing may follow the template arguments");
    if (c == '<')
      ++angle;
    else if (c == '>' && --angle < 0)
      fail("unbalanced '>'");
    else if (c == '(' || c == '[')
      ++paren;
    else if ((c == ')' || c == ']') && --paren < 0)
      fail("unbalanced brackets");
    if (c == '>' && angle == 0)
      close = i;
  }
  if (angle != 0 || paren != 0)
    fail("unbalanced brackets in the template arguments");
}

/// The name of the file's one kernel; Error(usage) listing them when it has none or several.
std::string the_only_kernel(const std::vector<KernelSignature>& kernels,
                            const KernelSource& source) {
  if (kernels.size() == 1)
    return kernels.front().name;
  std::vector<std::string> names;
  for (const auto& k : kernels)
    names.push_back(k.name);
  throw usage_error(fmt::format(
      "--kernel: {} has {} kernels ({}); name one", source.path.string(), kernels.size(),
      names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

/// An OpenCL C kernel: named, or the file's only one; nullopt when the scan does not see the one
/// named (declared through a macro): the compiled program's argument info then tells.
std::optional<ResolvedKernel> resolve_opencl_kernel(const RunRequest& request,
                                                    const KernelSource& source) {
  const auto kernels = find_opencl_kernels(source.text);
  ResolvedKernel resolved;
  if (request.kernel) {
    check_kernel_expression(*request.kernel);
    if (request.kernel->find('<') != std::string::npos)
      throw usage_error(fmt::format("--kernel {}: OpenCL C kernels are not templates",
                                    *request.kernel));
    if (!declares_kernel(kernels, *request.kernel))
      return std::nullopt;
    resolved.expression = *request.kernel;
  } else {
    resolved.expression = the_only_kernel(kernels, source);
  }
  resolved.signature = select_kernel(kernels, resolved.expression);
  return resolved;
}

/// The kernel the request names, or nullopt when it names one the source scan does not see
/// (declared through a macro, say): resolve_from_module() then looks in the compiled module.
std::optional<ResolvedKernel> resolve_kernel(const RunRequest& request,
                                             const KernelSource& source) {
  const bool is_ptx = source.language == Language::ptx;
  if (source.language == Language::opencl)
    return resolve_opencl_kernel(request, source);
  // A mangled name (a capture's "_Z5saxpyifPKfPf") names the kernel of an edited source by what
  // it demangles to ("saxpy", "saxpy<float>").
  std::optional<std::string> wanted = request.kernel;
  if (wanted && !is_ptx && wanted->starts_with("_Z"))
    if (auto plain = clang_cuda::demangled_function_name(*wanted))
      wanted = std::move(plain);
  auto kernels = is_ptx ? find_module_kernels(source) : find_kernels(source.text);
  // A kernel the file includes from its own header (kernels.cuh) is looked for there too.
  const bool named_elsewhere = wanted && !declares_kernel(kernels, *wanted);
  if (!is_ptx && (named_elsewhere || (!wanted && kernels.empty()))) {
    auto with_headers = find_kernels(compilers::with_own_headers(source, request.compile));
    if (wanted ? declares_kernel(with_headers, *wanted) : !with_headers.empty())
      kernels = std::move(with_headers);
  }
  ResolvedKernel resolved;
  if (wanted) {
    check_kernel_expression(*wanted);
    resolved.expression = *wanted;
    if (!is_ptx && !declares_kernel(kernels, resolved.expression) &&
        resolved.expression.find('<') == std::string::npos)
      return std::nullopt;
  } else {
    resolved.expression = the_only_kernel(kernels, source);
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

KernelSource read_source(const RunRequest& request) {
  if (!request.source_text)
    return load_kernel_source(request.source);
  return KernelSource{*request.source_text, request.source, detect_language(request.source)};
}

/// Compiles through the cache: a hit skips the compiler entirely.
CompileResult compile_cached(Context& context, const KernelSource& source,
                             const CompileOptions& options, const std::string& backend,
                             bool use_cache, Timings& timings) {
  const auto start = Clock::now();
  std::optional<CompileCache> cache;
  std::string key;
  std::string id_before;
  if (use_cache && source.image.empty()) { // a module image has nothing to compile
    cache.emplace(CompileCache::default_dir());
    id_before = context.compiler_id(options);
    key = cache->key(source, options, id_before, backend);
    if (auto hit = cache->load(key)) {
      timings.cache_hit = true;
      timings.compile_ms = ms_since(start);
      return std::move(*hit);
    }
  }
  CompileResult result = context.compile(source, options);
  if (!result.ok)
    throw CompileError(fmt::format("{}: compile failed", source.path.string()), result.log);
  if (cache) {
    // A compiler that failed on its own hands over to the next (NVRTC to clang): the result is
    // stored under the compiler that made it.
    const std::string id_after = context.compiler_id(options);
    if (id_after != id_before)
      key = cache->key(source, options, id_after, backend);
    cache->store(key, result);
  }
  timings.compile_ms = ms_since(start);
  return result;
}

/// A kernel the source scan cannot see — spelled through a macro — found among the entries of
/// the compiled module: the source is compiled to PTX and the entry's .param list is the
/// signature, as for a .ptx file (pointers accept any buffer). Matches an extern "C" name or a
/// C++ kernel's unqualified name; anything else is the scan's own error.
ResolvedKernel resolve_from_module(const RunRequest& request, const KernelSource& source,
                                   Context& context, const std::string& backend, Timings& timings) {
  CompileOptions options = request.compile;
  CompileResult compiled =
      compile_cached(context, source, options, backend, request.use_cache, timings);
  if (compiled.binary_format == "cubin") { // the same compile, as PTX for the target's family
    options.arch = "compute_" + compiled.target.substr(compiled.target.find('_') + 1);
    compiled = compile_cached(context, source, options, backend, request.use_cache, timings);
  }
  const std::string& name = *request.kernel;
  if (source.language == Language::opencl) {
    // The program's own account of the kernel's parameters (macros expanded).
    const auto module = context.load(compiled);
    const auto names = module->kernel_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw usage_error(fmt::format("--kernel: no kernel '{}' in {} (kernels: {})", name,
                                    source.path.string(),
                                    names.empty() ? std::string("none")
                                                  : fmt::format("{}", fmt::join(names, ", "))));
    auto signature = opencl_signature(name, module->function(name).params());
    if (!signature)
      throw usage_error(fmt::format("--kernel {}: the scan of {} does not see it, and the OpenCL "
                                    "platform does not tell its parameters",
                                    name, source.path.string()));
    return ResolvedKernel{name, std::move(*signature), false};
  }
  if (compiled.binary_format == "ptx") {
    const std::string ptx(reinterpret_cast<const char*>(compiled.binary.data()),
                          compiled.binary.size());
    for (auto& entry : find_ptx_kernels(ptx, source.path.string())) {
      std::string plain = demangled(entry.name);
      plain = plain.substr(0, plain.find('('));
      if (entry.name == name || plain == name ||
          (plain.size() > name.size() && plain.ends_with("::" + name))) {
        ResolvedKernel resolved;
        resolved.expression = entry.name;
        resolved.signature = std::move(entry);
        return resolved;
      }
    }
  }
  (void)select_kernel(find_kernels(source.text), name); // throws the scan's "no kernel" error
  throw usage_error(fmt::format("--kernel: no kernel '{}' in {}", name, source.path.string()));
}

std::string gib(std::uint64_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

/// The host copy of a buffer argument, filled. A buffer the host cannot hold is a usage error
/// naming it, its size and what is available, not an allocation failure deep inside.
HostBuffer make_host_buffer(const ArgSpec& spec, const std::filesystem::path& base_dir,
                            const std::string& label) {
  std::uint64_t bytes = dtype_size(*spec.dtype);
  for (const auto d : spec.shape)
    if (__builtin_mul_overflow(bytes, std::uint64_t{d}, &bytes))
      throw usage_error(fmt::format("{}: more than 2^64 bytes", label));
  const auto available = available_host_bytes();
  if (available && bytes > *available)
    throw usage_error(fmt::format("{}: {} bytes do not fit in the host's memory ({} available)",
                                  label, bytes, gib(*available)));
  try {
    HostBuffer buffer(*spec.dtype, spec.shape);
    apply_fill(spec.fill, buffer, base_dir);
    return buffer;
  } catch (const std::bad_alloc&) {
    throw usage_error(fmt::format("{}: {} bytes could not be allocated on the host", label, bytes));
  }
}

/// The context of device `index` of the run's backend, for buffers placed there (made once).
Context& home_context(PreparedRun& run, const Target& target, int index, const ArgSpec& spec,
                      const ContextOptions& options) {
  if (auto it = run.home_contexts.find(index); it != run.home_contexts.end())
    return *it->second;
  const auto devices = target.backend->devices();
  if (static_cast<std::size_t>(index) >= devices.size())
    throw unavailable_error(fmt::format("--arg {}: device {} is not there; {} has {} device(s)",
                                        spec.text, index, target.backend_name(), devices.size()));
  auto context =
      std::shared_ptr<Context>(devices[static_cast<std::size_t>(index)]->create_context(options));
  (void)context->enable_peer_access(*run.context);
  (void)run.context->enable_peer_access(*context);
  return *run.home_contexts.emplace(index, std::move(context)).first->second;
}

/// Allocates and fills one buffer (an argument's or a --memory one) and adds it to run.buffers.
void allocate_buffer(PreparedRun& run, const ArgSpec& spec, const std::string& name,
                     bool is_input, const Target& target, const std::filesystem::path& base_dir,
                     const ContextOptions& home_options) {
  Context& context = *run.context;
  for (const BoundBuffer& other : run.buffers)
    if (other.name == name)
      throw usage_error(fmt::format("--arg {}: a buffer named '{}' is given twice", spec.text, name));
  BoundBuffer b;
  b.name = name;
  b.is_input = is_input;
  b.host = make_host_buffer(spec, base_dir, fmt::format("buffer '{}'", name));
  const std::size_t bytes = std::max<std::size_t>(b.host.size_bytes(), 1);
  b.device = context.allocate(bytes);
  context.name_buffer(*b.device, b.name);
  const bool fill = spec.fill.kind != FillSpec::Kind::uninit;
  if (spec.device && *spec.device != target.device_index) {
    // The buffer lives on another device: filled there, then across by a peer copy.
    Context& home = home_context(run, target, *spec.device, spec, home_options);
    b.home_index = spec.device;
    b.home = home.allocate(bytes);
    home.name_buffer(*b.home, b.name);
    if (fill) {
      home.copy_to_device(*b.home, b.host.bytes());
      home.synchronize();
      const auto start = Clock::now();
      (void)home.copy_to_peer(context, *b.device, *b.home);
      run.outcome.timings.p2p_ms += ms_since(start);
    }
  } else if (fill) {
    // `uninit`: allocated and never written by the host, so --initcheck (and
    // compute-sanitizer's initcheck on a GPU) sees every read of it that the kernel did not
    // write first.
    context.copy_to_device(*b.device, b.host.bytes());
  }
  run.buffers.push_back(std::move(b));
}

/// A record or pointer for a parameter whose size only the compiled layout tells (a struct of the
/// source): the bytes must fill it exactly.
void check_record_sizes(const std::vector<BoundArg>& bound, const std::vector<ParamLayout>& layout) {
  for (const BoundArg& arg : bound) {
    if (arg.index >= layout.size() || layout[arg.index].size == 0)
      continue;
    const std::size_t given = arg.spec.kind == ArgSpec::Kind::record    ? arg.spec.record_size
                              : arg.spec.kind == ArgSpec::Kind::pointer ? 8
                                                                        : 0;
    if (given != 0 && given != layout[arg.index].size)
      throw usage_error(fmt::format("--arg {}: a {} of {} bytes for parameter '{}' ({} bytes)",
                                    arg.name,
                                    arg.spec.kind == ArgSpec::Kind::record ? "record" : "pointer",
                                    given, describe(*arg.param), layout[arg.index].size));
  }
}

/// The --memory buffers: named device buffers no parameter takes, which pointers (&NAME) and
/// records reach (a captured launch's allocations, a struct's arrays).
std::vector<std::pair<std::string, ArgSpec>> memory_specs(const RunRequest& request) {
  std::vector<std::pair<std::string, ArgSpec>> out;
  for (const auto& text : request.memory) {
    auto [name, value] = split_name_value(text, "--memory");
    ArgSpec spec = parse_arg_spec(value, "--memory");
    if (spec.kind != ArgSpec::Kind::buffer)
      throw usage_error(
          fmt::format("--memory {}: expected a buffer spec such as u8[4096]:@a0.npy", text));
    spec.text = text;
    out.emplace_back(std::move(name), std::move(spec));
  }
  return out;
}

void bind_buffers(PreparedRun& run, const std::vector<BoundArg>& bound,
                  const std::vector<std::pair<std::string, ArgSpec>>& memory, const Target& target,
                  const std::filesystem::path& base_dir, const ContextOptions& home_options) {
  // Every buffer first, the arguments' and then --memory's, so that a pointer may name any.
  std::vector<std::size_t> buffer_of(bound.size());
  for (std::size_t i = 0; i < bound.size(); ++i) {
    if (bound[i].spec.kind != ArgSpec::Kind::buffer)
      continue;
    buffer_of[i] = run.buffers.size();
    allocate_buffer(run, bound[i].spec, bound[i].name, bound[i].is_input, target, base_dir,
                    home_options);
  }
  for (const auto& [name, spec] : memory)
    allocate_buffer(run, spec, name, false, target, base_dir, home_options);
  for (std::size_t i = 0; i < bound.size(); ++i) {
    const BoundArg& arg = bound[i];
    switch (arg.spec.kind) {
    case ArgSpec::Kind::buffer:
      run.args.add_buffer(*run.buffers[buffer_of[i]].device);
      break;
    case ArgSpec::Kind::scalar:
      run.args.add_bytes(arg.scalar_bytes);
      break;
    case ArgSpec::Kind::local:
      run.args.add_local(arg.spec.local_bytes);
      break;
    case ArgSpec::Kind::pointer:
    case ArgSpec::Kind::record:
      run.args.add_bytes(encode_with_addresses(arg.spec, [&](const PointerTo& p) {
        const auto it = std::find_if(run.buffers.begin(), run.buffers.end(),
                                     [&](const BoundBuffer& b) { return b.name == p.buffer; });
        if (it == run.buffers.end()) {
          std::string names;
          for (const auto& b : run.buffers)
            names += (names.empty() ? "" : ", ") + b.name;
          throw usage_error(fmt::format("--arg {}: no buffer named '{}' (buffers: {})",
                                        arg.spec.text, p.buffer,
                                        names.empty() ? std::string("none") : names));
        }
        if (p.offset > it->host.size_bytes())
          throw usage_error(fmt::format("--arg {}: byte {} is past the end of buffer '{}' ({} "
                                        "bytes)",
                                        arg.spec.text, p.offset, p.buffer, it->host.size_bytes()));
        return static_cast<std::uint64_t>(it->device->address()) + p.offset;
      }));
      break;
    }
  }
}

void bind_globals(PreparedRun& run, const RunRequest& request) {
  for (const auto& text : request.globals) {
    auto [name, value] = split_name_value(text, "--global");
    auto symbol = run.module->global(name);
    if (!symbol)
      throw usage_error(fmt::format("--global {}: no __device__ or __constant__ variable named "
                                    "'{}' in the module",
                                    text, name));
    ArgSpec spec = parse_arg_spec(value);
    if (spec.kind != ArgSpec::Kind::buffer)
      throw usage_error(
          fmt::format("--global {}: expected a buffer spec such as f32[4]:[1,2,3,4]", text));
    if (spec.device)
      throw usage_error(fmt::format("--global {}: a module variable lives on the run's device; "
                                    "'@{}' does not apply",
                                    text, *spec.device));
    BoundGlobal g{name, *symbol,
                  make_host_buffer(spec, request.base_dir, fmt::format("--global {}", text))};
    // A smaller fill goes into the start of the variable, as Kernel Tuner and CuPy copy it (a 7×7
    // filter into `__constant__ float f[33*33]`); the rest keeps its initial value.
    if (g.host.size_bytes() > symbol->size)
      throw usage_error(fmt::format("--global {}: {} bytes given for '{}', which has {} bytes",
                                    text, g.host.size_bytes(), name, symbol->size));
    if (g.host.size_bytes() < symbol->size)
      run.outcome.warnings.push_back(
          fmt::format("--global {}: {} bytes fill the first {} of the {} bytes of '{}'; the rest "
                      "keeps its initial value",
                      name, g.host.size_bytes(), g.host.size_bytes(), symbol->size, name));
    run.context->copy_to_symbol(g.symbol, g.host.bytes());
    run.globals.push_back(std::move(g));
  }
}

} // namespace

namespace {

PreparedRun prepare_with(const RunRequest& request, const Target& target,
                         std::shared_ptr<Context> context, const DeviceOutputSink& device_output) {
  PreparedRun run;
  RunOutcome& outcome = run.outcome;
  outcome.backend = target.backend_name();
  outcome.device_index = target.device_index;
  const DeviceProperties& props = target.device->properties();
  outcome.device_name = props.name;

  // The source, the kernel and its signature.
  KernelSource source = read_source(request);
  trace("source read");
  auto create_context = [&] {
    const auto context_start = Clock::now();
    run.context = context ? std::move(context)
                          : target.device->create_context(context_options(request, device_output));
    outcome.timings.context_ms = ms_since(context_start);
    trace("context created");
  };
  std::optional<ResolvedKernel> resolved = resolve_kernel(request, source);
  if (!resolved) {
    create_context();
    resolved = resolve_from_module(request, source, *run.context, outcome.backend, outcome.timings);
  }
  ResolvedKernel& kernel = *resolved;
  outcome.kernel = request.kernel ? *request.kernel : kernel.expression;

  if (request.save_dir)
    prepare_save_dir(*request.save_dir);
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
  // OpenCL C: a type the scan cannot resolve (a macro's, REAL) is known once the program is
  // built; the arguments are then bound to the compiled kernel's declarations, and an error of
  // this first binding only stands when the platform cannot tell them.
  const bool is_opencl = source.language == Language::opencl;
  std::vector<BoundArg> bound;
  std::optional<Error> early_bind_error;
  try {
    bound = bind_args(kernel.signature, specs);
  } catch (const Error& e) {
    if (!is_opencl)
      throw;
    early_bind_error = e;
  }
  const auto memory = memory_specs(request);
  trace("arguments bound");

  if (!run.context)
    create_context();

  CompileOptions options = request.compile;
  if (kernel.needs_lowering)
    options.name_expressions.push_back(kernel.expression);
  options.kernels.push_back(kernel.signature.name);
  CompileResult compiled = compile_cached(*run.context, source, options, outcome.backend,
                                          request.use_cache, outcome.timings);
  outcome.compiler = compiled.compiler_version;
  outcome.source_summary = compiled.source_summary;
  trace("compiled (or cache hit)");

  const auto load_start = Clock::now();
  run.module = run.context->load(compiled);
  outcome.lowered_name = kernel.expression;
  outcome.compiler = compiled.compiler_version;
  if (auto it = compiled.lowered_names.find(kernel.expression); it != compiled.lowered_names.end())
    outcome.lowered_name = it->second;
  run.function = &run.module->function(outcome.lowered_name);
  outcome.attributes = run.function->attributes();
  if (const auto limits = arch::sm_limits(props.arch);
      limits && outcome.backend == "cuda" && outcome.attributes.registers >= 0) {
    const Dim3& b = outcome.launch.block;
    outcome.occupancy = arch::occupancy(
        *limits, arch::real_arch(props.arch),
        {.registers = outcome.attributes.registers,
         .static_shared = outcome.attributes.static_shared_bytes,
         .dynamic_shared = outcome.launch.shared_bytes},
        static_cast<int>(std::min<std::uint64_t>(std::uint64_t{b.x} * b.y * b.z, 1u << 20)));
    outcome.occupancy->kernel = outcome.lowered_name;
  }
  outcome.timings.load_ms = ms_since(load_start);
  trace("module loaded");

  // OpenCL: the compiled kernel's declarations (macros expanded) are the signature; the
  // arguments are bound again to them (nothing is allocated yet).
  if (is_opencl) {
    if (auto compiled_signature = opencl_signature(kernel.signature.name, run.function->params())) {
      kernel.signature = std::move(*compiled_signature);
      bound = bind_args(kernel.signature, specs);
    } else if (early_bind_error) {
      throw *early_bind_error;
    }
  }
  check_layout(kernel.signature, run.function->params());
  check_record_sizes(bound, run.function->params());
  validate_launch(outcome.launch, props, outcome.attributes.static_shared_bytes);

  const auto h2d_start = Clock::now();
  bind_buffers(run, bound, memory, target, request.base_dir, context_options(request));
  bind_globals(run, request);
  // The peer copies of buffers placed on other devices are timed apart (timings.p2p_ms).
  outcome.timings.h2d_ms = ms_since(h2d_start) - outcome.timings.p2p_ms;
  trace("copied in");
  return run;
}

} // namespace

ContextOptions context_options(const RunRequest& request, const DeviceOutputSink& device_output) {
  return ContextOptions{.settings = request.device_settings, .device_output = device_output};
}

PreparedRun prepare(const RunRequest& request, const Target& target,
                    const DeviceOutputSink& device_output) {
  return prepare_with(request, target, nullptr, device_output);
}

PreparedRun prepare_in(const RunRequest& request, const Target& target,
                       std::shared_ptr<Context> context) {
  return prepare_with(request, target, std::move(context), {});
}

} // namespace gpurun
