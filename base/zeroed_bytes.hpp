#pragma once
#include <cstddef>
#include <span>

namespace gpurun {

/// A zero-filled byte array for buffers' contents, host and emulated device alike. Large arrays
/// are mapped with their pages already populated: touching fresh pages one fault at a time is
/// what made copying a few MiB in and out cost more than an emulated kernel (about 11 µs a page
/// on virtual machines). From 1 MiB on they are also asked for transparent huge pages (2 MiB
/// aligned, length rounded up), where the system allows them for mappings that ask: a virtual
/// machine's host then maps 2 MiB per fault too, and writing 4 MiB fresh took 0.3 ms instead
/// of 5–6 ms.
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
  /// From this size on, the mapping is 2 MiB aligned and asks for huge pages.
  static constexpr std::size_t kHugeFrom = std::size_t{1} << 20;
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

private:
  std::byte* m_data = nullptr;
  std::size_t m_size = 0;
  std::size_t m_mapped = 0; // the mapping's length; 0 when the bytes come from the heap
};

} // namespace gpurun
