// `gpurun compile FILE`: compile only; write the binary (-o), show PTX, report resources.
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "app/command.hpp"
#include "app/run_options.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "backends/kit/cuda_occupancy.hpp"
#include "backends/registry.hpp"
#include "base/atomic_file.hpp"
#include "base/error.hpp"
#include "output/printer.hpp"
#include "pipeline/language.hpp"
#include "pipeline/spec.hpp"
#include "pipeline/target.hpp"

namespace gpurun {

namespace {

struct CompileCommandOptions {
  std::string file;
  std::string out;
  /// -D, -I, --std, --arch, --opt, --compiler, --backend, --device; read into `given`.
  ParameterFlags parameters;
  RunRequest given;
  std::vector<std::string> kernels; ///< template instantiations to compile (--kernel)
  bool ptx = false;
  bool resources = false;
  bool occupancy = false;
  bool json = false;
  bool verbose = false;
};

bool is_cuda_source(const KernelSource& source) {
  return source.language == Language::cuda || source.language == Language::hip;
}

/// Registers, shared, stack and spills per kernel: as the backend's compiler reports them for
/// the target (ptxas, an AMD code object's metadata; no GPU needed), otherwise the loaded
/// module's attributes.
ResourceReport find_resources(const KernelSource& source, const CompileOptions& options,
                              const Target& target, Context& context,
                              const CompileResult& compiled) {
  if (auto reported = target.backend->compiled_resources(source, options, compiled))
    return std::move(*reported);
  ResourceReport report;
  auto module = context.load(compiled);
  for (const auto& name : module->kernel_names())
    report.loaded.emplace_back(name, module->function(name).attributes());
  report.measured_by = fmt::format("{} on {}", compiled.target, target.label());
  return report;
}

/// --occupancy: each kernel's theoretical occupancy on the compiled architecture, from the
/// registers, shared memory and barriers the compiler reported (or the loaded module's).
std::vector<arch::Occupancy> find_occupancy(const CompileCommandOptions& o,
                                            const ResourceReport& resources,
                                            const std::string& target) {
  const std::string arch = arch::real_arch(target);
  const auto limits = arch::sm_limits(arch);
  if (!limits)
    throw usage_error(fmt::format("--occupancy: no occupancy rules for '{}' (known: {}; choose "
                                  "one with --arch)",
                                  target, arch::known_occupancy_archs()));
  const Dim3 block = o.given.block.value_or(Dim3{256, 1, 1});
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  std::vector<arch::Occupancy> out;
  auto add = [&](const std::string& kernel, const arch::KernelUse& use) {
    out.push_back(arch::occupancy(*limits, arch, use, static_cast<int>(std::min<std::uint64_t>(
                                                          threads, 1u << 20))));
    out.back().kernel = kernel;
  };
  for (const auto& k : resources.ptxas)
    add(k.name, {.registers = k.registers,
                 .static_shared = k.shared_bytes,
                 .dynamic_shared = o.given.shared_bytes,
                 .barriers = k.barriers});
  for (const auto& [name, a] : resources.loaded) {
    if (a.registers < 0)
      throw unavailable_error(fmt::format(
          "--occupancy: the registers of {} are not known from {}; a CUDA compiler's binary "
          "tells them (--arch sm_XX with NVRTC or nvcc)",
          name, resources.measured_by));
    add(name, {.registers = a.registers,
               .static_shared = a.static_shared_bytes,
               .dynamic_shared = o.given.shared_bytes});
  }
  return out;
}

CompileOptions options_of(const CompileCommandOptions& o) {
  CompileOptions options = o.given.compile;
  options.name_expressions = o.kernels;
  options.kernels = o.kernels;
  return options;
}

void write_report(const CompileCommandOptions& o, const CompileResult& result,
                  std::optional<ResourceReport> resources) {
  CompileReport report{o.file,
                       o.out,
                       result.binary.size(),
                       result.binary_format,
                       result.target,
                       result.compiler_version,
                       std::nullopt,
                       std::move(resources),
                       result.source_summary,
                       {}};
  if (o.out == "-") { // the binary on stdout, for a pipe
    std::cout.write(reinterpret_cast<const char*>(result.binary.data()),
                    static_cast<std::streamsize>(result.binary.size()));
    return;
  }
  if (!o.out.empty())
    write_file_atomic(o.out, result.binary);
  make_printer(o.json ? OutputFormat::json : OutputFormat::human)->print_compile(report);
}

/// `--arch gfx…`: an AMD GPU's code object, compiled by hipRTC for the named target without any
/// GPU present.
void run_amd_compile(const CompileCommandOptions& o, const KernelSource& source,
                     const BackendRegistry& registry) {
  if (o.given.backend != "auto" && o.given.backend != "hip")
    throw usage_error(fmt::format("--arch {}: an AMD GPU target, which the hip backend compiles "
                                  "(--backend hip or auto), not --backend {}",
                                  o.given.compile.arch, o.given.backend));
  if (source.language != Language::hip)
    throw usage_error(fmt::format("--arch {}: AMD GPU targets compile HIP (.hip) sources; {} is {} "
                                  "(CUDA targets are sm_XX or compute_XX)",
                                  o.given.compile.arch, o.file, language_name(source.language)));
  if (o.ptx)
    throw usage_error(fmt::format("--ptx: {} is an AMD GPU target, which has no PTX (-o writes "
                                  "the code object)",
                                  o.given.compile.arch));
  if (!o.given.compile.compiler.empty())
    throw usage_error(
        fmt::format("--compiler {}: chooses a CUDA compiler; {} is compiled by hipRTC",
                    o.given.compile.compiler, o.given.compile.arch));
  Backend* hip = registry.find("hip");
  if (hip == nullptr) {
    std::string why = "not built into this gpurun";
    for (const auto& left_out : left_out_backends())
      if (left_out.name == "hip")
        why += ": " + left_out.reason;
    throw unavailable_error(
        fmt::format("--arch {}: the hip backend is {}", o.given.compile.arch, why));
  }
  const CompileOptions options = options_of(o);
  const CompileResult result = hip->compile_for(source, options, o.given.compile.arch);
  if (!result.ok)
    throw CompileError(fmt::format("{}: compile failed", o.file), result.log);
  if (!result.log.empty())
    std::cerr << result.log;
  std::optional<ResourceReport> resources;
  if (o.resources) {
    resources = hip->compiled_resources(source, options, result);
    if (!resources || resources->code_object.empty())
      throw usage_error(fmt::format(
          "{}: no kernel was compiled: the file has no __global__ function, or only templates "
          "(name an instantiation: --kernel 'NAME<TYPE>')",
          o.file));
  }
  write_report(o, result, std::move(resources));
}

void run_compile(const CompileCommandOptions& o, CommandEnv& env) {
  // Where the driver's JIT library is installed, NVRTC takes a cubin it made before from the
  // compute cache (~/.nv/ComputeCache) without running ptxas, and ptxas's report of registers and
  // shared memory is then missing (seen on an H200, driver 580, NVRTC 13.0). The setting is read
  // once, when the JIT starts: before anything compiles.
  if (o.resources || o.occupancy)
    ::setenv("CUDA_CACHE_DISABLE", "1", 1);
  KernelSource source = load_kernel_source(o.file);
  if (o.given.compile.arch.starts_with("gfx")) {
    run_amd_compile(o, source, env.registry);
    return;
  }
  const Target target = [&] {
    try {
      return select_target(env.registry, {o.given.backend, o.given.device, source.language});
    } catch (const Error& e) {
      // Without an AMD GPU the hip backend still compiles for a target that is named.
      if (o.given.backend != "hip" || e.code() != ExitCode::unavailable)
        throw;
      throw unavailable_error(fmt::format(
          "{}; --arch gfxNNN (e.g. gfx90a) compiles for a named AMD GPU without one", e.what()));
    }
  }();
  auto context = target.device->create_context({});

  CompileOptions options = options_of(o);
  // OpenCL C is built for the device itself: no architecture to name.
  if (options.arch.empty() && source.language != Language::opencl)
    options.arch = target.device->properties().arch;
  if (o.ptx && source.language == Language::opencl)
    throw usage_error("--ptx: an OpenCL platform builds its own binary from OpenCL C; gpurun "
                      "compile -o FILE saves it");
  if (o.ptx)
    options.arch = arch::virtual_arch(options.arch);
  if (o.occupancy && o.ptx)
    throw usage_error("--occupancy: needs the registers of a binary; --ptx makes PTX");

  // An explicit sm_XX asks for that GPU's binary, which a CUDA compiler makes without any GPU;
  // otherwise the target's backend compiles for its own device.
  const bool explicit_binary =
      !o.given.compile.arch.empty() && !o.ptx && o.given.compile.arch.starts_with("sm_");
  CompileResult result = explicit_binary && is_cuda_source(source) &&
                                 target.backend->compiles_offline_for(options.arch)
                             ? target.backend->compile_for(source, options, options.arch)
                             : context->compile(source, options);
  if (!result.ok)
    throw CompileError(fmt::format("{}: compile failed", o.file), result.log);
  if (!result.log.empty())
    std::cerr << result.log;

  CompileReport report{o.file,
                       o.out,
                       result.binary.size(),
                       result.binary_format,
                       result.target,
                       result.compiler_version,
                       std::nullopt,
                       std::nullopt,
                       result.source_summary,
                       {}};
  if (o.out == "-") { // the binary on stdout, for a pipe
    std::cout.write(reinterpret_cast<const char*>(result.binary.data()),
                    static_cast<std::streamsize>(result.binary.size()));
    return;
  }
  if (!o.out.empty())
    write_file_atomic(o.out, result.binary);
  else if (o.ptx && result.binary_format == "ptx")
    report.ptx.emplace(reinterpret_cast<const char*>(result.binary.data()), result.binary.size());
  if (o.resources || o.occupancy) {
    auto resources = find_resources(source, options, target, *context, result);
    if (resources.ptxas.empty() && resources.loaded.empty())
      throw usage_error(fmt::format(
          "{}: no kernel was compiled: the file has no __global__ function, or only templates "
          "(name an instantiation: --kernel 'NAME<TYPE>')",
          o.file));
    if (o.occupancy)
      report.occupancy = find_occupancy(
          o, resources, resources.from_ptxas && !resources.ptxas.empty() ? resources.ptxas[0].arch
                                                                          : options.arch);
    if (o.resources)
      report.resources = std::move(resources);
  }
  make_printer(o.json ? OutputFormat::json : OutputFormat::human)->print_compile(report);
}

} // namespace

void add_compile_command(CLI::App& app, CommandEnv& env) {
  auto* cmd = app.add_subcommand("compile", "Compile a kernel file without running it");
  cmd->footer("Examples:\n"
              "  gpurun compile kernels/examples/saxpy.cu -k 'saxpy<float>' --resources\n"
              "  gpurun compile kernels/examples/scalar_add.cu --ptx -o -\n"
              "  gpurun compile kernels/examples/saxpy.cu -k 'saxpy<float>' --arch sm_90 --occupancy --block 256\n"
              "  gpurun compile kernel.cu -arch=sm_90 -o kernel.cubin");
  auto o = std::make_shared<CompileCommandOptions>();
  cmd->add_option("file", o->file, "Kernel file")->required();
  cmd->add_option("-o,--output", o->out,
                  "Write the binary (cubin, PTX or AMD code object) here ('-': stdout)");
  cmd->add_option("--kernel,-k", o->kernels,
                  "Instantiate a template kernel: 'NAME<TYPE>' (repeatable)")
      ->allow_extra_args(false);
  o->parameters.add_to(*cmd, Command::compile);
  cmd->add_flag("--ptx", o->ptx, "Produce PTX (printed unless -o)");
  cmd->add_flag("--resources", o->resources, "Registers, shared and local memory per kernel");
  cmd->add_flag("--occupancy", o->occupancy,
                "Theoretical occupancy per kernel for --block (default 256) and --shared on the "
                "architecture (--arch sm_XX), with what limits it; no GPU needed");
  cmd->add_flag("--json", o->json, "Print one JSON document (PTX text and resources included)");
  cmd->add_flag("-v,--verbose", o->verbose, "A compile error's whole log");
  cmd->callback([o, &env] {
    apply_flags(o->given, o->parameters.given());
    run_compile(*o, env);
  });
}

} // namespace gpurun
