#pragma once
#include <cstddef>
#include <span>

namespace gpurun {

/// A zero-filled byte array for buffers' contents, host and emulated device alike. Large arrays
/// are mapped with their pages already populated: touching fresh pages one fault at a time is
/// what made copying a few MiB in and out cost more than an emulated kernel (about 11 µs a page
/// on virtual machines, against a quarter of a millisecond a MiB populated in one call).
class ZeroedBytes {
public:
  ZeroedBytes() = default;
  explicit ZeroedBytes(std::size_t size);
  ZeroedBytes(const ZeroedBytes& other);
  ZeroedBytes(ZeroedBytes&& other) noexcept;
  ZeroedBytes& operator=(ZeroedBytes other) noexcept;
  ~ZeroedBytes();

  [[nodiscard]] std::size_t size() const noexcept { return m_size; }
  [[nodiscard]] std::byte* data() noexcept { return m_data; }
  [[nodiscard]] const std::byte* data() const noexcept { return m_data; }
  [[nodiscard]] std::span<std::byte> span() noexcept { return {m_data, m_size}; }
  [[nodiscard]] std::span<const std::byte> span() const noexcept { return {m_data, m_size}; }

  /// From this size on, the pages are mapped populated instead of coming from the heap.
  static constexpr std::size_t kMappedFrom = std::size_t{256} << 10;

private:
  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
  bool m_mapped = false;
};

} // namespace gpurun
