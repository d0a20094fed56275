#include "backends/cpu/buffer.hpp"

namespace gpurun::cpu {

CpuBuffer::CpuBuffer(std::shared_ptr<emu::DeviceMemory> memory, std::size_t size)
    : m_memory(std::move(memory)), m_size(size), m_address(m_memory->allocate(size)) {}

CpuBuffer::~CpuBuffer() {
  m_memory->release(m_address);
}

} // namespace gpurun::cpu
