#include "backends/cuda/context.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>

#include "backends/compilers/cuda_compiler.hpp"
#include "backends/compilers/nvrtc.hpp"
#include "backends/cuda/buffer.hpp"
#include "backends/cuda/counters.hpp"
#include "backends/cuda/device_arch.hpp"
#include "backends/cuda/device_assert.hpp"
#include "backends/cuda/error.hpp"
#include "backends/cuda/module.hpp"
#include "backends/kit/cuda_arch.hpp"
#include "backends/kit/device_output.hpp"
#include "backends/kit/event_timer.hpp"
#include "backends/kit/kernel_arguments.hpp"
#include "backends/kit/stream_wait.hpp"

namespace gpurun::cuda {
namespace {

// Errors a kernel raises while it runs; the driver reports them on the next stream operation.
bool is_kernel_fault(CUresult r) {
  switch (r) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
    return true;
  default:
    return false;
  }
}

// Load failures that mean the binary does not suit this device (wrong arch, PTX too new for the
// driver): a compile problem for the user, not a device fault.
bool is_image_error(CUresult r) {
  switch (r) {
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_INVALID_SOURCE:
    return true;
  default:
    return false;
  }
}

std::string first_line(const char* log) {
  std::string text(log);
  const auto start = text.find_first_not_of(" \n\r\t");
  if (start == std::string::npos)
    return {};
  const auto end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

CudaContext::CudaContext(std::shared_ptr<ContextState> state, const DeviceProperties& properties)
    : m_state(std::move(state)), m_properties(properties) {}

void CudaContext::stream_failed(CUresult result, const char* call, const char* file, int line,
                                std::string_view assert_text) const {
  if (result == CUDA_ERROR_ASSERT) {
    const AssertionLines assertions = find_assertions(assert_text);
    if (assertions.count > 0)
      throw_error(
          result, call, ExitCode::device,
          describe_assertion(m_state->last_kernel.empty() ? "?" : m_state->last_kernel, assertions),
          file, line);
  }
  if (is_kernel_fault(result) && !m_state->last_kernel.empty())
    throw_error(result, call, ExitCode::device,
                fmt::format("kernel '{}' faulted", m_state->last_kernel), file, line);
  throw_error(result, call, ExitCode::device, fmt::format("{} failed", call), file, line);
}

void CudaContext::check_stream_call(CUresult result, const char* call, int line) const {
  if (result != CUDA_SUCCESS)
    stream_failed(result, call, __FILE__, line);
}

std::unique_ptr<Buffer> CudaContext::allocate(std::size_t bytes) {
  return std::make_unique<CudaBuffer>(m_state, bytes);
}

void CudaContext::copy_to_device(Buffer& dst, std::span<const std::byte> src) {
  if (src.size() > dst.size())
    throw usage_error(
        fmt::format("copy of {} bytes into a {}-byte device buffer", src.size(), dst.size()));
  if (src.empty())
    return;
  m_state->make_current();
  // From pageable memory the driver stages the bytes before returning, so `src` may go away.
  check_stream_call(
      m_state->api.memcpy_htod_async(dst.address(), src.data(), src.size(), m_state->stream),
      "cuMemcpyHtoDAsync", __LINE__);
}

void CudaContext::copy_to_host(std::span<std::byte> dst, const Buffer& src) {
  const std::size_t n = std::min(dst.size(), src.size());
  if (n == 0)
    return;
  m_state->make_current();
  const auto& api = m_state->api;
  check_stream_call(api.memcpy_dtoh_async(dst.data(), src.address(), n, m_state->stream),
                    "cuMemcpyDtoHAsync", __LINE__);
  check_stream_call(api.stream_synchronize(m_state->stream), "cuStreamSynchronize", __LINE__);
}

void CudaContext::copy_device(Buffer& dst, const Buffer& src) {
  if (src.size() > dst.size())
    throw usage_error(
        fmt::format("copy of a {}-byte device buffer into a {}-byte one", src.size(), dst.size()));
  if (src.size() == 0)
    return;
  m_state->make_current();
  check_stream_call(
      m_state->api.memcpy_dtod_async(dst.address(), src.address(), src.size(), m_state->stream),
      "cuMemcpyDtoDAsync", __LINE__);
}

void CudaContext::memset(Buffer& dst, std::uint8_t value) {
  if (dst.size() == 0)
    return;
  m_state->make_current();
  check_stream_call(m_state->api.memset_d8_async(dst.address(), value, dst.size(), m_state->stream),
                    "cuMemsetD8Async", __LINE__);
}

void CudaContext::copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) {
  if (src.size() > dst.size)
    throw usage_error(
        fmt::format("--global: {} bytes do not fit a {}-byte variable", src.size(), dst.size));
  if (src.empty())
    return;
  m_state->make_current();
  check_stream_call(
      m_state->api.memcpy_htod_async(dst.address, src.data(), src.size(), m_state->stream),
      "cuMemcpyHtoDAsync", __LINE__);
}

void CudaContext::copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) {
  const std::size_t n = std::min(dst.size(), src.size);
  if (n == 0)
    return;
  m_state->make_current();
  const auto& api = m_state->api;
  check_stream_call(api.memcpy_dtoh_async(dst.data(), src.address, n, m_state->stream),
                    "cuMemcpyDtoHAsync", __LINE__);
  check_stream_call(api.stream_synchronize(m_state->stream), "cuStreamSynchronize", __LINE__);
}

bool CudaContext::enable_peer_access(Context& peer) {
  auto* other = dynamic_cast<CudaContext*>(&peer);
  if (other == nullptr || other->m_state->device == m_state->device)
    return false;
  const CUcontext peer_context = other->m_state->context;
  if (std::find(m_peers.begin(), m_peers.end(), peer_context) != m_peers.end())
    return true;
  const auto& api = m_state->api;
  int can_access = 0;
  GPURUN_CU_CHECK("cuDeviceCanAccessPeer",
                  api.device_can_access_peer(&can_access, m_state->device, other->m_state->device));
  if (can_access == 0)
    return false;
  m_state->make_current();
  const CUresult r = api.ctx_enable_peer_access(peer_context, 0);
  // Peer access belongs to the (primary) context: another of its users may have enabled it. A
  // device with as many peers as its hardware allows copies through the host instead.
  if (r == CUDA_ERROR_TOO_MANY_PEERS || r == CUDA_ERROR_PEER_ACCESS_UNSUPPORTED)
    return false;
  if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    throw_error(r, "cuCtxEnablePeerAccess", ExitCode::device,
                fmt::format("enabling peer access from CUDA device {} to device {}",
                            static_cast<int>(m_state->device),
                            static_cast<int>(other->m_state->device)),
                __FILE__, __LINE__);
  m_peers.push_back(peer_context);
  return true;
}

CudaContext::PinnedStaging::~PinnedStaging() {
  if (host != nullptr)
    (void)api.mem_free_host(host);
}

PeerPath CudaContext::copy_to_peer(Context& peer, Buffer& dst, const Buffer& src) {
  auto* other = dynamic_cast<CudaContext*>(&peer);
  if (other == nullptr)
    throw usage_error("copy_to_peer: the peer context does not belong to the cuda backend");
  const std::size_t n = std::min(dst.size(), src.size());
  const auto& api = m_state->api;
  const CUcontext peer_context = other->m_state->context;
  if (std::find(m_peers.begin(), m_peers.end(), peer_context) != m_peers.end()) {
    if (n != 0) {
      // The copy is ordered after this stream's work; the peer's must be done with `dst` too.
      other->m_state->make_current();
      other->check_stream_call(api.stream_synchronize(other->m_state->stream),
                               "cuStreamSynchronize", __LINE__);
      m_state->make_current();
      check_stream_call(api.memcpy_peer_async(dst.address(), peer_context, src.address(),
                                              m_state->context, n, m_state->stream),
                        "cuMemcpyPeerAsync", __LINE__);
      check_stream_call(api.stream_synchronize(m_state->stream), "cuStreamSynchronize", __LINE__);
    }
    return PeerPath::direct;
  }
  if (n == 0)
    return PeerPath::staged;
  m_state->make_current();
  if (!m_staging || m_staging->size < n) {
    m_staging.reset();
    void* host = nullptr;
    // Portable: pinned for every context, so the peer's stream copies from it at full speed.
    GPURUN_CU_CHECK("cuMemHostAlloc", api.mem_host_alloc(&host, n, CU_MEMHOSTALLOC_PORTABLE));
    m_staging = std::make_unique<PinnedStaging>(api, host, n);
  }
  check_stream_call(api.memcpy_dtoh_async(m_staging->host, src.address(), n, m_state->stream),
                    "cuMemcpyDtoHAsync", __LINE__);
  check_stream_call(api.stream_synchronize(m_state->stream), "cuStreamSynchronize", __LINE__);
  other->m_state->make_current();
  other->check_stream_call(
      api.memcpy_htod_async(dst.address(), m_staging->host, n, other->m_state->stream),
      "cuMemcpyHtoDAsync", __LINE__);
  other->check_stream_call(api.stream_synchronize(other->m_state->stream), "cuStreamSynchronize",
                           __LINE__);
  return PeerPath::staged;
}

std::string CudaContext::default_target() const {
  return default_compile_target(m_properties.compute_major, m_properties.compute_minor,
                                nvrtc::supported_archs());
}

CompileResult CudaContext::compile(const KernelSource& source, const CompileOptions& options) {
  if (source.language == Language::ptx) {
    CompileResult r;
    r.ok = true;
    r.target = m_properties.arch;
    if (!source.image.empty()) { // a module image runs as it is: the driver picks its code
      r.binary_format = source.image_format;
      r.compiler_version = source.image_format;
      r.binary = source.image;
      return r;
    }
    r.binary_format = "ptx";
    r.compiler_version = "ptx";
    const auto* bytes = reinterpret_cast<const std::byte*>(source.text.data());
    r.binary.assign(bytes, bytes + source.text.size());
    return r;
  }
  if (source.language != Language::cuda && source.language != Language::hip)
    throw usage_error(
        "the cuda backend compiles CUDA (.cu), HIP (.hip) and PTX (.ptx) sources only");
  std::string target = options.arch;
  // clang produces PTX only: for the device's own architecture, which the driver compiles.
  if (target.empty())
    target = compilers::choose(options).name == "clang"
                 ? arch::virtual_arch(m_properties.compute_major, m_properties.compute_minor)
                 : default_target();
  return compilers::compile_cuda(source, options, target);
}

std::unique_ptr<Module> CudaContext::load(const CompileResult& compiled) {
  const bool ptx = compiled.binary_format == "ptx";
  if (!ptx && compiled.binary_format != "cubin" && compiled.binary_format != "fatbin")
    throw usage_error(fmt::format("the cuda backend cannot load a '{}' binary (ptx, cubin, fatbin)",
                                  compiled.binary_format));
  std::string ptx_text;
  const void* image = compiled.binary.data();
  if (ptx) {
    // cuModuleLoadDataEx reads PTX as a NUL-terminated string.
    ptx_text.assign(reinterpret_cast<const char*>(compiled.binary.data()), compiled.binary.size());
    image = ptx_text.c_str();
  }
  m_state->make_current();
  char error_log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {error_log,
                    reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof error_log))};
  CUmodule module = nullptr;
  const CUresult r = m_state->api.module_load_data_ex(&module, image, 2, options, values);
  if (r != CUDA_SUCCESS) {
    const auto detail = first_line(error_log);
    throw_error(r, "cuModuleLoadDataEx", is_image_error(r) ? ExitCode::compile : ExitCode::device,
                fmt::format("loading {} for {} on {} ({}){}", compiled.binary_format,
                            compiled.target.empty() ? std::string("?") : compiled.target,
                            m_properties.name, m_properties.arch,
                            detail.empty() ? std::string() : ": " + detail),
                __FILE__, __LINE__);
  }
  std::span<const std::byte> cubin;
  if (compiled.binary_format == "cubin")
    cubin = std::span<const std::byte>(compiled.binary.data(), compiled.binary.size());
  return std::make_unique<CudaModule>(m_state, module, ptx_text, cubin,
                                      calls_assertfail(compiled.binary));
}

CounterReport CudaContext::measure_counters(Function& fn, const LaunchConfig& config,
                                            const ArgPack& args, const CounterRequest& request) {
  synchronize(request.timeout_s);
  if (!m_l2_cleaner)
    m_l2_cleaner = std::make_unique<L2Cleaner>(m_state, m_properties.l2_bytes,
                                               m_properties.multiprocessors);
  CounterRequest passes = request;
  passes.before_pass = [&] {
    if (request.before_pass)
      request.before_pass();
    m_l2_cleaner->clean();
    synchronize(request.timeout_s);
  };
  return profile_launch(*m_state, passes, [&] {
    launch(fn, config, args);
    synchronize(request.timeout_s);
  });
}

void CudaContext::check_metrics(const std::vector<std::string>& metrics) {
  check_counters(*m_state, metrics);
}

MetricCatalog CudaContext::metric_catalog() {
  return list_metrics(*m_state);
}

void CudaContext::launch(Function& fn, const LaunchConfig& config, const ArgPack& args) {
  launch_repeated(fn, config, args, 1);
}

void CudaContext::launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                                  int count) {
  auto* function = dynamic_cast<CudaFunction*>(&fn);
  if (function == nullptr)
    throw usage_error(fmt::format("kernel '{}' was not loaded by the cuda backend", fn.name()));
  kit::KernelArguments arguments(args);
  // A size the driver could not tell reads 0.
  if (function->params_known())
    arguments.check(fn.name(), function->params(), kit::ZeroSizeParam::any_argument);
  function->reserve_dynamic_shared(config.shared_bytes);

  // Device printf is flushed by the driver at the next synchronization; what we printed before
  // the launch must reach the terminal first.
  std::cout.flush();
  std::fflush(stdout);

  m_state->make_current();
  // Only a blocking launch flushes device printf; capturing every launch would put the capture's
  // system calls between the timer's start event and the kernel.
  std::optional<kit::DeviceOutputScope> output;
  std::optional<AssertOutputScope> asserts;
  if (m_state->launch_blocking) {
    output.emplace(m_state->device_output, kit::CaptureFailure::raise);
    asserts.emplace(*m_state);
  }
  CUresult r = CUDA_SUCCESS;
  for (int i = 0; i < count && r == CUDA_SUCCESS; ++i)
    r = m_state->api.launch_kernel(function->handle(), config.grid.x, config.grid.y, config.grid.z,
                                   config.block.x, config.block.y, config.block.z,
                                   static_cast<unsigned>(config.shared_bytes), m_state->stream,
                                   arguments.pointers(), nullptr);
  output.reset();
  const std::string assert_text = asserts ? asserts->finish() : std::string();
  if (r != CUDA_SUCCESS) {
    // A fault reported here belongs to an earlier kernel, still named in last_kernel; a
    // blocking launch runs its kernel to the end, so there it is this one.
    if (is_kernel_fault(r)) {
      if (m_state->launch_blocking)
        m_state->last_kernel = fn.name();
      stream_failed(r, "cuLaunchKernel", __FILE__, __LINE__, assert_text);
    }
    throw_error(r, "cuLaunchKernel", ExitCode::device,
                fmt::format("launching kernel '{}' (grid {}, block {}, {} bytes shared)", fn.name(),
                            to_string(config.grid), to_string(config.block), config.shared_bytes),
                __FILE__, __LINE__);
  }
  m_state->last_kernel = fn.name();
}

std::unique_ptr<StreamHold> CudaContext::hold_stream(double limit_s) {
  if (!m_gate)
    m_gate = std::make_unique<StreamGate>(m_state);
  return m_gate->hold(limit_s);
}

void CudaContext::synchronize(std::optional<double> timeout_s) {
  m_state->make_current();
  // The driver flushes printf here.
  kit::DeviceOutputScope output(m_state->device_output, kit::CaptureFailure::raise);
  // A failed assert's lines are printed by a thread of the driver before the stream reports the
  // error: standard error is taken for the whole wait.
  AssertOutputScope asserts(*m_state);
  const auto wait = kit::wait_for_stream(*m_state, timeout_s);
  const std::string assert_text = asserts.finish();
  if (wait.failed())
    stream_failed(wait.result, wait.call_name().c_str(), wait.file, wait.line, assert_text);
}

std::unique_ptr<Timer> CudaContext::create_timer() {
  return std::make_unique<kit::EventTimer<ContextState>>(m_state);
}

std::string CudaContext::compiler_id(const CompileOptions& options) const {
  return fmt::format("{} {}", compilers::compiler_id(options), default_target());
}

} // namespace gpurun::cuda
