#pragma once
#include "backends/cuda/driver_types.hpp"

#include <memory>

#include "backends/backend.hpp"
#include "backends/cuda/context_state.hpp"

namespace gpurun::cuda {

/// A cuMemAlloc allocation, freed with cuMemFree in the destructor.
class CudaBuffer final : public Buffer {
public:
  /// Throws Error(device) naming the size when the device is out of memory.
  CudaBuffer(std::shared_ptr<ContextState> state, std::size_t bytes);
  ~CudaBuffer() override;
  CudaBuffer(const CudaBuffer&) = delete;
  CudaBuffer& operator=(const CudaBuffer&) = delete;

  [[nodiscard]] std::size_t size() const override { return m_size; }
  [[nodiscard]] DevicePtr address() const override { return m_ptr; }

private:
  std::shared_ptr<ContextState> m_state;
  CUdeviceptr m_ptr = 0;
  std::size_t m_size = 0;
};

} // namespace gpurun::cuda
