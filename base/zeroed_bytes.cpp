#include "base/zeroed_bytes.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace gpurun {

ZeroedBytes::ZeroedBytes(std::size_t size) : m_size(size) {
  if (size >= kMappedFrom) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    m_data = static_cast<std::byte*>(p);
    m_mapped = true;
    return;
  }
  // Never null, so that an empty array still has an address of its own.
  m_data = static_cast<std::byte*>(std::calloc(size == 0 ? 1 : size, 1));
  if (m_data == nullptr)
    throw std::bad_alloc();
}

ZeroedBytes::ZeroedBytes(const ZeroedBytes& other) : ZeroedBytes(other.m_size) {
  if (m_size != 0)
    std::memcpy(m_data, other.m_data, m_size);
}

ZeroedBytes::ZeroedBytes(ZeroedBytes&& other) noexcept
    : m_data(std::exchange(other.m_data, nullptr)), m_size(std::exchange(other.m_size, 0)),
      m_mapped(std::exchange(other.m_mapped, false)) {}

ZeroedBytes& ZeroedBytes::operator=(ZeroedBytes other) noexcept {
  std::swap(m_data, other.m_data);
  std::swap(m_size, other.m_size);
  std::swap(m_mapped, other.m_mapped);
  return *this;
}

ZeroedBytes::~ZeroedBytes() {
  if (m_mapped)
    ::munmap(m_data, m_size);
  else
    std::free(m_data);
}

} // namespace gpurun
