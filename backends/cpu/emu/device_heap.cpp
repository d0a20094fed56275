#include "backends/cpu/emu/device_heap.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace gpurun::emu {

namespace {
constexpr std::size_t kAlign = 16;
}

DeviceHeap::DeviceHeap(std::uint64_t base, std::size_t bytes)
    : m_base(base), m_bytes(bytes), m_top(base) {}

std::uint64_t DeviceHeap::allocate(std::size_t bytes) {
  const std::size_t take = (std::max<std::size_t>(bytes, 1) + kAlign - 1) / kAlign * kAlign;
  std::lock_guard lock(m_mutex);
  std::uint64_t address = 0;
  if (m_base + m_bytes - m_top >= take) {
    // Never-used space first, so a freed block is not handed out again at once (a read after
    // free then still finds it freed).
    address = m_top;
    m_top += take;
  } else {
    auto it = std::find_if(m_free.begin(), m_free.end(),
                           [&](const auto& range) { return range.second >= take; });
    if (it == m_free.end())
      return 0;
    address = it->first;
    const std::size_t left = it->second - take;
    m_free.erase(it);
    if (left)
      m_free.emplace(address + take, left);
    // A block handed out again is no longer "freed": drop the freed records it overlaps.
    for (auto f = m_freed.lower_bound(address); f != m_freed.end() && f->first < address + take;)
      f = m_freed.erase(f);
    if (auto f = m_freed.lower_bound(address); f != m_freed.begin()) {
      --f;
      if (f->first + f->second > address)
        m_freed.erase(f);
    }
  }
  m_live.emplace(address, bytes);
  m_spans.emplace(address, take);
  return address;
}

DeviceHeap::FreeResult DeviceHeap::release(std::uint64_t address) {
  if (address == 0)
    return FreeResult::null;
  std::lock_guard lock(m_mutex);
  auto it = m_live.find(address);
  if (it == m_live.end())
    return m_freed.count(address) ? FreeResult::double_free : FreeResult::not_a_block;
  m_freed.emplace(address, it->second);
  m_live.erase(it);
  auto span = m_spans.find(address);
  std::uint64_t start = address;
  std::size_t size = span->second;
  m_spans.erase(span);
  // Coalesce with the free neighbours.
  auto next = m_free.lower_bound(start);
  if (next != m_free.end() && next->first == start + size) {
    size += next->second;
    next = m_free.erase(next);
  }
  if (next != m_free.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      size += prev->second;
      m_free.erase(prev);
    }
  }
  m_free.emplace(start, size);
  return FreeResult::ok;
}

std::optional<std::string> DeviceHeap::check_access(std::uint64_t address,
                                                    std::size_t bytes) const {
  std::lock_guard lock(m_mutex);
  auto it = m_live.upper_bound(address);
  if (it != m_live.begin()) {
    --it;
    if (address >= it->first && address - it->first + bytes <= it->second)
      return std::nullopt;
    if (address >= it->first && address - it->first < it->second)
      return fmt::format("offset {} of a {}-byte device heap block at {:#x} (the access runs past "
                         "its end)",
                         address - it->first, it->second, it->first);
    if (address >= it->first && address - it->first < m_spans.at(it->first) + kAlign)
      return fmt::format("{} bytes past the end of a {}-byte device heap block at {:#x}",
                         address - it->first - it->second, it->second, it->first);
  }
  auto f = m_freed.upper_bound(address);
  if (f != m_freed.begin()) {
    --f;
    if (address - f->first < f->second)
      return fmt::format("offset {} of a {}-byte device heap block at {:#x} that was freed",
                         address - f->first, f->second, f->first);
  }
  return std::string("device heap memory that no live malloc block holds");
}

std::vector<DeviceHeap::LiveBlock> DeviceHeap::live() const {
  std::lock_guard lock(m_mutex);
  std::vector<LiveBlock> out;
  for (const auto& [address, bytes] : m_live)
    out.push_back({address, bytes});
  return out;
}

} // namespace gpurun::emu
