#pragma once
// Device ("global") memory of one CPU context: allocations at addresses in the global window,
// each remembered with its size and name so that faults and memcheck findings can say which buffer
// an address belongs to and how far outside it lies.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/zeroed_bytes.hpp"

namespace gpurun::emu {

struct Allocation {
  std::uint64_t address = 0;
  std::size_t size = 0;
  std::byte* host = nullptr; ///< owned by DeviceMemory
  int id = 0;                ///< 1-based, in allocation order
  std::string name;          ///< buffer or symbol name; may be empty
  /// initcheck: 1 per byte written by the host or a kernel; null when not tracked (defined).
  std::uint8_t* written = nullptr;
};

/// An immutable sorted view of the allocations, taken at launch: kernels read it concurrently
/// without locks (allocation during a launch is not possible through the Context interface).
class MemoryMap {
public:
  MemoryMap() = default;
  explicit MemoryMap(std::vector<Allocation> allocations);
  /// The allocation holding [address, address + bytes), or nullptr.
  [[nodiscard]] const Allocation* find(std::uint64_t address, std::size_t bytes) const noexcept;
  /// "allocation #2 'out' (80 bytes at 0x7f0000001000), 12 bytes past the end" — the nearest
  /// allocation and where the address lies relative to it.
  [[nodiscard]] std::string describe(std::uint64_t address, std::size_t bytes) const;
  [[nodiscard]] const std::vector<Allocation>& allocations() const noexcept { return m_sorted; }

private:
  std::vector<Allocation> m_sorted; // by address
};

/// Owns the bytes behind every allocation.
class DeviceMemory {
public:
  /// Zero-filled; addresses are never reused, so a stale pointer never hits a newer buffer.
  [[nodiscard]] std::uint64_t allocate(std::size_t bytes, std::string name = {});
  void release(std::uint64_t address);
  void set_name(std::uint64_t address, std::string name);
  /// initcheck: from now on the allocation at `address` counts as holding nothing defined until
  /// written.
  void track_writes(std::uint64_t address);
  /// Marks [address, address + bytes) written (a host copy or memset), where tracked.
  void mark_written(std::uint64_t address, std::size_t bytes);
  /// Host pointer of [address, address + bytes); throws Error(device) when not inside one
  /// allocation.
  [[nodiscard]] std::byte* host(std::uint64_t address, std::size_t bytes);
  [[nodiscard]] MemoryMap snapshot() const;

private:
  struct Block {
    Allocation info;
    ZeroedBytes bytes;
    std::unique_ptr<std::uint8_t[]> written;
  };
  mutable std::mutex m_mutex;
  std::map<std::uint64_t, Block> m_blocks;
  std::uint64_t m_next = 0;
  int m_next_id = 1;
};

} // namespace gpurun::emu
