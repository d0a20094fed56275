#include "backends/cuda/l2_clean.hpp"

#include <algorithm>

#include "backends/cuda/error.hpp"

namespace gpurun::cuda {

namespace {

constexpr std::size_t k_sector_bytes = 32;
constexpr unsigned k_threads = 256;

// PTX 6.0 for sm_50 loads on every driver gpurun supports; the driver compiles it for the device.
constexpr std::string_view k_clean_ptx = R"(.version 6.0
.target sm_50
.address_size 64

.visible .entry gpurun_l2_clean(.param .u64 buffer_param, .param .u64 sectors_param,
                                .param .u64 sink_param)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [buffer_param];
  ld.param.u64 %rd2, [sectors_param];
  ld.param.u64 %rd3, [sink_param];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd4, %rd4, %rd5;
  mul.wide.u32 %rd6, %r4, %r2;
  mov.u32 %r5, 0;
LOOP:
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
  shl.b64 %rd7, %rd4, 5;
  add.u64 %rd8, %rd1, %rd7;
  ld.global.cg.u32 %r6, [%rd8];
  xor.b32 %r5, %r5, %r6;
  add.u64 %rd4, %rd4, %rd6;
  bra LOOP;
DONE:
  setp.ne.u32 %p2, %r5, -1640531527;
  @%p2 bra END;
  st.global.u32 [%rd3], %r5;
END:
  ret;
}
)";

} // namespace

std::string_view l2_clean_ptx() {
  return k_clean_ptx;
}

L2Cleaner::L2Cleaner(std::shared_ptr<ContextState> state, std::size_t l2_bytes,
                     int multiprocessors)
    : m_state(std::move(state)) {
  m_state->make_current();
  const auto& api = m_state->api;
  const std::size_t bytes = 2 * std::max<std::size_t>(l2_bytes, k_sector_bytes);
  m_sectors = bytes / k_sector_bytes;
  // Enough blocks to keep every SM's memory pipeline busy; each thread strides over the rest.
  m_blocks = static_cast<unsigned>(std::max(multiprocessors, 1)) * 8;
  try {
    GPURUN_CU_CHECK("cuMemAlloc", api.mem_alloc(&m_buffer, bytes));
    GPURUN_CU_CHECK("cuMemAlloc", api.mem_alloc(&m_sink, sizeof(std::uint32_t)));
    GPURUN_CU_CHECK("cuModuleLoadDataEx",
                    api.module_load_data_ex(&m_module, k_clean_ptx.data(), 0, nullptr, nullptr));
    GPURUN_CU_CHECK("cuModuleGetFunction",
                    api.module_get_function(&m_function, m_module, "gpurun_l2_clean"));
  } catch (...) {
    release();
    throw;
  }
}

L2Cleaner::~L2Cleaner() {
  release();
}

void L2Cleaner::release() noexcept {
  if (m_state->abandoned)
    return;
  m_state->make_current_quietly();
  if (m_module != nullptr)
    (void)m_state->api.module_unload(m_module);
  if (m_sink != 0)
    (void)m_state->api.mem_free(m_sink);
  if (m_buffer != 0)
    (void)m_state->api.mem_free(m_buffer);
  m_module = nullptr;
  m_sink = m_buffer = 0;
}

void L2Cleaner::clean() {
  m_state->make_current();
  void* params[] = {&m_buffer, &m_sectors, &m_sink};
  GPURUN_CU_CHECK("cuLaunchKernel",
                  m_state->api.launch_kernel(m_function, m_blocks, 1, 1, k_threads, 1, 1, 0,
                                             m_state->stream, params, nullptr));
}

} // namespace gpurun::cuda
