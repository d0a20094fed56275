#pragma once
// The device allocations a captured program holds, as its driver calls made and freed them
// (cuMemAlloc*, cuMemAllocAsync and pools, cuMemAllocManaged, cuMemHostRegister, virtual address
// ranges mapped with cuMemMap): the interposer records each one so that a value in a launch's
// parameter bytes can be told to point into one, and the allocation saved whole.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>

namespace gpurun::capture {

enum class MemoryKind {
  device,  ///< cuMemAlloc, cuMemAllocPitch
  pool,    ///< cuMemAllocAsync, cuMemAllocFromPoolAsync
  managed, ///< cuMemAllocManaged: unified memory, which a capture refuses
  host,    ///< cuMemHostAlloc, cuMemHostRegister: host memory the device reads
  mapped   ///< a cuMemMap'ed range of a cuMemAddressReserve
};

/// "device", "pool", "managed", "host", "mapped".
[[nodiscard]] std::string_view to_string(MemoryKind kind);

struct Allocation {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  MemoryKind kind = MemoryKind::device;
  [[nodiscard]] std::uint64_t end() const { return base + size; }
};

class AllocationMap {
public:
  /// Records an allocation of `size` ≥ 1 bytes. Recorded ones it overlaps are forgotten first:
  /// their free went unseen (made through an entry point not interposed) and the driver has
  /// handed the addresses out again.
  void add(const Allocation& allocation);
  /// Forgets the allocation that starts at `base`; false when none does.
  bool remove(std::uint64_t base);
  /// The allocation holding `address`, if one does.
  [[nodiscard]] std::optional<Allocation> find(std::uint64_t address) const;
  [[nodiscard]] std::size_t size() const { return m_by_base.size(); }
  [[nodiscard]] std::uint64_t bytes() const { return m_bytes; }

private:
  std::map<std::uint64_t, Allocation> m_by_base;
  std::uint64_t m_bytes = 0;
};

} // namespace gpurun::capture
