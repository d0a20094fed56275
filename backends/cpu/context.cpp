#include "backends/cpu/context.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/cpu/buffer.hpp"
#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/device_heap.hpp"
#include "backends/cpu/emu/findings.hpp"
#include "backends/cpu/module.hpp"
#include "backends/cpu/timer.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "base/cache_dir.hpp"
#include "base/detailed_error.hpp"
#include "base/error.hpp"

namespace gpurun::cpu {

namespace {

// sm_90's opt-in limit for dynamic shared memory per block.
constexpr std::size_t kMaxSharedOptin = 227 * 1024;

std::string ptx_target(const CompileOptions& options) {
  std::string arch = options.arch;
  if (arch.empty())
    return "compute_90";
  return arch::virtual_arch(arch);
}

} // namespace

CpuContext::CpuContext(const ContextOptions& options, int default_workers,
                       LaunchBudget launch_budget)
    : m_settings(ContextSettings::from(options)), m_device_output(options.device_output),
      m_launch_budget(std::move(launch_budget)), m_memory(std::make_shared<emu::DeviceMemory>()) {
  m_workers = m_settings.threads > 0 ? m_settings.threads
              : default_workers > 0
                  ? default_workers
                  : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

bool CpuContext::enable_peer_access(Context& peer) {
  return dynamic_cast<CpuContext*>(&peer) != nullptr;
}

PeerPath CpuContext::copy_to_peer(Context& peer, Buffer& dst, const Buffer& src) {
  auto* other = dynamic_cast<CpuContext*>(&peer);
  if (other == nullptr)
    throw device_error("copy_to_peer: the peer context does not belong to the cpu backend");
  wait_idle();
  other->wait_idle();
  const std::size_t n = std::min(dst.size(), src.size());
  if (n != 0)
    std::memcpy(other->m_memory->host(dst.address(), n), m_memory->host(src.address(), n), n);
  other->m_memory->mark_written(dst.address(), n);
  return PeerPath::direct;
}

CpuContext::~CpuContext() {
  if (m_job)
    m_job->cancel();
}

void CpuContext::wait_idle() {
  if (m_job)
    (void)m_job->wait(std::nullopt);
}

std::unique_ptr<Buffer> CpuContext::allocate(std::size_t bytes) {
  auto buffer = std::make_unique<CpuBuffer>(m_memory, bytes);
  // initcheck: a buffer holds nothing defined until the host or a kernel writes it.
  if (m_settings.initcheck)
    m_memory->track_writes(buffer->address());
  return buffer;
}

void CpuContext::copy_to_device(Buffer& dst, std::span<const std::byte> src) {
  wait_idle();
  if (src.size() > dst.size())
    throw device_error(
        fmt::format("copy of {} bytes into a {}-byte buffer", src.size(), dst.size()));
  if (!src.empty())
    std::memcpy(m_memory->host(dst.address(), src.size()), src.data(), src.size());
  m_memory->mark_written(dst.address(), src.size());
}

void CpuContext::copy_to_host(std::span<std::byte> dst, const Buffer& src) {
  wait_idle();
  if (dst.size() > src.size())
    throw device_error(
        fmt::format("copy of {} bytes out of a {}-byte buffer", dst.size(), src.size()));
  if (!dst.empty())
    std::memcpy(dst.data(), m_memory->host(src.address(), dst.size()), dst.size());
}

void CpuContext::copy_device(Buffer& dst, const Buffer& src) {
  wait_idle();
  std::size_t n = std::min(dst.size(), src.size());
  if (n)
    std::memmove(m_memory->host(dst.address(), n), m_memory->host(src.address(), n), n);
  m_memory->mark_written(dst.address(), n);
}

void CpuContext::memset(Buffer& dst, std::uint8_t value) {
  wait_idle();
  if (dst.size() != 0)
    std::memset(m_memory->host(dst.address(), dst.size()), value, dst.size());
  m_memory->mark_written(dst.address(), dst.size());
}

void CpuContext::copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) {
  wait_idle();
  if (src.size() > dst.size)
    throw device_error(
        fmt::format("copy of {} bytes into a {}-byte variable", src.size(), dst.size));
  if (!src.empty())
    std::memcpy(m_memory->host(dst.address, src.size()), src.data(), src.size());
}

void CpuContext::copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) {
  wait_idle();
  std::size_t n = std::min(dst.size(), src.size);
  if (n)
    std::memcpy(dst.data(), m_memory->host(src.address, n), n);
}

CompileResult CpuContext::compile(const KernelSource& source, const CompileOptions& options) {
  if (source.language == Language::ptx) {
    if (source.text.empty() && !source.image.empty())
      throw usage_error(fmt::format(
          "{}: the {} holds no PTX, only machine code, and the cpu backend runs PTX (a fat binary "
          "keeps its PTX when built with -gencode arch=compute_XX,code=compute_XX)",
          source.path.string(), source.image_format));
    CompileResult r;
    r.ok = true;
    r.binary_format = "ptx";
    r.binary.resize(source.text.size());
    std::memcpy(r.binary.data(), source.text.data(), source.text.size());
    r.target = "ptx";
    return r;
  }
  if (source.language != Language::cuda && source.language != Language::hip)
    throw unavailable_error("the cpu backend compiles CUDA, HIP and PTX sources only");
  return compilers::compile_cuda(source, options, ptx_target(options));
}

std::string CpuContext::compiler_id(const CompileOptions& options) const {
  return compilers::compiler_id(options) + " ptx-emulator";
}

std::unique_ptr<Module> CpuContext::load(const CompileResult& compiled) {
  if (compiled.binary_format != "ptx")
    throw device_error(fmt::format("the cpu backend loads PTX, not '{}'", compiled.binary_format));
  std::string text(reinterpret_cast<const char*>(compiled.binary.data()), compiled.binary.size());
  const bool checked = m_settings.memcheck || m_settings.racecheck || m_settings.initcheck;
  return std::make_unique<CpuModule>(text, m_memory, checked);
}

void CpuContext::launch(Function& fn, const LaunchConfig& config, const ArgPack& args) {
  auto* function = dynamic_cast<CpuFunction*>(&fn);
  if (!function)
    throw device_error("launch: the function does not belong to the cpu backend");
  const emu::DecodedFunction& kernel = function->decoded();
  if (!kernel.cannot_run.empty())
    throw device_error(kernel.cannot_run);
  const auto& params = fn.params();
  if (args.values.size() != params.size())
    throw usage_error(fmt::format("kernel '{}' takes {} parameters, {} given", fn.name(),
                                  params.size(), args.values.size()));
  std::size_t shared = function->program().static_shared_bytes + config.shared_bytes;
  if (shared > kMaxSharedOptin)
    throw device_error(fmt::format("kernel '{}' needs {} bytes of shared memory per block, more "
                                   "than the device's {}",
                                   fn.name(), shared, kMaxSharedOptin));
  if (config.grid.volume() == 0 || config.block.volume() == 0)
    throw device_error(fmt::format("kernel '{}': empty grid or block", fn.name()));

  if (m_launch_budget && m_launch_budget->fetch_sub(1) <= 0)
    throw device_error(fmt::format("kernel '{}' failed: the device is lost "
                                   "(GPURUN_TEST_FAIL_DEVICE, a test setting)",
                                   fn.name()));
  wait_idle();
  finish_job();
  auto state = std::make_unique<emu::LaunchState>();
  state->program = &function->program();
  state->kernel = &kernel;
  state->grid = config.grid;
  state->block = config.block;
  state->dynamic_shared = config.shared_bytes;
  state->grid_id = ++m_launches;
  state->memcheck = m_settings.memcheck;
  state->racecheck = m_settings.racecheck;
  state->initcheck = m_settings.initcheck;
  state->synccheck = m_settings.synccheck;
  if (function->program().uses_heap && !m_heap) {
    // The device heap is made once, at the first kernel that calls malloc or free, and kept
    // for the context's life as the driver keeps its heap.
    const std::uint64_t base = m_memory->allocate(m_settings.heap_bytes, "device heap");
    m_heap = std::make_shared<emu::DeviceHeap>(base, m_settings.heap_bytes);
  }
  state->heap = function->program().uses_heap ? m_heap.get() : nullptr;
  state->device_output = m_device_output;
  state->printf_capacity = m_settings.printf_buffer;
  state->params.assign(std::max<std::size_t>(kernel.kernel_param_bytes, 1), std::byte{0});
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto bytes = args.address_form(i);
    if (bytes.size() != params[i].size)
      throw usage_error(fmt::format("kernel '{}' parameter {} is {} bytes, the argument {} bytes",
                                    fn.name(), i, params[i].size, bytes.size()));
    std::memcpy(state->params.data() + params[i].offset, bytes.data(), params[i].size);
  }
  state->memory = m_memory->snapshot();
  choose_engine(*function, config, *state);
  m_blocks_done.store(0);
  m_blocks.store(config.grid.volume());
  m_launch_start.store(std::chrono::steady_clock::now().time_since_epoch().count());
  state->blocks_done = &m_blocks_done;
  m_job = std::make_shared<emu::LaunchJob>(std::move(state), m_workers);
  m_job_collected = false;
}

void CpuContext::choose_engine(CpuFunction& function, const LaunchConfig& config,
                               emu::LaunchState& state) {
  m_engine_note.clear();
  m_engine_reason.clear();
  m_timed = {};
  if (m_settings.engine == native::Engine::interpret)
    return;
  // The sanitizers hook every access and barrier, and --stats counts instructions: the
  // interpreter's work (an explicit compiled engine still runs compiled under --stats).
  const bool sanitized =
      m_settings.memcheck || m_settings.racecheck || m_settings.initcheck || m_settings.synccheck;
  std::string why = "the sanitizers run on the interpreter";
  if (!sanitized && !(m_settings.stats && m_settings.engine == native::Engine::automatic)) {
    const bool big = config.grid.volume() * config.block.volume() >= (std::uint64_t{1} << 16);
    const std::string shape =
        fmt::format("{},{},{}/{},{},{}/{}", config.grid.x, config.grid.y, config.grid.z,
                    config.block.x, config.block.y, config.block.z, config.shared_bytes);
    state.native =
        function.native().for_launch(m_settings.engine, big, shape, default_cache_dir(), &why);
    m_timed = {function.native().timings(), shape};
  }
  if (!state.native) {
    m_engine_reason = why;
    // Asking for a sanitizer is asking for the interpreter: no warning for that (-v says it).
    if (!sanitized)
      m_engine_note = fmt::format("kernel '{}' ran on the interpreter: {}", function.name(), why);
  }
}

void CpuContext::finish_job() {
  if (!m_job || m_job_collected)
    return;
  m_job_collected = true;
  const auto& s = m_job->state();
  m_stats.clear();
  if (m_timed.first && !m_job->error())
    m_timed.first->record(
        m_timed.second, s.native != nullptr,
        std::chrono::duration<double>(m_job->finished_at() - m_job->started_at()).count());
  if (m_settings.stats && s.native) {
    m_stats["compiled"] = 1;
    m_stats["seconds"] =
        std::chrono::duration<double>(m_job->finished_at() - m_job->started_at()).count();
  } else if (m_settings.stats) {
    m_stats["compiled"] = 0;
    double seconds =
        std::chrono::duration<double>(m_job->finished_at() - m_job->started_at()).count();
    m_stats["warp_instructions"] = static_cast<double>(s.warp_instructions.load());
    m_stats["lane_instructions"] = static_cast<double>(s.lane_instructions.load());
    m_stats["seconds"] = seconds;
    m_stats["lane_instructions_per_second"] =
        seconds > 0 ? static_cast<double>(s.lane_instructions.load()) / seconds : 0.0;
  }
  m_warnings.clear();
  if (m_settings.engine == native::Engine::compiled && !m_engine_note.empty())
    m_warnings.push_back(m_engine_note);
  if (s.printf_dropped > 0)
    m_warnings.push_back(fmt::format(
        "kernel '{}': {} of {} device printf calls were dropped: the printf buffer ({} bytes) was "
        "full (raise it with --printf-buffer)",
        s.kernel->name, s.printf_dropped, s.printf_calls, s.printf_capacity));
  if (s.barrier_mismatch_blocks > 0)
    m_warnings.push_back(s.barrier_mismatch_blocks == 1
                             ? s.barrier_mismatch
                             : fmt::format("{} (and {} more blocks)", s.barrier_mismatch,
                                           s.barrier_mismatch_blocks - 1));
  report_findings();
  if (auto e = m_job->error(); e && !m_pending_error)
    m_pending_error = e;
}

std::optional<LaunchProgress> CpuContext::launch_progress() const {
  const std::uint64_t blocks = m_blocks.load();
  if (blocks == 0)
    return std::nullopt;
  const std::chrono::steady_clock::time_point start{
      std::chrono::steady_clock::duration(m_launch_start.load())};
  return LaunchProgress{m_blocks_done.load(std::memory_order_relaxed), blocks,
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                            .count()};
}

void CpuContext::report_findings() {
  const auto& s = m_job->state();
  std::vector<emu::Finding> findings = s.findings.all();
  if (m_settings.leakcheck && m_heap && s.heap)
    for (const auto& block : m_heap->live())
      findings.push_back(emu::Finding{
          emu::Tool::memcheck, emu::Severity::error,
          fmt::format("leak: {} bytes at {:#x} on the device heap, allocated by malloc and never "
                      "freed",
                      block.bytes, block.address),
          1});
  if (findings.empty())
    return;
  const auto report = emu::summarize(findings, s.kernel->name, m_settings.max_findings);
  const bool error = std::any_of(findings.begin(), findings.end(), [](const emu::Finding& f) {
    return f.severity == emu::Severity::error;
  });
  if (!error || m_job->error()) {
    // Warnings only (or a fault ends the launch anyway): the findings travel as warnings.
    m_warnings.push_back(report.summary);
    for (const auto& line : report.lines)
      m_warnings.push_back(line);
    return;
  }
  m_pending_error =
      std::make_exception_ptr(DetailedError(ExitCode::device, report.summary, report.lines));
}

void CpuContext::synchronize(std::optional<double> timeout_s) {
  if (m_job && !m_job_collected) {
    if (!m_job->wait(timeout_s)) {
      m_job->cancel();
      std::string name = m_job->state().kernel->name;
      m_job_collected = true;
      m_job.reset();
      throw Error(
          ExitCode::timeout,
          fmt::format("kernel '{}' did not finish within {} s (--timeout)", name, *timeout_s));
    }
    finish_job();
  }
  if (m_pending_error) {
    auto e = m_pending_error;
    m_pending_error = nullptr;
    std::rethrow_exception(e);
  }
}

std::unique_ptr<Timer> CpuContext::create_timer() {
  return std::make_unique<CpuTimer>(*this);
}

void CpuContext::name_buffer(const Buffer& buffer, const std::string& name) {
  m_memory->set_name(buffer.address(), name);
}

std::map<std::string, double> CpuContext::last_launch_stats() const {
  return m_stats;
}

std::string CpuContext::last_launch_engine() const {
  if (!m_job)
    return {};
  if (m_job->state().native)
    return "compiled";
  return m_engine_reason.empty() ? "interpreted"
                                 : fmt::format("interpreted ({})", m_engine_reason);
}

std::vector<std::string> CpuContext::last_launch_warnings() const {
  return m_warnings;
}

} // namespace gpurun::cpu
