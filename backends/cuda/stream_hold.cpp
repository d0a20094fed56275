#include "backends/cuda/stream_hold.hpp"

#include <atomic>
#include <cmath>

#include "backends/cuda/error.hpp"

namespace gpurun::cuda {

namespace {

// PTX 6.0 for sm_50 loads on every driver gpurun supports; the driver compiles it for the device.
constexpr std::string_view k_hold_ptx = R"(.version 6.0
.target sm_50
.address_size 64

.visible .entry gpurun_hold_stream(.param .u64 flag_param, .param .u64 limit_param)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [flag_param];
  ld.param.u64 %rd2, [limit_param];
  mov.u64 %rd3, %globaltimer;
SPIN:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd4, %globaltimer;
  sub.s64 %rd5, %rd4, %rd3;
  setp.lt.u64 %p2, %rd5, %rd2;
  @%p2 bra SPIN;
DONE:
  ret;
}
)";

class CudaStreamHold final : public StreamHold {
public:
  explicit CudaStreamHold(std::uint32_t* flag) : m_flag(flag) {}
  ~CudaStreamHold() override { CudaStreamHold::release(); }
  CudaStreamHold(const CudaStreamHold&) = delete;
  CudaStreamHold& operator=(const CudaStreamHold&) = delete;

  void release() override {
    if (m_released)
      return;
    // The kernel reads the flag over PCIe/NVLink with volatile loads; the store must not be
    // kept in a register or reordered before the launches enqueued while holding.
    std::atomic_ref<std::uint32_t>(*m_flag).store(1, std::memory_order_release);
    m_released = true;
  }

private:
  std::uint32_t* m_flag;
  bool m_released = false;
};

} // namespace

std::string_view hold_stream_ptx() {
  return k_hold_ptx;
}

StreamGate::StreamGate(std::shared_ptr<ContextState> state) : m_state(std::move(state)) {
  m_state->make_current();
  const auto& api = m_state->api;
  void* host = nullptr;
  GPURUN_CU_CHECK("cuMemHostAlloc",
                  api.mem_host_alloc(&host, sizeof(std::uint32_t),
                                     CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP));
  m_flag = static_cast<std::uint32_t*>(host);
  *m_flag = 1;
  try {
    GPURUN_CU_CHECK("cuMemHostGetDevicePointer",
                    api.mem_host_get_device_pointer(&m_flag_device, host, 0));
    GPURUN_CU_CHECK("cuModuleLoadDataEx",
                    api.module_load_data_ex(&m_module, k_hold_ptx.data(), 0, nullptr, nullptr));
    GPURUN_CU_CHECK("cuModuleGetFunction",
                    api.module_get_function(&m_function, m_module, "gpurun_hold_stream"));
  } catch (...) {
    if (m_module != nullptr)
      (void)api.module_unload(m_module);
    (void)api.mem_free_host(host);
    throw;
  }
}

StreamGate::~StreamGate() {
  if (m_state->abandoned)
    return;
  m_state->make_current_quietly();
  (void)m_state->api.module_unload(m_module);
  (void)m_state->api.mem_free_host(m_flag);
}

std::unique_ptr<StreamHold> StreamGate::hold(double limit_s) {
  m_state->make_current();
  std::atomic_ref<std::uint32_t>(*m_flag).store(0, std::memory_order_release);
  auto hold = std::make_unique<CudaStreamHold>(m_flag);
  auto limit_ns = static_cast<std::uint64_t>(std::llround(std::max(limit_s, 0.0) * 1e9));
  void* params[] = {&m_flag_device, &limit_ns};
  GPURUN_CU_CHECK("cuLaunchKernel", m_state->api.launch_kernel(m_function, 1, 1, 1, 1, 1, 1, 0,
                                                               m_state->stream, params, nullptr));
  return hold;
}

} // namespace gpurun::cuda
