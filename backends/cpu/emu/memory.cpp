#include "backends/cpu/emu/memory.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

namespace {
// Gap between allocations: an access a little past the end of one buffer faults instead of
// landing silently in the next one.
constexpr std::uint64_t kGuardGap = 64 * 1024;
constexpr std::uint64_t kAlignment = 256;

std::string label(const Allocation& a) {
  std::string name = a.name.empty() ? "" : fmt::format(" '{}'", a.name);
  return fmt::format("allocation #{}{} ({} bytes at {:#x})", a.id, name, a.size, a.address);
}
} // namespace

MemoryMap::MemoryMap(std::vector<Allocation> allocations) : m_sorted(std::move(allocations)) {
  std::sort(m_sorted.begin(), m_sorted.end(),
            [](const Allocation& a, const Allocation& b) { return a.address < b.address; });
}

const Allocation* MemoryMap::find(std::uint64_t address, std::size_t bytes) const noexcept {
  auto it = std::upper_bound(m_sorted.begin(), m_sorted.end(), address,
                             [](std::uint64_t a, const Allocation& b) { return a < b.address; });
  if (it == m_sorted.begin())
    return nullptr;
  --it;
  if (address - it->address + bytes <= it->size && address >= it->address)
    return &*it;
  return nullptr;
}

std::string MemoryMap::describe(std::uint64_t address, std::size_t bytes) const {
  // The first page never holds an allocation: an address there came from a null pointer.
  constexpr std::uint64_t k_null_page = 4096;
  if (address < k_null_page)
    return address == 0 ? std::string("a null pointer")
                        : fmt::format("a null pointer + {} bytes", address);
  if (m_sorted.empty())
    return "no device allocation exists";
  const Allocation* nearest = nullptr;
  std::uint64_t best = ~std::uint64_t{0};
  for (const auto& a : m_sorted) {
    std::uint64_t distance = 0;
    if (address < a.address)
      distance = a.address - address;
    else if (address + bytes > a.address + a.size)
      distance = address + bytes - (a.address + a.size);
    if (distance < best) {
      best = distance;
      nearest = &a;
    }
  }
  if (address < nearest->address)
    return fmt::format("{} bytes before {}", nearest->address - address, label(*nearest));
  std::uint64_t offset = address - nearest->address;
  if (offset >= nearest->size)
    return fmt::format("{} bytes past the end of {}", offset - nearest->size, label(*nearest));
  if (offset + bytes > nearest->size)
    return fmt::format("offset {} of {} (a {}-byte access runs past its end)", offset,
                       label(*nearest), bytes);
  return fmt::format("offset {} of {}", offset, label(*nearest));
}

std::uint64_t DeviceMemory::allocate(std::size_t bytes, std::string name) {
  std::lock_guard lock(m_mutex);
  if (m_next == 0)
    m_next = kGlobalBase + kGuardGap;
  Block block;
  // Even a 0-byte buffer gets a distinct address (cudaMalloc(0) semantics differ, but a distinct
  // address keeps diagnostics unambiguous).
  block.bytes = ZeroedBytes(std::max<std::size_t>(bytes, 1));
  block.info.address = m_next;
  block.info.size = bytes;
  block.info.host = block.bytes.data();
  block.info.id = m_next_id++;
  block.info.name = std::move(name);
  m_next += (bytes + kAlignment - 1) / kAlignment * kAlignment + kGuardGap;
  std::uint64_t address = block.info.address;
  m_blocks.emplace(address, std::move(block));
  return address;
}

void DeviceMemory::release(std::uint64_t address) {
  std::lock_guard lock(m_mutex);
  m_blocks.erase(address);
}

void DeviceMemory::track_writes(std::uint64_t address) {
  std::lock_guard lock(m_mutex);
  auto it = m_blocks.find(address);
  if (it == m_blocks.end() || it->second.written)
    return;
  Block& block = it->second;
  block.written = std::make_unique<std::uint8_t[]>(std::max<std::size_t>(block.info.size, 1));
  block.info.written = block.written.get();
}

void DeviceMemory::mark_written(std::uint64_t address, std::size_t bytes) {
  std::lock_guard lock(m_mutex);
  auto it = m_blocks.upper_bound(address);
  if (it == m_blocks.begin())
    return;
  --it;
  const Allocation& a = it->second.info;
  if (a.written && address >= a.address && address - a.address + bytes <= a.size)
    std::fill_n(a.written + (address - a.address), bytes, std::uint8_t{1});
}

void DeviceMemory::set_name(std::uint64_t address, std::string name) {
  std::lock_guard lock(m_mutex);
  auto it = m_blocks.find(address);
  if (it != m_blocks.end())
    it->second.info.name = std::move(name);
}

std::byte* DeviceMemory::host(std::uint64_t address, std::size_t bytes) {
  std::lock_guard lock(m_mutex);
  auto it = m_blocks.upper_bound(address);
  if (it != m_blocks.begin()) {
    --it;
    const Allocation& a = it->second.info;
    if (address >= a.address && address - a.address + bytes <= a.size)
      return a.host + (address - a.address);
  }
  throw device_error(
      fmt::format("device address {:#x} ({} bytes) is not inside an allocation", address, bytes));
}

MemoryMap DeviceMemory::snapshot() const {
  std::lock_guard lock(m_mutex);
  std::vector<Allocation> all;
  all.reserve(m_blocks.size());
  for (const auto& [address, block] : m_blocks)
    all.push_back(block.info);
  return MemoryMap(std::move(all));
}

} // namespace gpurun::emu
