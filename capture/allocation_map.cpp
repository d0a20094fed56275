#include "capture/allocation_map.hpp"

#include <iterator>

namespace gpurun::capture {

std::string_view to_string(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::device:
    return "device";
  case MemoryKind::pool:
    return "pool";
  case MemoryKind::managed:
    return "managed";
  case MemoryKind::host:
    return "host";
  case MemoryKind::mapped:
    return "mapped";
  }
  return "unknown";
}

void AllocationMap::add(const Allocation& allocation) {
  if (allocation.size == 0 || allocation.base + allocation.size < allocation.base)
    return;
  // The first recorded allocation that may overlap: the last one starting at or before `base`.
  auto it = m_by_base.upper_bound(allocation.base);
  if (it != m_by_base.begin() && std::prev(it)->second.end() > allocation.base)
    --it;
  while (it != m_by_base.end() && it->first < allocation.end()) {
    m_bytes -= it->second.size;
    it = m_by_base.erase(it);
  }
  m_by_base.emplace(allocation.base, allocation);
  m_bytes += allocation.size;
}

bool AllocationMap::remove(std::uint64_t base) {
  const auto it = m_by_base.find(base);
  if (it == m_by_base.end())
    return false;
  m_bytes -= it->second.size;
  m_by_base.erase(it);
  return true;
}

std::optional<Allocation> AllocationMap::find(std::uint64_t address) const {
  auto it = m_by_base.upper_bound(address);
  if (it == m_by_base.begin())
    return std::nullopt;
  --it;
  if (address >= it->second.end())
    return std::nullopt;
  return it->second;
}

} // namespace gpurun::capture
