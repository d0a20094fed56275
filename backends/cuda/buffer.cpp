#include "backends/cuda/buffer.hpp"

#include "backends/cuda/error.hpp"

namespace gpurun::cuda {

CudaBuffer::CudaBuffer(std::shared_ptr<ContextState> state, std::size_t bytes)
    : m_state(std::move(state)), m_size(bytes) {
  m_state->make_current();
  // cuMemAlloc rejects 0 bytes; an empty buffer still needs a distinct valid handle, so it takes
  // the smallest allocation.
  const std::size_t request = bytes == 0 ? 1 : bytes;
  GPURUN_CU_CHECK_MSG("cuMemAlloc", m_state->api.mem_alloc(&m_ptr, request), ExitCode::device,
                      "allocating {} bytes on the device", bytes);
}

CudaBuffer::~CudaBuffer() {
  if (m_ptr == 0 || m_state->abandoned)
    return;
  m_state->make_current_quietly();
  (void)m_state->api.mem_free(m_ptr);
}

} // namespace gpurun::cuda
