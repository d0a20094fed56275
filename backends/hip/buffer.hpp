#pragma once
#include "backends/hip/rocm_types.hpp"

#include <memory>

#include "backends/backend.hpp"
#include "backends/hip/context_state.hpp"

namespace gpurun::hip {

/// A hipMalloc allocation, freed with hipFree in the destructor.
class HipBuffer final : public Buffer {
public:
  /// Throws Error(device) naming the size when the device is out of memory.
  HipBuffer(std::shared_ptr<ContextState> state, std::size_t bytes);
  ~HipBuffer() override;
  HipBuffer(const HipBuffer&) = delete;
  HipBuffer& operator=(const HipBuffer&) = delete;

  [[nodiscard]] std::size_t size() const override { return m_size; }
  [[nodiscard]] DevicePtr address() const override {
    return static_cast<DevicePtr>(reinterpret_cast<std::uintptr_t>(m_ptr));
  }

private:
  std::shared_ptr<ContextState> m_state;
  void* m_ptr = nullptr;
  std::size_t m_size = 0;
};

} // namespace gpurun::hip
