#pragma once
// An allocation in the emulator's device memory; released when the buffer goes.
#include <memory>

#include "backends/backend.hpp"
#include "backends/cpu/emu/memory.hpp"

namespace gpurun::cpu {

class CpuBuffer final : public Buffer {
public:
  CpuBuffer(std::shared_ptr<emu::DeviceMemory> memory, std::size_t size);
  ~CpuBuffer() override;
  CpuBuffer(const CpuBuffer&) = delete;
  CpuBuffer& operator=(const CpuBuffer&) = delete;
  [[nodiscard]] std::size_t size() const override { return m_size; }
  [[nodiscard]] DevicePtr address() const override { return m_address; }

private:
  std::shared_ptr<emu::DeviceMemory> m_memory;
  std::size_t m_size;
  DevicePtr m_address;
};

} // namespace gpurun::cpu
