#pragma once
// The device heap behind in-kernel malloc/free (NVRTC leaves them as calls to external
// functions the driver provides): one region of device memory, cudaLimitMallocHeapSize bytes
// (8 MiB by default, --heap-size), handed out in 16-byte aligned blocks: never-used space first,
// then the first freed range that fits. It lives as
// long as the context, as the driver's does, so one launch may free what another allocated.
// Workers call it concurrently; a mutex guards the block lists.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

inline constexpr std::size_t k_default_heap_bytes = 8u << 20; // cudaLimitMallocHeapSize

class DeviceHeap {
public:
  /// Manages [base, base + bytes) of an existing device allocation.
  DeviceHeap(std::uint64_t base, std::size_t bytes);

  /// A block of `bytes` (0 when the heap has no room, as the device's malloc returns NULL).
  [[nodiscard]] std::uint64_t allocate(std::size_t bytes);

  enum class FreeResult { ok, null, double_free, not_a_block };
  /// Frees a block malloc returned; anything else is left alone and said.
  FreeResult release(std::uint64_t address);

  [[nodiscard]] bool contains(std::uint64_t address) const noexcept {
    return address >= m_base && address - m_base < m_bytes;
  }
  /// Memcheck: why [address, address + bytes) of the heap is not inside one live block, or
  /// nothing when it is.
  [[nodiscard]] std::optional<std::string> check_access(std::uint64_t address,
                                                        std::size_t bytes) const;
  struct LiveBlock {
    std::uint64_t address = 0;
    std::size_t bytes = 0;
  };
  /// Blocks malloc returned that were never freed, by address.
  [[nodiscard]] std::vector<LiveBlock> live() const;
  [[nodiscard]] std::size_t size() const noexcept { return m_bytes; }

private:
  std::uint64_t m_base;
  std::size_t m_bytes;
  mutable std::mutex m_mutex;
  std::map<std::uint64_t, std::size_t> m_live;  ///< address → requested bytes
  std::map<std::uint64_t, std::size_t> m_spans; ///< address → bytes taken (aligned)
  std::uint64_t m_top;                          ///< start of the never-used space
  std::map<std::uint64_t, std::size_t> m_free;  ///< freed ranges, coalesced
  std::map<std::uint64_t, std::size_t> m_freed; ///< blocks freed and not handed out again
};

/// Runs a malloc or free call instruction for the lanes in `exec` (emu/heap_call.cpp).
void device_heap_call(Warp& w, const Inst& in, std::uint32_t exec);

} // namespace gpurun::emu
