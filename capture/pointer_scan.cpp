#include "capture/pointer_scan.hpp"

#include <algorithm>
#include <cstring>

namespace gpurun::capture {

std::vector<FoundPointer> find_pointers(std::span<const std::byte> params,
                                        std::span<const ParamSlot> slots,
                                        const AllocationMap& allocations) {
  std::vector<FoundPointer> found;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    const ParamSlot& slot = slots[i];
    if (slot.offset >= params.size())
      continue;
    const std::size_t end = slot.offset + std::min(slot.size, params.size() - slot.offset);
    // The words at 8-byte-aligned offsets of the parameter bytes: where a pointer, alone or in a
    // struct, is laid out.
    for (std::size_t at = (slot.offset + 7) / 8 * 8; at + 8 <= end; at += 8) {
      std::uint64_t value = 0;
      std::memcpy(&value, params.data() + at, 8);
      if (value == 0)
        continue;
      if (const auto allocation = allocations.find(value))
        found.push_back({i, at - slot.offset, *allocation, value - allocation->base});
    }
  }
  return found;
}

} // namespace gpurun::capture
