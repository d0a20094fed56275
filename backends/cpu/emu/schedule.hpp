#pragma once
// Lane scheduling inside a warp: lanes at the lowest (call depth, PC) key run together as the
// group; parked (warp-collective) and blocked (bar.sync) lanes are not runnable.
#include <algorithm>
#include <bit>
#include <cstdint>

#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

// Lanes are ordered by key = (inverted call depth, PC): deeper calls first (so a call completes
// and its lanes reconverge with the ones that skipped it), then the lowest PC.
constexpr std::uint64_t kDepthTop = 0xffff'fff0;

inline std::uint64_t make_key(std::uint32_t depth, std::uint32_t pc) {
  return ((kDepthTop - depth) << 32) | pc;
}
inline std::uint32_t key_depth(std::uint64_t key) {
  return static_cast<std::uint32_t>(kDepthTop - (key >> 32));
}

// Writes the group's key into each member lane so a full reschedule sees every lane.
inline void spill_group(Warp& w) {
  for (std::uint32_t g = w.group; g; g &= g - 1)
    w.keys[std::countr_zero(g)] = w.group_key;
}

// Picks the next group: the runnable lanes at the lowest key. False when none is runnable.
inline bool schedule(Warp& w) {
  std::uint32_t runnable = w.live & ~w.blocked & ~w.parked;
  if (!runnable) {
    w.group = 0;
    return false;
  }
  std::uint64_t best = ~std::uint64_t{0};
  for (std::uint32_t r = runnable; r; r &= r - 1)
    best = std::min(best, w.keys[std::countr_zero(r)]);
  std::uint32_t group = 0;
  std::uint64_t next = ~std::uint64_t{0};
  for (std::uint32_t r = runnable; r; r &= r - 1) {
    int l = std::countr_zero(r);
    if (w.keys[l] == best)
      group |= 1u << l;
    else
      next = std::min(next, w.keys[l]);
  }
  w.group = group;
  w.group_key = best;
  w.waiting_min = next;
  w.pc = static_cast<std::uint32_t>(best);
  return true;
}

// Lanes waiting at the key the group just reached join it.
inline void merge(Warp& w) {
  std::uint32_t runnable = w.live & ~w.blocked & ~w.parked & ~w.group;
  std::uint64_t next = ~std::uint64_t{0};
  for (std::uint32_t r = runnable; r; r &= r - 1) {
    int l = std::countr_zero(r);
    if (w.keys[l] == w.group_key)
      w.group |= 1u << l;
    else
      next = std::min(next, w.keys[l]);
  }
  w.waiting_min = next;
}

inline void advance(Warp& w) {
  ++w.pc;
  ++w.group_key;
  if (w.group_key == w.waiting_min)
    merge(w);
}

inline void jump(Warp& w, std::uint32_t target) {
  w.group_key = (w.group_key & ~std::uint64_t{0xffffffff}) | target;
  w.pc = target;
  if (w.group_key > w.waiting_min) {
    spill_group(w);
    schedule(w);
  } else if (w.group_key == w.waiting_min) {
    merge(w);
  }
}

} // namespace gpurun::emu
