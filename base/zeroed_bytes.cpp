#include "base/zeroed_bytes.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace gpurun {

namespace {

// A mapping of `length` bytes (a multiple of kHugePage) at a kHugePage boundary, asking for huge
// pages; nullptr when it cannot be had.
std::byte* map_huge(std::size_t length) {
  constexpr std::size_t align = ZeroedBytes::kHugePage;
  void* raw = ::mmap(nullptr, length + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  if (raw == MAP_FAILED)
    return nullptr;
  auto* base = static_cast<std::byte*>(raw);
  const auto at = reinterpret_cast<std::uintptr_t>(base);
  std::byte* aligned = base + ((align - at % align) % align);
  // Give back what lies outside the aligned range.
  if (aligned != base)
    ::munmap(base, static_cast<std::size_t>(aligned - base));
  if (std::byte* end = aligned + length; end != base + length + align)
    ::munmap(end, static_cast<std::size_t>(base + length + align - end));
  ::madvise(aligned, length, MADV_HUGEPAGE); // a hint: refused where huge pages are off
#ifdef MADV_POPULATE_WRITE
  ::madvise(aligned, length, MADV_POPULATE_WRITE); // kernels before 5.14 fault on first use
#endif
  return aligned;
}

} // namespace

ZeroedBytes::ZeroedBytes(std::size_t size) : m_size(size) {
  if (size >= kHugeFrom) {
    const std::size_t length = (size + kHugePage - 1) / kHugePage * kHugePage;
    if (std::byte* p = map_huge(length)) {
      m_data = p;
      m_mapped = length;
      return;
    }
  }
  if (size >= kMappedFrom) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
      throw std::bad_alloc();
    m_data = static_cast<std::byte*>(p);
    m_mapped = size;
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
      m_mapped(std::exchange(other.m_mapped, 0)) {}

ZeroedBytes& ZeroedBytes::operator=(ZeroedBytes other) noexcept {
  std::swap(m_data, other.m_data);
  std::swap(m_size, other.m_size);
  std::swap(m_mapped, other.m_mapped);
  return *this;
}

ZeroedBytes::~ZeroedBytes() {
  if (m_mapped != 0)
    ::munmap(m_data, m_mapped);
  else
    std::free(m_data);
}

} // namespace gpurun
