#include "backends/cpu/emu/sanitize.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/device_heap.hpp"
#include "backends/cpu/emu/findings.hpp"
#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/memory_access.hpp"
#include "base/format.hpp"

namespace gpurun::emu {

BlockShadow::BlockShadow(std::size_t shared_bytes, std::size_t local_bytes)
    : shared(shared_bytes), local_written(local_bytes, 0) {}

void BlockShadow::begin_block() noexcept {
  // Records carry the epoch and written marks the block serial they belong to, so a new block
  // starts clean without clearing the shadow.
  ++m_epoch;
  ++m_serial;
}

namespace {

enum Hazard : std::uint32_t { kRaw, kWar, kWaw, kUninitShared, kUninitLocal, kUninitGlobal, kHeap };

const char* hazard_name(std::uint32_t h) {
  switch (h) {
  case kRaw:
    return "read-after-write";
  case kWar:
    return "write-after-read";
  default:
    return "write-after-write";
  }
}

std::string thread_text(const LaunchState& L, std::uint32_t thread) {
  const Dim3 t = thread_index(L.block, static_cast<int>(thread / kWarpSize),
                              static_cast<int>(thread % kWarpSize));
  return fmt::format("thread ({},{},{})", t.x, t.y, t.z);
}

std::string block_text(const Block& b) {
  return fmt::format("block ({},{},{})", b.index.x, b.index.y, b.index.z);
}

} // namespace

std::string source_text(const LaunchState& L, std::uint32_t pc) {
  const Inst& in = L.program->code[pc];
  if (in.source_line <= 0)
    return fmt::format("PTX line {}", in.line);
  auto it = L.program->files.find(in.source_file);
  std::string file = it == L.program->files.end() ? "?" : it->second;
  if (auto slash = file.find_last_of('/'); slash != std::string::npos)
    file = file.substr(slash + 1);
  return fmt::format("PTX line {} ({}:{})", in.line, file, in.source_line);
}

void note_local_written(const Block& b, const std::byte* host, std::size_t bytes) {
  if (b.shadow == nullptr || !b.launch->initcheck)
    return;
  std::fill_n(b.shadow->local_written.data() + (host - b.local), bytes, b.shadow->serial());
}

std::string thread_ranges(const Dim3& block, const std::vector<bool>& set) {
  constexpr std::size_t kMaxRuns = 8;
  std::vector<std::string> runs;
  std::size_t more = 0, count = 0;
  const std::uint64_t total = std::min<std::uint64_t>(block.volume(), set.size());
  for (std::uint64_t t = 0; t < total;) {
    if (!set[t]) {
      ++t;
      continue;
    }
    // A run of consecutive x within one row (y, z).
    const std::uint64_t row_end = (t / block.x + 1) * block.x;
    std::uint64_t end = t;
    while (end < total && end < row_end && set[end])
      ++end;
    count += end - t;
    if (runs.size() == kMaxRuns) {
      more += end - t;
    } else {
      const auto x0 = t % block.x, x1 = (end - 1) % block.x;
      const std::string xs = x0 == x1 ? fmt::format("{}", x0) : fmt::format("{}..{}", x0, x1);
      runs.push_back(block.y == 1 && block.z == 1
                         ? xs
                         : fmt::format("({},{},{})", xs, t / block.x % block.y,
                                       t / (std::uint64_t{block.x} * block.y)));
    }
    t = end;
  }
  std::string text =
      fmt::format("{} ({})", count == 1 ? "thread" : "threads", fmt::join(runs, ", "));
  if (more)
    text.insert(text.size() - 1, fmt::format(" and {} more", more));
  return text;
}

namespace {

std::string shared_place(const Block& b, std::uint64_t off) {
  for (std::size_t i = 0; i < b.shared_var_count; ++i) {
    const SharedVariable& v = b.shared_vars[i];
    if (off >= v.offset && off < std::uint64_t{v.offset} + v.size)
      return fmt::format("shared variable '{}' offset {}", demangled(v.name), off - v.offset);
  }
  return fmt::format("shared offset {}", off);
}

std::uint32_t pc_of(const Warp& w, const Inst& in) {
  return static_cast<std::uint32_t>(&in - w.block->launch->program->code.data());
}

// Two accesses of one warp are ordered when both lanes took part in a warp collective
// (__syncwarp, shfl/vote .sync …) after the first one.
bool warp_ordered(const Warp& w, const BlockShadow::Record& first, std::uint32_t thread, int lane) {
  if (first.thread / kWarpSize != thread / kWarpSize)
    return false;
  const int other = static_cast<int>(first.thread % kWarpSize);
  return w.lane_sync[lane] > first.warp_sync && w.lane_sync[other] > first.warp_sync;
}

void report_race(Warp& w, std::uint32_t hazard, bool benign, const BlockShadow::Record& first,
                 std::uint32_t thread, std::uint32_t pc, std::uint64_t off, unsigned bytes) {
  LaunchState& L = *w.block->launch;
  const FindingKey key{Tool::racecheck, hazard | (benign ? 0x10u : 0u), first.pc, pc};
  L.findings.report(key, benign ? Severity::warning : Severity::error, report_order(*w.block, thread),
                    [&] {
    const bool second_writes = hazard != kRaw;
    const bool first_writes = hazard != kWar;
    return fmt::format(
        "{} hazard{} on {} ({} bytes) in kernel '{}' {}: {} by {} at {}, {} by {} at {}, with no "
        "barrier between",
        hazard_name(hazard), benign ? " (the same value written)" : "", shared_place(*w.block, off),
        bytes, L.kernel->name, block_text(*w.block), first_writes ? "write" : "read",
        thread_text(L, first.thread), source_text(L, first.pc),
        second_writes ? "then a write" : "then a read", thread_text(L, thread), source_text(L, pc));
  });
}

// The bytes a lane's store writes, in memory order.
void store_value(const Warp& w, const Inst& in, int lane, std::byte* out) {
  if (in.vec == 1) {
    std::memcpy(out, &w.regs[std::size_t{in.b} * 32 + lane], in.width);
    return;
  }
  for (int i = 0; i < in.vec; ++i)
    std::memcpy(out + i * in.width, &w.regs[std::size_t{in.v[i]} * 32 + lane], in.width);
}

void race_check(Warp& w, const Inst& in, int lane, std::uint64_t off, unsigned bytes, Access kind,
                const std::byte* host) {
  BlockShadow& s = *w.block->shadow;
  const std::uint32_t epoch = s.epoch();
  const std::uint32_t thread = static_cast<std::uint32_t>(w.index) * kWarpSize + lane;
  const std::uint32_t pc = pc_of(w, in);
  const BlockShadow::Record me{epoch, thread, pc, w.sync_count};
  std::byte value[32] = {};
  // A write is benign (same value) when it leaves every byte of the access as it was.
  bool changed = false;
  if (kind == Access::store) {
    store_value(w, in, lane, value);
    changed = std::memcmp(value, host, bytes) != 0;
  }
  bool reported = false;
  for (unsigned i = 0; i < bytes; ++i) {
    BlockShadow::SharedByte& b = s.shared[off + i];
    auto hazard = [&](const BlockShadow::Record& r) {
      return r.epoch == epoch && r.thread != thread && !warp_ordered(w, r, thread, lane);
    };
    if (kind == Access::load) {
      if (!reported && hazard(b.write)) {
        report_race(w, kRaw, !b.write_changed, b.write, thread, pc, off, bytes);
        reported = true;
      }
      if (b.read[0].epoch != epoch || b.read[0].thread == thread)
        b.read[0] = me;
      else
        b.read[1] = me; // a third reader replaces the second: two suffice to find a WAR
      continue;
    }
    if (!reported) {
      if (hazard(b.write)) {
        report_race(w, kWaw, !changed, b.write, thread, pc, off, bytes);
        reported = true;
      } else {
        for (const auto& r : b.read)
          if (!reported && hazard(r)) {
            report_race(w, kWar, !changed, r, thread, pc, off, bytes);
            reported = true;
          }
      }
    }
    b.write = me;
    b.write_changed = changed;
  }
  // The handler stores after every lane was checked; storing this lane's bytes now (the same
  // bytes) lets the next lane of the instruction see them, so "every lane writes 1" is a
  // same-value write for all but the first.
  if (kind == Access::store)
    std::memcpy(const_cast<std::byte*>(host), value, bytes);
}

void report_uninit(Warp& w, const Inst& in, int lane, std::uint32_t hazard,
                   const std::string& where, unsigned bytes) {
  LaunchState& L = *w.block->launch;
  const std::uint32_t pc = pc_of(w, in);
  L.findings.report(FindingKey{Tool::initcheck, hazard, pc, 0}, Severity::error,
                    report_order(*w.block, static_cast<std::uint32_t>(w.index) * kWarpSize + lane),
                    [&] {
    const std::uint32_t thread = static_cast<std::uint32_t>(w.index) * kWarpSize + lane;
    return fmt::format("read of {} bytes of uninitialized {} in kernel '{}' {} {} at {}", bytes,
                       where, L.kernel->name, block_text(*w.block), thread_text(L, thread),
                       source_text(L, pc));
  });
}

void global_check(Warp& w, const Inst& in, int lane, std::uint64_t address, unsigned bytes,
                  Access kind) {
  LaunchState& L = *w.block->launch;
  if (L.heap && L.memcheck && L.heap->contains(address)) {
    if (auto problem = L.heap->check_access(address, bytes)) {
      const std::uint32_t pc = pc_of(w, in);
      L.findings.report(FindingKey{Tool::memcheck, kHeap, pc, 0}, Severity::error,
                        report_order(*w.block, static_cast<std::uint32_t>(w.index) * kWarpSize + lane),
                        [&] {
        const std::uint32_t thread = static_cast<std::uint32_t>(w.index) * kWarpSize + lane;
        return fmt::format("out-of-bounds {} of {} bytes at {:#x}: {} in kernel '{}' {} {} at {}",
                           kind == Access::load ? "read" : "write", bytes, address, *problem,
                           L.kernel->name, block_text(*w.block), thread_text(L, thread),
                           source_text(L, pc));
      });
    }
  }
  if (!L.initcheck)
    return;
  const Allocation* a = w.cached; // the allocation the warp's last global access hit
  if (!(a && address >= a->address && address - a->address + bytes <= a->size))
    a = L.memory.find(address, bytes);
  if (!a || !a->written)
    return; // module variables and the heap start defined (zero-initialized, as C++ statics)
  auto* marks = a->written + (address - a->address);
  if (kind != Access::store) {
    for (unsigned i = 0; i < bytes; ++i)
      if (std::atomic_ref(marks[i]).load(std::memory_order_relaxed) == 0) {
        report_uninit(
            w, in, lane, kUninitGlobal,
            fmt::format("global memory at {:#x} ({})", address, L.memory.describe(address, bytes)),
            bytes);
        break;
      }
  }
  if (kind != Access::load)
    for (unsigned i = 0; i < bytes; ++i)
      std::atomic_ref(marks[i]).store(1, std::memory_order_relaxed);
}

} // namespace

void sanitize_access(Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes, Access kind,
                     std::byte* const* p) {
  Block& b = *w.block;
  LaunchState& L = *b.launch;
  BlockShadow* s = b.shadow;
  each_lane(mask, [&](int l) {
    const std::byte* host = p[l];
    if (s && host >= b.shared && host < b.shared + b.shared_bytes) {
      const auto off = static_cast<std::uint64_t>(host - b.shared);
      if (L.racecheck && kind != Access::atomic)
        race_check(w, in, l, off, bytes, kind, host);
      if (L.initcheck) {
        BlockShadow::SharedByte* sb = s->shared.data() + off;
        if (kind != Access::store)
          for (unsigned i = 0; i < bytes; ++i)
            if (sb[i].written != s->serial()) {
              report_uninit(w, in, l, kUninitShared, shared_place(b, off), bytes);
              break;
            }
        if (kind != Access::load)
          for (unsigned i = 0; i < bytes; ++i)
            sb[i].written = s->serial();
      }
      return;
    }
    const std::byte* local_end = b.local + b.local_per_thread * b.warps.size() * kWarpSize;
    if (host >= b.local && host < local_end) {
      if (!s || !L.initcheck)
        return;
      auto* marks = s->local_written.data() + (host - b.local);
      // Only explicit .local reads are checked: call arguments and return values move through
      // the frame on the host's side.
      const bool checked = in.space == Space::local || in.space == Space::generic;
      if (kind != Access::store && checked)
        for (unsigned i = 0; i < bytes; ++i)
          if (marks[i] != s->serial()) {
            const auto off = static_cast<std::uint64_t>(host - b.local_of(w.index, l));
            report_uninit(w, in, l, kUninitLocal,
                          fmt::format("local memory (offset {} of the thread's frame)", off),
                          bytes);
            break;
          }
      if (kind != Access::load)
        std::fill_n(marks, bytes, s->serial());
      return;
    }
    if (in.space == Space::global || in.space == Space::generic)
      global_check(w, in, l, lane_address(w, in, l), bytes, kind);
  });
}

} // namespace gpurun::emu
