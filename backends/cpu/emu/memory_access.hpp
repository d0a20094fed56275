#pragma once
// Address translation for loads, stores and atomics: a lane's address in a state space → a host
// pointer, with a bounds check on every access (an out-of-bounds access is a device fault, never
// a host crash), and an alignment check on every access (a GPU faults on a misaligned address).
// The global path checks a whole warp at once when its [min, max] range falls in one allocation;
// memcheck adds the per-variable bounds of shared memory.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

[[noreturn]] void throw_access_fault(const Warp& w, int lane, Space space, std::uint64_t address,
                                     unsigned bytes, bool write);
/// Memcheck: throws unless shared offset [off, off + bytes) lies inside one .shared variable.
void check_shared_variable(const Warp& w, int lane, std::uint64_t off, unsigned bytes, bool write);

[[noreturn]] void throw_misaligned(const Warp& w, int lane, std::uint64_t address, unsigned bytes);

/// The address a lane accesses (before translation).
inline std::uint64_t lane_address(const Warp& w, const Inst& in, int lane) {
  if (in.a != kNoReg)
    return w.regs[std::size_t{in.a} * 32 + lane] + in.imm;
  if (in.flags & kFrameRelative)
    return kLocalBase + w.frame_base[lane] + in.imm;
  return static_cast<std::uint64_t>(in.imm);
}

/// Translates one lane's address in a known window.
inline std::byte* translate(Warp& w, Space space, std::uint64_t address, unsigned bytes, int lane,
                            bool write) {
  Block& b = *w.block;
  switch (space) {
  case Space::shared: {
    std::uint64_t off = address - kSharedBase;
    if (off + bytes > b.shared_bytes || off >= kSharedWindow)
      throw_access_fault(w, lane, space, address, bytes, write);
    if (b.launch->memcheck)
      check_shared_variable(w, lane, off, bytes, write);
    return b.shared + off;
  }
  case Space::local:
  case Space::param_frame: {
    std::uint64_t off = address - kLocalBase;
    if (off + bytes > b.local_per_thread || off >= kLocalWindow)
      throw_access_fault(w, lane, space, address, bytes, write);
    return b.local_of(w.index, lane) + off;
  }
  case Space::param_kernel: {
    std::uint64_t off = address - kParamBase;
    auto& params = b.launch->params;
    if (write || off + bytes > params.size() || off >= kParamWindow)
      throw_access_fault(w, lane, space, address, bytes, write);
    return params.data() + off;
  }
  case Space::generic:
    return translate(
        w,
        [&] {
          switch (window_of(address)) {
          case Window::shared:
            return Space::shared;
          case Window::local:
            return Space::local;
          case Window::param:
            return Space::param_kernel;
          default:
            return Space::global;
          }
        }(),
        address, bytes, lane, write);
  case Space::global:
  case Space::const_: {
    const Allocation* a = w.cached;
    if (!(a && address >= a->address && address - a->address + bytes <= a->size)) {
      a = b.launch->memory.find(address, bytes);
      if (!a)
        throw_access_fault(w, lane, space, address, bytes, write);
      w.cached = a;
    }
    return a->host + (address - a->address);
  }
  }
  return nullptr;
}

/// Throws for the first lane in `mask` whose address is not a multiple of `align` (a power of
/// two); `any` is the OR of all the lanes' addresses, so the aligned case costs one test.
inline void check_alignment(const Warp& w, std::uint32_t mask, const std::uint64_t* addr,
                            std::uint64_t any, unsigned align, unsigned bytes) {
  if ((any & (align - 1)) == 0)
    return;
  each_lane(mask, [&](int l) {
    if (addr[l] & (align - 1))
      throw_misaligned(w, l, addr[l], bytes);
  });
}

/// Calls `note(lane, address)` for every lane in `mask`, the register + offset case without a
/// branch per lane.
template <class Note>
inline void each_lane_address(const Warp& w, const Inst& in, std::uint32_t mask, Note&& note) {
  if (in.a != kNoReg) { // the common case: register + offset
    const std::uint64_t* r = w.regs + std::size_t{in.a} * kWarpSize;
    const auto imm = static_cast<std::uint64_t>(in.imm);
    each_lane(mask, [&](int l) { note(l, r[l] + imm); });
  } else {
    each_lane(mask, [&](int l) { note(l, lane_address(w, in, l)); });
  }
}

/// Every lane's address in `mask` (before translation), with their minimum, maximum and OR.
inline void lane_addresses(const Warp& w, const Inst& in, std::uint32_t mask, std::uint64_t* addr,
                           std::uint64_t& lo, std::uint64_t& hi, std::uint64_t& any) {
  lo = ~std::uint64_t{0};
  hi = 0;
  any = 0;
  auto note = [&](int l, std::uint64_t a) {
    addr[l] = a;
    lo = std::min(lo, a);
    hi = std::max(hi, a);
    any |= a;
  };
  each_lane_address(w, in, mask, note);
}

/// The addresses a `bytes`-wide access may start at to stay inside [base, base + span).
/// `outside(a)` has its top bit set when it may not: d = a - base lies in [0, limit] exactly when
/// neither d nor limit - d has the top bit set (limit < 2^62) — additions and ORs only, which the
/// compiler can keep in vector registers, no chain of minimum and maximum through the warp.
struct AccessWindow {
  AccessWindow(std::uint64_t base, std::uint64_t span, unsigned bytes)
      : base(base), fits(span >= bytes && span - bytes < (std::uint64_t{1} << 62)),
        limit(fits ? span - bytes : 0) {}
  [[nodiscard]] std::uint64_t outside(std::uint64_t a) const {
    const std::uint64_t d = a - base;
    return d | (limit - d);
  }
  [[nodiscard]] bool holds(std::uint64_t any_outside) const {
    return fits && (any_outside >> 63) == 0;
  }
  std::uint64_t base;
  bool fits;
  std::uint64_t limit;
};

/// Every lane's address in `mask` (`addr`), with alignment checked (it throws); true when all of
/// [address, address + bytes) lie in [base, base + span). The addresses are computed (and their
/// alignment checked) whatever the window.
inline bool lanes_in_window(const Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes,
                            unsigned align, std::uint64_t* addr, std::uint64_t base,
                            std::uint64_t span) {
  const AccessWindow window(base, span, bytes);
  std::uint64_t any = 0, outside = 0;
  auto note = [&](int l, std::uint64_t a) {
    addr[l] = a;
    any |= a;
    outside |= window.outside(a);
  };
  each_lane_address(w, in, mask, note);
  check_alignment(w, mask, addr, any, align, bytes);
  return window.holds(outside);
}

/// True when [addr[l], addr[l] + bytes) lies in [base, base + span) for every lane l in `mask`.
inline bool addresses_in_window(std::uint32_t mask, const std::uint64_t* addr, unsigned bytes,
                                std::uint64_t base, std::uint64_t span) {
  const AccessWindow window(base, span, bytes);
  std::uint64_t outside = 0;
  each_lane(mask, [&](int l) { outside |= window.outside(addr[l]); });
  return window.holds(outside);
}

/// The warp-wide fast path of a global, const or shared access: every lane's address (`addr`)
/// and, when one host window holds them all (the cached allocation, the block's shared memory),
/// true with host = address + `delta`. Alignment is checked (it throws); false sends the access
/// to the per-lane path.
inline bool warp_window(Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes,
                        unsigned align, bool write, std::uint64_t* addr, std::uintptr_t& delta) {
  const bool global = in.space == Space::global || in.space == Space::const_;
  if (!global && in.space != Space::shared)
    return false;
  if (global) {
    // The allocation this instruction or the warp used last, else the one holding the warp's
    // whole range.
    Warp::InstAllocation& slot = w.by_inst[w.pc % std::size(w.by_inst)];
    const Allocation* a = slot.pc == w.pc ? slot.allocation : w.cached;
    const bool cached = a != nullptr && lanes_in_window(w, in, mask, bytes, align, addr,
                                                        a->address, a->size);
    if (!cached) {
      std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
      if (a != nullptr) { // addresses computed and aligned above
        each_lane(mask, [&](int l) {
          lo = std::min(lo, addr[l]);
          hi = std::max(hi, addr[l]);
        });
      } else {
        std::uint64_t any;
        lane_addresses(w, in, mask, addr, lo, hi, any);
        check_alignment(w, mask, addr, any, align, bytes);
      }
      auto holds = [&](const Allocation* r) {
        return r != nullptr && lo >= r->address && hi - r->address + bytes <= r->size;
      };
      const Allocation* found = nullptr;
      for (const Allocation* r : w.recent)
        if (holds(r)) {
          found = r;
          break;
        }
      if (!found)
        found = w.block->launch->memory.find(lo, hi - lo + bytes);
      if (!found)
        return false;
      // Most recent first: the one found moves to the front, the others shift down.
      const Allocation* carry = w.cached;
      for (const Allocation*& r : w.recent) {
        if (carry == found)
          break;
        std::swap(r, carry);
      }
      a = found;
      slot = {w.pc, found};
    }
    w.cached = a;
    // Unsigned arithmetic: the host address of address 0 may lie outside any object.
    delta = reinterpret_cast<std::uintptr_t>(a->host) - a->address;
    return true;
  }
  // The block's shared memory (tiles, reductions).
  const Block& b = *w.block;
  delta = reinterpret_cast<std::uintptr_t>(b.shared) - kSharedBase;
  if (!b.launch->memcheck || b.shared_var_count == 0)
    return lanes_in_window(w, in, mask, bytes, align, addr, kSharedBase, b.shared_bytes);
  // Memcheck: the variable holding the lowest lane's address holds the whole warp in the common
  // case (one more pass over the addresses); else each lane's variable is checked (it throws).
  if (!lanes_in_window(w, in, mask, bytes, align, addr, kSharedBase, b.shared_bytes))
    return false;
  const std::uint64_t first = addr[std::countr_zero(mask)] - kSharedBase;
  const SharedVariable* v = b.shared_vars;
  const SharedVariable* end = v + b.shared_var_count;
  while (v != end && !(first >= v->offset && first - v->offset < v->size))
    ++v;
  if (v == end || !addresses_in_window(mask, addr, bytes, kSharedBase + v->offset, v->size))
    each_lane(mask, [&](int l) { check_shared_variable(w, l, addr[l] - kSharedBase, bytes, write); });
  return true;
}

/// Host pointers for every lane in `mask`. `bytes` is the whole access (vector size); `align` its
/// natural alignment (a power of two), checked on every access as the GPU does.
inline void translate_lanes(Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes,
                            unsigned align, bool write, std::byte** out) {
  std::uint64_t addr[kWarpSize];
  std::uintptr_t delta = 0;
  if (warp_window(w, in, mask, bytes, align, write, addr, delta)) {
    each_lane(mask, [&](int l) { out[l] = reinterpret_cast<std::byte*>(addr[l] + delta); });
    return;
  }
  each_lane(mask, [&](int l) {
    std::uint64_t address = lane_address(w, in, l);
    if (address & (align - 1))
      throw_misaligned(w, l, address, bytes);
    out[l] = translate(w, in.space, address, bytes, l, write);
  });
}

/// The host pointer of an address every lane shares (a kernel parameter, a shared or module
/// variable named without a register), checked once for the lowest lane of `mask`.
inline std::byte* translate_uniform(Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes,
                                    bool write) {
  const int lane = std::countr_zero(mask);
  const std::uint64_t address = lane_address(w, in, lane);
  if (address & (bytes - 1))
    throw_misaligned(w, lane, address, bytes);
  return translate(w, in.space, address, bytes, lane, write);
}

} // namespace gpurun::emu
