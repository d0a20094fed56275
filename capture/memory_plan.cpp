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
  MemoryPlan plan;
  for (Reached& r : reached) {
    std::sort(r.offsets.begin(), r.offsets.end());
    r.offsets.erase(std::unique(r.offsets.begin(), r.offsets.end()), r.offsets.end());
    const std::uint64_t size = r.allocation.size;
    if (size <= budget) {
      plan.windows.push_back({r.allocation, 0, size});
      budget -= size;
      continue;
    }
    // Windows from each pointer to the next one into this allocation (or its end), each taking
    // an equal share of what budget is left to the windows still to be planned.
    for (std::size_t i = 0; i < r.offsets.size(); ++i) {
      const std::uint64_t start = r.offsets[i];
      const std::uint64_t end = i + 1 < r.offsets.size() ? r.offsets[i + 1] : size;
      const std::uint64_t share = budget / (r.offsets.size() - i);
      const std::uint64_t saved = std::min(end - start, share);
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
