#pragma once
// Little-endian reads from a binary image (ELF code objects, cubins), each checked against the
// input: a read past the end throws `Error` (an exception type taking a message) naming what was
// being read.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include <fmt/format.h>

namespace gpurun::kit {

template <class Error> class ByteReader {
public:
  explicit ByteReader(std::span<const std::byte> bytes) : m_bytes(bytes) {}
  [[nodiscard]] std::size_t size() const { return m_bytes.size(); }

  template <class T> [[nodiscard]] T read(std::uint64_t offset, const char* what) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < sizeof(T))
      throw Error(fmt::format("{} at offset {} lies past the end ({} bytes)", what, offset,
                              m_bytes.size()));
    T value{};
    std::memcpy(&value, m_bytes.data() + offset, sizeof(T));
    return value;
  }
  [[nodiscard]] std::span<const std::byte> slice(std::uint64_t offset, std::uint64_t size,
                                                 const char* what) const {
    if (offset > m_bytes.size() || m_bytes.size() - offset < size)
      throw Error(fmt::format("{} ({} bytes at offset {}) lies past the end ({} bytes)", what,
                              size, offset, m_bytes.size()));
    return m_bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(size));
  }
  /// The NUL-terminated string at `offset` (the NUL must lie inside the input).
  [[nodiscard]] std::string string_at(std::uint64_t offset, const char* what) const {
    if (offset >= m_bytes.size())
      throw Error(fmt::format("{} at offset {} lies past the end ({} bytes)", what, offset,
                              m_bytes.size()));
    const auto* begin = reinterpret_cast<const char*>(m_bytes.data()) + offset;
    const auto* end = static_cast<const char*>(std::memchr(begin, 0, m_bytes.size() - offset));
    if (end == nullptr)
      throw Error(fmt::format("{} at offset {} is not terminated", what, offset));
    return std::string(begin, end);
  }

private:
  std::span<const std::byte> m_bytes;
};

} // namespace gpurun::kit
