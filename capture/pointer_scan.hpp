#pragma once
// Pointers found by value in a launch's parameter bytes: every 8-byte-aligned 64-bit word of
// every parameter — a pointer parameter, or a pointer inside a by-value struct — whose value lies
// inside a recorded allocation. A word that only happens to hold such a value (an integer equal
// to a device address) is taken for a pointer too; replaying it at the replay's own address of
// that byte keeps the kernel's view the same either way.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "capture/allocation_map.hpp"

namespace gpurun::capture {

/// Where a parameter lies in the parameter bytes.
struct ParamSlot {
  std::size_t offset = 0;
  std::size_t size = 0;
};

struct FoundPointer {
  std::size_t param = 0;           ///< its index
  std::size_t offset_in_param = 0; ///< where the word lies in the parameter (0: the parameter)
  Allocation allocation;           ///< the allocation it points into
  std::uint64_t offset_in_allocation = 0;
};

/// The pointers of `params` (the launch's parameter bytes, laid out as `slots` say), in order of
/// parameter and offset. Slots reaching past the bytes are read as far as the bytes go.
[[nodiscard]] std::vector<FoundPointer> find_pointers(std::span<const std::byte> params,
                                                      std::span<const ParamSlot> slots,
                                                      const AllocationMap& allocations);

} // namespace gpurun::capture
