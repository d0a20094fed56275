#pragma once
// Which bytes of the memory a launch's pointers reach a capture saves. An allocation is saved
// whole while the byte budget lasts (--max-bytes, and what the disk and host memory can hold).
// Past it, the allocation is saved as windows that start at the pointers into it, each reaching
// to the next pointer into the same allocation or to its end, and sharing what is left of the
// budget: a pooled allocator's slab of many gigabytes (XLA's) then costs only the buffers the
// launch was given, and the capture says which bytes it left out.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "capture/pointer_scan.hpp"

namespace gpurun::capture {

/// One saved range of an allocation: [offset, offset + saved) from its base.
struct MemoryWindow {
  Allocation allocation;
  std::uint64_t offset = 0;
  std::uint64_t saved = 0;
  [[nodiscard]] bool whole() const { return offset == 0 && saved == allocation.size; }
  [[nodiscard]] bool holds(std::uint64_t address) const {
    return address >= allocation.base + offset && address < allocation.base + offset + saved;
  }
};

struct MemoryPlan {
  std::vector<MemoryWindow> windows; ///< in order of first reference by the pointers
  /// What was left out and why ("a1: bytes [0, 4096) of a 1073741824-byte allocation saved, …");
  /// names are the windows' indices as aN.
  std::vector<std::string> left_out;
};

/// Plans the saves for `pointers` within `budget` bytes (each window saved before and after the
/// launch counts once). Unified memory is planned like any other and reported by the caller.
[[nodiscard]] MemoryPlan plan_memory(std::span<const FoundPointer> pointers, std::uint64_t budget);

/// The index of the window that holds the pointer's target (or, for a pointer at a window's
/// end, that window); nullopt when none does.
[[nodiscard]] std::optional<std::size_t> window_index(std::span<const MemoryWindow> windows,
                                                      const FoundPointer& pointer);

} // namespace gpurun::capture
