#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/dtype.hpp"
#include "base/zeroed_bytes.hpp"

namespace gpurun {

/// A typed, shaped, C-ordered array in host memory: what fills produce, what is copied to and
/// from the device, what .npy files hold.
class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(DType dtype, std::vector<std::size_t> shape)
      : m_dtype(dtype), m_shape(std::move(shape)), m_bytes(element_count() * dtype_size(m_dtype)) {}

  [[nodiscard]] DType dtype() const noexcept { return m_dtype; }
  [[nodiscard]] const std::vector<std::size_t>& shape() const noexcept { return m_shape; }
  [[nodiscard]] std::size_t element_count() const noexcept {
    std::size_t n = 1;
    for (auto d : m_shape)
      n *= d;
    return n;
  }
  [[nodiscard]] std::size_t size_bytes() const noexcept { return m_bytes.size(); }
  [[nodiscard]] std::byte* data() noexcept { return m_bytes.data(); }
  [[nodiscard]] const std::byte* data() const noexcept { return m_bytes.data(); }
  [[nodiscard]] std::span<std::byte> bytes() noexcept { return m_bytes.span(); }
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return m_bytes.span(); }
  [[nodiscard]] const std::byte* element(std::size_t i) const noexcept {
    return m_bytes.data() + i * dtype_size(m_dtype);
  }
  [[nodiscard]] std::byte* element(std::size_t i) noexcept {
    return m_bytes.data() + i * dtype_size(m_dtype);
  }

private:
  DType m_dtype = DType::u8;
  std::vector<std::size_t> m_shape;
  ZeroedBytes m_bytes;
};

} // namespace gpurun
