#include "capture/memory_plan.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace gpurun::capture {

namespace {

struct Reached {
  Allocation allocation;
  std::vector<std::uint64_t> offsets; ///< distinct, ascending
};

} // namespace

MemoryPlan plan_memory(std::span<const FoundPointer> pointers, std::uint64_t budget) {
  std::vector<Reached> reached; // in order of first reference
  for (const FoundPointer& p : pointers) {
    auto it = std::find_if(reached.begin(), reached.end(), [&](const Reached& r) {
      return r.allocation.base == p.allocation.base;
    });
    if (it == reached.end()) {
      reached.push_back({p.allocation, {}});
      it = std::prev(reached.end());
    }
    it->offsets.push_back(p.offset_in_allocation);
  }
  // Allocations are saved whole, in order of first reference, while the budget lasts; the
  // windows of the others then share what is left equally (a window shorter than its share
  // hands the rest on to the windows after it).
  std::vector<bool> whole(reached.size(), false);
  std::size_t windows_left = 0;
  for (std::size_t i = 0; i < reached.size(); ++i) {
    Reached& r = reached[i];
    std::sort(r.offsets.begin(), r.offsets.end());
    r.offsets.erase(std::unique(r.offsets.begin(), r.offsets.end()), r.offsets.end());
    whole[i] = r.allocation.size <= budget;
    if (whole[i])
      budget -= r.allocation.size;
    else
      windows_left += r.offsets.size();
  }
  MemoryPlan plan;
  for (std::size_t i = 0; i < reached.size(); ++i) {
    const Reached& r = reached[i];
    const std::uint64_t size = r.allocation.size;
    if (whole[i]) {
      plan.windows.push_back({r.allocation, 0, size});
      continue;
    }
    // Windows from each pointer to the next one into this allocation (or its end).
    for (std::size_t j = 0; j < r.offsets.size(); ++j) {
      const std::uint64_t start = r.offsets[j];
      const std::uint64_t end = j + 1 < r.offsets.size() ? r.offsets[j + 1] : size;
      const std::uint64_t saved = std::min(end - start, budget / windows_left--);
      budget -= saved;
      plan.left_out.push_back(fmt::format(
          "a{}: bytes [{}, {}) of a {}-byte allocation saved, the rest left out (the byte "
          "budget: --max-bytes, free disk or host memory)",
          plan.windows.size(), start, start + saved, size));
      plan.windows.push_back({r.allocation, start, saved});
    }
  }
  return plan;
}

std::optional<std::size_t> window_index(std::span<const MemoryWindow> windows,
                                        const FoundPointer& pointer) {
  const std::uint64_t address = pointer.allocation.base + pointer.offset_in_allocation;
  std::optional<std::size_t> at_end;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    const MemoryWindow& w = windows[i];
    if (w.allocation.base != pointer.allocation.base)
      continue;
    if (w.holds(address))
      return i;
    if (address == w.allocation.base + w.offset + w.saved && !at_end)
      at_end = i;
  }
  return at_end;
}

} // namespace gpurun::capture
