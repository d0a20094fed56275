#include "backends/hip/buffer.hpp"

#include "backends/hip/error.hpp"

namespace gpurun::hip {

HipBuffer::HipBuffer(std::shared_ptr<ContextState> state, std::size_t bytes)
    : m_state(std::move(state)), m_size(bytes) {
  m_state->make_current();
  // An empty buffer still needs a distinct valid address: it takes the smallest allocation.
  const std::size_t request = bytes == 0 ? 1 : bytes;
  GPURUN_HIP_CHECK_MSG("hipMalloc", m_state->api.malloc(&m_ptr, request), ExitCode::device,
                       "allocating {} bytes on the device", bytes);
}

HipBuffer::~HipBuffer() {
  if (m_ptr == nullptr || m_state->abandoned)
    return;
  m_state->make_current_quietly();
  (void)m_state->api.free(m_ptr);
}

} // namespace gpurun::hip
