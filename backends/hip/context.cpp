#include "backends/hip/context.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "backends/compilers/hiprtc.hpp"
#include "backends/hip/buffer.hpp"
#include "backends/hip/error.hpp"
#include "backends/hip/module.hpp"
#include "backends/kit/amdgpu_code_object.hpp"
#include "backends/kit/device_output.hpp"
#include "backends/kit/event_timer.hpp"
#include "backends/kit/kernel_arguments.hpp"
#include "backends/kit/stream_wait.hpp"

namespace gpurun::hip {
namespace {

// Errors a kernel raises while it runs; the runtime reports them on a later stream operation.
bool is_kernel_fault(hipError_t r) {
  switch (r) {
  case hipErrorIllegalAddress:
  case hipErrorLaunchFailure:
  case hipErrorAssert:
  case hipErrorLaunchTimeOut:
    return true;
  default:
    return false;
  }
}

// Load failures that mean the code object does not suit this device (another gfx target).
bool is_image_error(hipError_t r) {
  switch (r) {
  case hipErrorNoBinaryForGpu:
  case hipErrorInvalidImage:
  case hipErrorInvalidKernelFile:
  case hipErrorSharedObjectInitFailed:
    return true;
  default:
    return false;
  }
}

void* device_pointer(DevicePtr address) {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(address));
}

} // namespace

HipContext::HipContext(std::shared_ptr<ContextState> state, const DeviceProperties& properties,
                       std::string target)
    : m_state(std::move(state)), m_properties(properties), m_target(std::move(target)) {}

void HipContext::stream_failed(hipError_t result, const char* call, const char* file,
                               int line) const {
  if (is_kernel_fault(result) && !m_state->last_kernel.empty())
    throw_error(result, call, ExitCode::device,
                fmt::format("kernel '{}' faulted", m_state->last_kernel), file, line);
  throw_error(result, call, ExitCode::device, fmt::format("{} failed", call), file, line);
}

void HipContext::check_stream_call(hipError_t result, const char* call, int line) const {
  if (result != hipSuccess)
    stream_failed(result, call, __FILE__, line);
}

std::unique_ptr<Buffer> HipContext::allocate(std::size_t bytes) {
  return std::make_unique<HipBuffer>(m_state, bytes);
}

void HipContext::copy(void* dst, const void* src, std::size_t bytes, hipMemcpyKind kind,
                      const char* what) {
  if (bytes == 0)
    return;
  m_state->make_current();
  check_stream_call(m_state->api.memcpy_async(dst, src, bytes, kind, m_state->stream), what,
                    __LINE__);
  // From pageable memory the copy is staged, but only a synchronized copy lets `src` go (host
  // to device) or makes `dst` valid (device to host).
  check_stream_call(m_state->api.stream_synchronize(m_state->stream), "hipStreamSynchronize",
                    __LINE__);
}

void HipContext::copy_to_device(Buffer& dst, std::span<const std::byte> src) {
  if (src.size() > dst.size())
    throw usage_error(
        fmt::format("copy of {} bytes into a {}-byte device buffer", src.size(), dst.size()));
  copy(device_pointer(dst.address()), src.data(), src.size(), hipMemcpyHostToDevice,
       "hipMemcpyAsync (host to device)");
}

void HipContext::copy_to_host(std::span<std::byte> dst, const Buffer& src) {
  copy(dst.data(), device_pointer(src.address()), std::min(dst.size(), src.size()),
       hipMemcpyDeviceToHost, "hipMemcpyAsync (device to host)");
}

void HipContext::copy_device(Buffer& dst, const Buffer& src) {
  if (src.size() > dst.size())
    throw usage_error(
        fmt::format("copy of a {}-byte device buffer into a {}-byte one", src.size(), dst.size()));
  if (src.size() == 0)
    return;
  m_state->make_current();
  check_stream_call(m_state->api.memcpy_async(device_pointer(dst.address()),
                                              device_pointer(src.address()), src.size(),
                                              hipMemcpyDeviceToDevice, m_state->stream),
                    "hipMemcpyAsync (device to device)", __LINE__);
}

void HipContext::memset(Buffer& dst, std::uint8_t value) {
  if (dst.size() == 0)
    return;
  m_state->make_current();
  check_stream_call(m_state->api.memset_d8_async(device_pointer(dst.address()), value, dst.size(),
                                                 m_state->stream),
                    "hipMemsetD8Async", __LINE__);
}

void HipContext::copy_to_symbol(const GlobalSymbol& dst, std::span<const std::byte> src) {
  if (src.size() > dst.size)
    throw usage_error(
        fmt::format("--global: {} bytes do not fit a {}-byte variable", src.size(), dst.size));
  copy(device_pointer(dst.address), src.data(), src.size(), hipMemcpyHostToDevice,
       "hipMemcpyAsync (host to device)");
}

void HipContext::copy_from_symbol(std::span<std::byte> dst, const GlobalSymbol& src) {
  copy(dst.data(), device_pointer(src.address), std::min(dst.size(), src.size),
       hipMemcpyDeviceToHost, "hipMemcpyAsync (device to host)");
}

CompileResult HipContext::compile(const KernelSource& source, const CompileOptions& options) {
  if (source.language != Language::hip)
    throw usage_error("the hip backend compiles HIP (.hip) sources only");
  return hiprtc::compile(source, options, options.arch.empty() ? m_target : options.arch);
}

std::unique_ptr<Module> HipContext::load(const CompileResult& compiled) {
  if (compiled.binary_format != "hsaco")
    throw usage_error(
        fmt::format("the hip backend cannot load a '{}' binary (hsaco)", compiled.binary_format));
  const kit::AmdgpuCodeObject code = hiprtc::read_code_object(compiled);
  m_state->make_current();
  hipModule_t module = nullptr;
  const hipError_t r = m_state->api.module_load_data(&module, compiled.binary.data());
  if (r != hipSuccess)
    throw_error(r, "hipModuleLoadData", is_image_error(r) ? ExitCode::compile : ExitCode::device,
                fmt::format("loading a code object for {} on {} ({})", code.processor(),
                            m_properties.name, m_target),
                __FILE__, __LINE__);
  return std::make_unique<HipModule>(m_state, module, std::move(code));
}

void HipContext::launch(Function& fn, const LaunchConfig& config, const ArgPack& args) {
  launch_repeated(fn, config, args, 1);
}

void HipContext::launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                                 int count) {
  auto* function = dynamic_cast<HipFunction*>(&fn);
  if (function == nullptr)
    throw usage_error(fmt::format("kernel '{}' was not loaded by the hip backend", fn.name()));
  kit::KernelArguments arguments(args);
  arguments.check(fn.name(), function->params(), kit::ZeroSizeParam::exact);

  // Device printf reaches standard output when the kernel's work completes; what gpurun printed
  // before the launch must come first.
  std::cout.flush();
  std::fflush(stdout);
  m_state->make_current();
  hipError_t r = hipSuccess;
  for (int i = 0; i < count && r == hipSuccess; ++i)
    r = m_state->api.module_launch_kernel(
        function->handle(), config.grid.x, config.grid.y, config.grid.z, config.block.x,
        config.block.y, config.block.z, static_cast<unsigned>(config.shared_bytes), m_state->stream,
        arguments.pointers(), nullptr);
  if (r != hipSuccess) {
    if (is_kernel_fault(r))
      stream_failed(r, "hipModuleLaunchKernel", __FILE__, __LINE__);
    throw_error(r, "hipModuleLaunchKernel", ExitCode::device,
                fmt::format("launching kernel '{}' (grid {}, block {}, {} bytes shared)", fn.name(),
                            to_string(config.grid), to_string(config.block), config.shared_bytes),
                __FILE__, __LINE__);
  }
  m_state->last_kernel = fn.name();
}

void HipContext::synchronize(std::optional<double> timeout_s) {
  m_state->make_current();
  // Device printf arrives here.
  kit::DeviceOutputScope output(m_state->device_output, kit::CaptureFailure::raise);
  const auto wait = kit::wait_for_stream(*m_state, timeout_s);
  if (wait.failed())
    stream_failed(wait.result, wait.call_name().c_str(), wait.file, wait.line);
}

std::unique_ptr<Timer> HipContext::create_timer() {
  return std::make_unique<kit::EventTimer<ContextState>>(m_state);
}

std::string HipContext::compiler_id(const CompileOptions& options) const {
  const auto info = hiprtc::probe();
  return fmt::format("hiprtc {} {}", info.available ? info.version : "unavailable",
                     options.arch.empty() ? m_target : options.arch);
}

} // namespace gpurun::hip
