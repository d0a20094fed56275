#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "base/dtype.hpp"
#include "base/zeroed_bytes.hpp"

namespace gpurun {

/// A typed, shaped, C-ordered array in host memory: what fills produce, what is copied to and
/// from the device, what .npy files hold. Copies share their bytes until one of them is written
/// through (the non-const accessors): a run's report keeps each buffer's contents before the
/// launch without copying megabytes that nothing changes.
class HostBuffer {
public:
  HostBuffer() = default;
  HostBuffer(DType dtype, std::vector<std::size_t> shape)
      : m_dtype(dtype), m_shape(std::move(shape)),
        m_bytes(std::make_shared<ZeroedBytes>(element_count() * dtype_size(m_dtype))) {}

  [[nodiscard]] DType dtype() const noexcept { return m_dtype; }
  [[nodiscard]] const std::vector<std::size_t>& shape() const noexcept { return m_shape; }
  [[nodiscard]] std::size_t element_count() const noexcept {
    std::size_t n = 1;
    for (auto d : m_shape)
      n *= d;
    return n;
  }
  [[nodiscard]] std::size_t size_bytes() const noexcept { return view().size(); }
  [[nodiscard]] const std::byte* data() const noexcept { return view().data(); }
  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return view().span(); }
  [[nodiscard]] const std::byte* element(std::size_t i) const noexcept {
    return view().data() + i * dtype_size(m_dtype);
  }
  // Writing: the bytes become this buffer's own first (a copy when they are shared).
  [[nodiscard]] std::byte* data() { return own().data(); }
  [[nodiscard]] std::span<std::byte> bytes() { return own().span(); }
  [[nodiscard]] std::byte* element(std::size_t i) { return own().data() + i * dtype_size(m_dtype); }
  /// Whether this buffer and `other` share their bytes (a test's question).
  [[nodiscard]] bool shares_bytes_with(const HostBuffer& other) const noexcept {
    return m_bytes != nullptr && m_bytes == other.m_bytes;
  }

private:
  [[nodiscard]] const ZeroedBytes& view() const noexcept {
    static const ZeroedBytes empty;
    return m_bytes ? *m_bytes : empty;
  }
  ZeroedBytes& own() {
    if (!m_bytes)
      m_bytes = std::make_shared<ZeroedBytes>();
    else if (m_bytes.use_count() > 1)
      m_bytes = std::make_shared<ZeroedBytes>(*m_bytes);
    return *m_bytes;
  }

  DType m_dtype = DType::u8;
  std::vector<std::size_t> m_shape;
  std::shared_ptr<ZeroedBytes> m_bytes; ///< null: empty
};

} // namespace gpurun
