#include "backends/opencl/context.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "backends/opencl/error.hpp"
#include "backends/opencl/fault_guard.hpp"
#include "backends/opencl/info.hpp"
#include "backends/opencl/program.hpp"

namespace gpurun::opencl {
namespace {

// A setting of the run that OpenCL has no counterpart of: refused, naming the flag.
void refuse_settings(const DeviceSettings& s) {
  const char* flag = s.memcheck     ? "--memcheck"
                     : s.racecheck  ? "--racecheck"
                     : s.initcheck  ? "--initcheck"
                     : s.synccheck  ? "--synccheck"
                     : s.leak_check ? "--leak-check"
                                    : nullptr;
  if (flag != nullptr)
    throw usage_error(fmt::format("{}: the opencl backend has no sanitizers (the cpu backend "
                                  "checks CUDA kernels; compute-sanitizer checks them on a GPU)",
                                  flag));
  if (s.stats)
    throw usage_error("--stats: the opencl backend does not count instructions (the cpu backend "
                      "does, for CUDA kernels)");
  if (s.printf_buffer)
    throw usage_error("--printf-buffer: OpenCL platforms size their printf buffer themselves");
  if (s.heap_bytes)
    throw usage_error("--heap: OpenCL C has no device malloc");
}

const OpenclBuffer& cl_buffer(const Buffer& b) {
  return static_cast<const OpenclBuffer&>(b);
}

cl_ulong profile(const ContextState& state, cl_event event, cl_profiling_info which) {
  cl_ulong value = 0;
  GPURUN_CL_CHECK("clGetEventProfilingInfo",
                  state.api.get_event_profiling_info(event, which, sizeof value, &value, nullptr));
  return value;
}

// The kernel time: from the start of the first kernel the timer saw to the end of the last, by
// the queue's profiling events; without kernels, between the two markers.
class OpenclTimer final : public Timer {
public:
  explicit OpenclTimer(std::shared_ptr<ContextState> state) : m_state(std::move(state)) {}
  ~OpenclTimer() override {
    if (m_state->recording == &m_kernels)
      m_state->recording = nullptr;
    release();
  }
  void start() override {
    release();
    m_start = marker();
    m_state->recording = &m_kernels;
  }
  void stop() override {
    if (m_state->recording == &m_kernels)
      m_state->recording = nullptr;
    m_stop = marker();
  }
  double elapsed_ms() override {
    if (m_start == nullptr || m_stop == nullptr)
      throw Error(ExitCode::device, "an OpenCL timer was read before it was started and stopped");
    GPURUN_CL_CHECK("clWaitForEvents", m_state->api.wait_for_events(1, &m_stop));
    if (m_kernels.empty())
      return static_cast<double>(profile(*m_state, m_stop, CL_PROFILING_COMMAND_END) -
                                 profile(*m_state, m_start, CL_PROFILING_COMMAND_END)) /
             1e6;
    const cl_ulong first = profile(*m_state, m_kernels.front(), CL_PROFILING_COMMAND_START);
    const cl_ulong last = profile(*m_state, m_kernels.back(), CL_PROFILING_COMMAND_END);
    return last > first ? static_cast<double>(last - first) / 1e6 : 0.0;
  }

private:
  cl_event marker() {
    cl_event event = nullptr;
    GPURUN_CL_CHECK("clEnqueueMarkerWithWaitList",
                    m_state->api.enqueue_marker_with_wait_list(m_state->queue, 0, nullptr, &event));
    return event;
  }
  void release() {
    if (m_state->abandoned)
      return;
    for (cl_event e : m_kernels)
      m_state->api.release_event(e);
    m_kernels.clear();
    for (cl_event* e : {&m_start, &m_stop})
      if (*e != nullptr) {
        m_state->api.release_event(*e);
        *e = nullptr;
      }
  }

  std::shared_ptr<ContextState> m_state;
  std::vector<cl_event> m_kernels;
  cl_event m_start = nullptr;
  cl_event m_stop = nullptr;
};

} // namespace

ContextState::ContextState(const Api& api_, cl_platform_id platform_, cl_device_id device_)
    : api(api_), platform(platform_), device(device_) {
  cl_int status = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                         reinterpret_cast<cl_context_properties>(platform), 0};
  context = api.create_context(props, 1, &device, nullptr, nullptr, &status);
  GPURUN_CL_CHECK("clCreateContext", status);
  queue = api.create_command_queue(context, device, CL_QUEUE_PROFILING_ENABLE, &status);
  if (status != CL_SUCCESS) {
    api.release_context(context);
    GPURUN_CL_CHECK("clCreateCommandQueue", status);
  }
}

ContextState::~ContextState() {
  printf_capture.reset();
  if (abandoned)
    return;
  api.finish(queue);
  api.release_command_queue(queue);
  api.release_context(context);
}

OpenclBuffer::OpenclBuffer(std::shared_ptr<ContextState> state, std::size_t bytes)
    : m_state(std::move(state)), m_size(bytes) {
  cl_int status = CL_SUCCESS;
  m_mem = m_state->api.create_buffer(m_state->context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1),
                                     nullptr, &status);
  GPURUN_CL_CHECK_MSG("clCreateBuffer", status, ExitCode::device,
                      "allocating {} bytes on the OpenCL device", bytes);
}

OpenclBuffer::~OpenclBuffer() {
  if (!m_state->abandoned)
    m_state->api.release_mem_object(m_mem);
}

OpenclContext::OpenclContext(const Api& api, cl_platform_id platform, cl_device_id device,
                             const DeviceProperties& properties, const ContextOptions& options)
    : m_properties(properties) {
  refuse_settings(options.settings);
  m_state = std::make_shared<ContextState>(api, platform, device);
  m_state->device_output = options.device_output;
  m_runs_in_process =
      (info_value<cl_device_type>(device_info(api, device), CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
}

std::unique_ptr<Buffer> OpenclContext::allocate(std::size_t bytes) {
  return std::make_unique<OpenclBuffer>(m_state, bytes);
}

void OpenclContext::copy_to_device(Buffer& dst, std::span<const std::byte> src) {
  const std::size_t n = std::min(src.size(), dst.size());
  if (n == 0)
    return;
  GPURUN_CL_CHECK("clEnqueueWriteBuffer",
                  m_state->api.enqueue_write_buffer(m_state->queue, cl_buffer(dst).mem(), CL_TRUE,
                                                    0, n, src.data(), 0, nullptr, nullptr));
}

void OpenclContext::copy_to_host(std::span<std::byte> dst, const Buffer& src) {
  const std::size_t n = std::min(dst.size(), src.size());
  if (n == 0)
    return;
  GPURUN_CL_CHECK("clEnqueueReadBuffer",
                  m_state->api.enqueue_read_buffer(m_state->queue, cl_buffer(src).mem(), CL_TRUE, 0,
                                                   n, dst.data(), 0, nullptr, nullptr));
}

void OpenclContext::copy_device(Buffer& dst, const Buffer& src) {
  const std::size_t n = std::min(dst.size(), src.size());
  if (n == 0)
    return;
  GPURUN_CL_CHECK("clEnqueueCopyBuffer",
                  m_state->api.enqueue_copy_buffer(m_state->queue, cl_buffer(src).mem(),
                                                   cl_buffer(dst).mem(), 0, 0, n, 0, nullptr,
                                                   nullptr));
}

void OpenclContext::memset(Buffer& dst, std::uint8_t value) {
  if (dst.size() == 0)
    return;
  GPURUN_CL_CHECK("clEnqueueFillBuffer",
                  m_state->api.enqueue_fill_buffer(m_state->queue, cl_buffer(dst).mem(), &value, 1,
                                                   0, dst.size(), 0, nullptr, nullptr));
}

void OpenclContext::copy_to_symbol(const GlobalSymbol& /*dst*/, std::span<const std::byte> /*src*/) {
  throw usage_error("--global: OpenCL C program-scope variables cannot be reached from the host; "
                    "pass the data as a __global or __constant buffer");
}

void OpenclContext::copy_from_symbol(std::span<std::byte> /*dst*/, const GlobalSymbol& /*src*/) {
  throw usage_error("--global: OpenCL C program-scope variables cannot be reached from the host");
}

CompileResult OpenclContext::compile(const KernelSource& source, const CompileOptions& options) {
  if (source.language != Language::opencl)
    throw usage_error(fmt::format("{}: the opencl backend builds OpenCL C (.cl) only",
                                  source.path.string()));
  return compile_program(*m_state, source, options);
}

std::unique_ptr<Module> OpenclContext::load(const CompileResult& compiled) {
  return load_program(m_state, compiled);
}

std::string OpenclContext::compiler_id(const CompileOptions& /*options*/) const {
  return opencl::compiler_id(*m_state);
}

void OpenclContext::set_args(Function& fn, const LaunchConfig& config, const ArgPack& args) {
  auto& function = static_cast<OpenclFunction&>(fn);
  const Api& api = m_state->api;
  if (config.shared_bytes != 0)
    throw usage_error("--shared: OpenCL kernels get local memory through __local pointer "
                      "parameters (NAME=local:BYTES)");
  const auto& params = function.params();
  if (args.values.size() != params.size())
    throw usage_error(fmt::format("kernel {} takes {} arguments; got {}", function.name(),
                                  params.size(), args.values.size()));
  for (std::size_t i = 0; i < args.values.size(); ++i) {
    const KernelArg& arg = args.values[i];
    const std::string& declared = params[i].declaration;
    const std::string label = declared.empty() ? fmt::format("parameter {}", i) : "'" + declared + "'";
    cl_int status = CL_SUCCESS;
    const auto index = static_cast<cl_uint>(i);
    if (function.is_local(i) != arg.local_bytes.has_value())
      throw usage_error(fmt::format(
          "argument {} of kernel {}: {} takes {}", i, function.name(), label,
          function.is_local(i) ? "a size of local memory (NAME=local:BYTES)" : "no local memory"));
    if (arg.local_bytes) {
      status = api.set_kernel_arg(function.kernel(), index, std::max<std::size_t>(*arg.local_bytes, 1),
                                  nullptr);
    } else if (arg.buffer != nullptr) {
      const cl_mem mem = cl_buffer(*arg.buffer).mem();
      status = api.set_kernel_arg(function.kernel(), index, sizeof mem, &mem);
    } else {
      if (params[i].declaration.find('*') != std::string::npos)
        throw usage_error(fmt::format("argument {} of kernel {}: {} takes a buffer; OpenCL kernels "
                                      "are given buffers, not addresses",
                                      i, function.name(), label));
      status = api.set_kernel_arg(function.kernel(), index, arg.bytes.size(), arg.bytes.data());
    }
    if (status == CL_INVALID_ARG_SIZE)
      throw usage_error(fmt::format("argument {} of kernel {}: {} bytes for {}, which the kernel "
                                    "takes as {} bytes",
                                    i, function.name(), arg.bytes.size(), label, params[i].size));
    GPURUN_CL_CHECK_MSG("clSetKernelArg", status, ExitCode::device,
                        "setting argument {} ({}) of kernel {}", i, label, function.name());
  }
}

void OpenclContext::enqueue(Function& fn, const LaunchConfig& config) {
  auto& function = static_cast<OpenclFunction&>(fn);
  const Dim3& g = config.grid;
  const Dim3& b = config.block;
  const cl_uint dims = g.z > 1 || b.z > 1 ? 3 : g.y > 1 || b.y > 1 ? 2 : 1;
  const std::size_t global[3] = {std::size_t{g.x} * b.x, std::size_t{g.y} * b.y,
                                 std::size_t{g.z} * b.z};
  const std::size_t local[3] = {b.x, b.y, b.z};
  // PoCL's scheduler counts work-groups in 32 bits (an assertion, or SIGILL, past that).
  constexpr std::uint64_t k_max_groups_in_process = (std::uint64_t{1} << 31) - 1;
  const std::uint64_t groups = std::uint64_t{g.x} * g.y * g.z; // < 2^96: checked below
  const bool overflows = g.x != 0 && g.y != 0 && groups / g.x / g.y != g.z;
  if (m_runs_in_process && (groups > k_max_groups_in_process || overflows))
    throw usage_error(fmt::format("--grid {}×{}×{}: {} work-groups; an OpenCL platform on the CPU "
                                  "runs at most {} in one launch",
                                  g.x, g.y, g.z, groups, k_max_groups_in_process));
  if (m_state->device_output && !m_state->printf_capture)
    m_state->printf_capture.emplace(1);
  if (m_runs_in_process)
    guard_kernel(function.name());
  m_state->last_kernel = function.name();
  cl_event event = nullptr;
  const cl_int status =
      m_state->api.enqueue_nd_range_kernel(m_state->queue, function.kernel(), dims, nullptr, global,
                                           local, 0, nullptr, m_state->recording ? &event : nullptr);
  if (status != CL_SUCCESS) {
    unguard_kernel();
    m_state->printf_capture.reset(); // standard output is the report's again
  }
  GPURUN_CL_CHECK_MSG("clEnqueueNDRangeKernel", status,
                      status == CL_INVALID_WORK_GROUP_SIZE || status == CL_INVALID_WORK_ITEM_SIZE
                          ? ExitCode::usage
                          : ExitCode::device,
                      "launching kernel {} (global {}×{}×{}, local {}×{}×{})", function.name(),
                      global[0], global[1], global[2], local[0], local[1], local[2]);
  if (m_state->recording)
    m_state->recording->push_back(event);
}

void OpenclContext::launch(Function& fn, const LaunchConfig& config, const ArgPack& args) {
  set_args(fn, config, args);
  enqueue(fn, config);
}

void OpenclContext::launch_repeated(Function& fn, const LaunchConfig& config, const ArgPack& args,
                                    int count) {
  set_args(fn, config, args);
  for (int i = 0; i < count; ++i)
    enqueue(fn, config);
}

void OpenclContext::synchronize(std::optional<double> timeout_s) {
  ContextState& s = *m_state;
  const Api& api = s.api;
  auto hand_over_printf = [&] {
    if (s.printf_capture) {
      std::string text = s.printf_capture->finish();
      s.printf_capture.reset();
      if (!text.empty())
        s.device_output(text);
    }
  };
  auto fail = [&](cl_int status, const char* call) {
    unguard_kernel();
    hand_over_printf();
    throw_error(status, call, ExitCode::device,
                fmt::format("kernel '{}' failed on the OpenCL device ({})",
                            s.last_kernel.empty() ? std::string("?") : s.last_kernel, call),
                __FILE__, __LINE__);
  };
  if (!timeout_s || !(*timeout_s <= k_max_watchdog_s)) {
    if (const cl_int status = api.finish(s.queue); status != CL_SUCCESS)
      fail(status, "clFinish");
  } else {
    cl_event done = nullptr;
    if (const cl_int status = api.enqueue_marker_with_wait_list(s.queue, 0, nullptr, &done);
        status != CL_SUCCESS)
      fail(status, "clEnqueueMarkerWithWaitList");
    (void)api.flush(s.queue);
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::duration<double>(*timeout_s);
    auto pause = std::chrono::microseconds(20);
    for (;;) {
      cl_int state = CL_QUEUED;
      const cl_int status = api.get_event_info(done, CL_EVENT_COMMAND_EXECUTION_STATUS,
                                               sizeof state, &state, nullptr);
      if (status != CL_SUCCESS) {
        api.release_event(done);
        fail(status, "clGetEventInfo");
      }
      if (state == CL_COMPLETE)
        break;
      if (state < 0) {
        api.release_event(done);
        fail(state, "clEnqueueNDRangeKernel");
      }
      if (clock::now() >= deadline) {
        // The kernel keeps running; nothing waits for it from now on (process exit ends it).
        s.abandoned = true;
        s.printf_capture.reset();
        throw Error(ExitCode::timeout,
                    fmt::format("kernel '{}' did not finish within {:g} s (--timeout)",
                                s.last_kernel.empty() ? std::string("?") : s.last_kernel,
                                *timeout_s));
      }
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(1000));
    }
    api.release_event(done);
    if (const cl_int status = api.finish(s.queue); status != CL_SUCCESS)
      fail(status, "clFinish");
  }
  unguard_kernel();
  hand_over_printf();
}

std::unique_ptr<Timer> OpenclContext::create_timer() {
  return std::make_unique<OpenclTimer>(m_state);
}

} // namespace gpurun::opencl
