// Block barriers (bar.sync / bar.arrive / bar.red on the 16 named barriers, with optional thread
// counts) and the `.sync` warp collectives (shfl, vote, redux, match, bar.warp.sync), whose lanes
// wait until every lane of their member mask has arrived — also when the lanes reach the
// collective at different PCs, which the lowest-PC scheduling alone does not guarantee.
#include <algorithm>
#include <bit>
#include <vector>

#include <fmt/format.h>

#include "backends/cpu/emu/findings.hpp"
#include "backends/cpu/emu/interpreter.hpp"
#include "backends/cpu/emu/sanitize.hpp"
#include "backends/cpu/emu/schedule.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

namespace {

constexpr int kBarriers = 16;

std::uint32_t key_pc(std::uint64_t key) {
  return static_cast<std::uint32_t>(key);
}

const char* kind_name(std::uint8_t kind) {
  switch (kind) {
  case 1:
    return "shfl.sync";
  case 2:
    return "vote.sync";
  case 3:
    return "redux.sync";
  case 5:
    return "match.sync";
  default:
    return "bar.warp.sync";
  }
}

} // namespace

void Interpreter::barrier(Warp& w, const Inst& in, std::uint32_t exec) {
  // Every lane of the group goes on past the barrier when it resumes.
  const std::uint64_t next = w.group_key + 1;
  if (w.group == kFullMask)
    std::fill_n(w.keys, kWarpSize, next);
  else
    for (std::uint32_t g = w.group; g; g &= g - 1)
      w.keys[std::countr_zero(g)] = next;
  int arrived_at = -1;
  if (exec) {
    int lane = std::countr_zero(exec);
    auto id = in.a == kNoReg ? 0u : static_cast<std::uint32_t>(w.reg(in.a)[lane]);
    auto count = in.b == kNoReg ? 0u : static_cast<std::uint32_t>(w.reg(in.b)[lane]);
    if (id >= kBarriers)
      throw Fault{fmt::format("used barrier {} (a block has barriers 0 to 15)", id), lane};
    if (in.b != kNoReg && (count == 0 || count % kWarpSize != 0))
      throw Fault{fmt::format("used barrier {} with a thread count of {} (must be a non-zero "
                              "multiple of 32)",
                              id, count),
                  lane};
    if (m_block.arrived[id] == 0)
      m_block.expected[id] = static_cast<int>(count);
    else if (m_block.expected[id] != static_cast<int>(count))
      throw Fault{fmt::format("used barrier {} with thread count {} while other threads wait "
                              "there with count {}",
                              id, count, m_block.expected[id]),
                  lane};
    m_block.arrived[id] += count_lanes(exec);
    m_block.pending_barriers |= 1u << id;
    arrived_at = static_cast<int>(id);
    if (in.b == kNoReg) {
      m_block.counted_barrier = true;
      if (exec == kFullMask)
        for (int l = 0; l < kWarpSize; ++l)
          ++w.barriers_reached[l];
      else
        for (std::uint32_t g = exec; g; g &= g - 1)
          ++w.barriers_reached[std::countr_zero(g)];
      m_last_barrier_pc = static_cast<std::uint32_t>(&in - m_program.code.data());
    }
    if (in.aux != 0) {
      std::uint32_t p = w.preds[in.c];
      if (in.flags & kNegC)
        p = ~p;
      m_block.predicates_true[id] += std::popcount(p & exec);
    }
    if (in.control == Control::bar_sync) {
      w.blocked |= exec;
      w.at_barrier[id] |= exec;
      if (in.aux != 0) {
        m_block.reduction_waiting[id] = true;
        for (std::uint32_t g = exec; g; g &= g - 1)
          w.reduction_of[std::countr_zero(g)] = &in;
      }
      w.resume_key = exec == w.group && exec == w.live && !w.parked ? next : 0;
    }
  }
  w.group = 0;
  if (arrived_at >= 0)
    release_barrier(arrived_at);
  schedule(w);
}

void Interpreter::release_barrier_if_complete() {
  for (std::uint32_t p = m_block.pending_barriers; p; p &= p - 1)
    release_barrier(std::countr_zero(p));
}

void Interpreter::release_barrier(int id) {
  const int arrived = m_block.arrived[id];
  if (arrived == 0)
    return;
  const int need = m_block.expected[id] ? m_block.expected[id] : m_block.live_threads;
  if (arrived < need)
    return;
  if (m_block.shadow)
    m_block.shadow->barrier();
  const int true_count = m_block.predicates_true[id];
  const bool reductions = m_block.reduction_waiting[id];
  m_block.pending_barriers &= ~(1u << id);
  m_block.arrived[id] = 0;
  m_block.expected[id] = 0;
  m_block.predicates_true[id] = 0;
  m_block.reduction_waiting[id] = false;
  for (Warp& w : m_block.warps) {
    const std::uint32_t release = w.at_barrier[id];
    if (!release)
      continue;
    w.at_barrier[id] = 0;
    w.blocked &= ~release;
    // A bar.red hands every thread that waited the reduction over all that arrived.
    if (reductions)
      for (std::uint32_t g = release; g; g &= g - 1) {
        const int l = std::countr_zero(g);
        if (const Inst* r = w.reduction_of[l]) {
          if (r->aux == kBarRedPopc) {
            w.reg(r->d)[l] = static_cast<std::uint32_t>(true_count);
          } else {
            const bool bit = r->aux == kBarRedAnd ? true_count == arrived : true_count > 0;
            w.preds[r->d] = (w.preds[r->d] & ~(1u << l)) | (static_cast<std::uint32_t>(bit) << l);
          }
          w.reduction_of[l] = nullptr;
        }
      }
    if (w.resume_key && release == w.live && !w.parked) {
      // The whole warp waited here together: it goes on as one group.
      w.group = w.live;
      w.group_key = w.resume_key;
      w.pc = key_pc(w.resume_key);
      w.waiting_min = ~std::uint64_t{0};
    }
    w.resume_key = 0;
  }
}

void Interpreter::throw_deadlock() {
  const Dim3& b = m_block.index;
  for (const Warp& w : m_block.warps) {
    if (!w.parked)
      continue;
    int lane = std::countr_zero(w.parked);
    const Inst& in = m_program.code[key_pc(w.keys[lane])];
    std::uint32_t missing = w.sync_mask[lane] & w.existed & ~w.parked;
    throw device_error(fmt::format(
        "kernel '{}' deadlocked in block ({},{},{}): warp {} lanes {:#010x} wait at {} (PTX line "
        "{}) for member lanes {:#010x}, which never reach it",
        m_launch.kernel->name, b.x, b.y, b.z, w.index, w.parked, kind_name(in.sync_kind), in.line,
        missing));
  }
  int arrived = 0;
  for (int a : m_block.arrived)
    arrived += a;
  const std::size_t threads = m_block.warps.size() * kWarpSize;
  std::vector<bool> waiting(threads), missing(threads);
  std::uint32_t barrier_pc = 0;
  int barrier_id = -1;
  for (const Warp& w : m_block.warps)
    for (std::uint32_t g = w.live; g; g &= g - 1) {
      const int l = std::countr_zero(g);
      const std::size_t t = std::size_t(w.index) * kWarpSize + l;
      if (w.blocked >> l & 1) {
        waiting[t] = true;
        barrier_pc = key_pc(w.keys[l]) - 1; // the lane waits past its bar.sync
        for (int id = 0; id < kBarriers; ++id)
          if (w.at_barrier[id] >> l & 1)
            barrier_id = id;
      } else {
        missing[t] = true;
      }
    }
  std::string who =
      fmt::format("{} wait{} at bar.sync ({}); {}", thread_ranges(m_launch.block, waiting),
                  arrived == 1 ? "s" : "", source_text(m_launch, barrier_pc),
                  std::find(missing.begin(), missing.end(), true) == missing.end()
                      ? fmt::format("barrier {} waits for a thread count of {}, "
                                    "which the live threads never reach",
                                    barrier_id, barrier_id >= 0 ? m_block.expected[barrier_id] : 0)
                      : fmt::format("{} never arrive", thread_ranges(m_launch.block, missing)));
  throw device_error(fmt::format("kernel '{}' deadlocked at bar.sync in block ({},{},{}): {} of "
                                 "{} live threads arrived: {}",
                                 m_launch.kernel->name, b.x, b.y, b.z, arrived,
                                 m_block.live_threads, who));
}

void Interpreter::check_barrier_counts() {
  // The most and the fewest barriers any thread of the block reached, with the first thread of
  // each; agreeing counts are the rule, so the common case is one pass with no formatting.
  if (!m_block.counted_barrier)
    return;
  std::uint32_t most = 0, fewest = ~0u;
  int most_warp = 0, most_lane = 0, fewest_warp = 0, fewest_lane = 0;
  for (const Warp& w : m_block.warps)
    for (std::uint32_t g = w.existed; g; g &= g - 1) {
      const int l = std::countr_zero(g);
      const std::uint32_t n = w.barriers_reached[l];
      if (n > most) {
        most = n;
        most_warp = w.index;
        most_lane = l;
      }
      if (n < fewest) {
        fewest = n;
        fewest_warp = w.index;
        fewest_lane = l;
      }
    }
  if (fewest == ~0u || most == fewest)
    return;
  const Dim3& b = m_block.index;
  if (m_launch.synccheck) {
    // Name every thread: those that reached the most barriers and those that fell short.
    const std::size_t threads = m_block.warps.size() * kWarpSize;
    std::vector<bool> full(threads), short_(threads);
    for (const Warp& w : m_block.warps)
      for (std::uint32_t g = w.existed; g; g &= g - 1) {
        const int l = std::countr_zero(g);
        const std::size_t t = std::size_t(w.index) * kWarpSize + l;
        (w.barriers_reached[l] == most ? full : short_)[t] = true;
      }
    const std::uint32_t pc = m_last_barrier_pc;
    m_launch.findings.report(
        FindingKey{Tool::synccheck, 0, pc, most - fewest}, Severity::error,
        report_order(m_block, 0), [&] {
          return fmt::format("divergent barrier in kernel '{}' block ({},{},{}): {} reached "
                             "{} block-wide barrier{} (the last at {}), {} reached fewer "
                             "(as few as {}) and exited without the others",
                             m_launch.kernel->name, b.x, b.y, b.z,
                             thread_ranges(m_launch.block, full), most, most == 1 ? "" : "s",
                             source_text(m_launch, pc), thread_ranges(m_launch.block, short_),
                             fewest);
        });
    return;
  }
  record_barrier_mismatch(m_launch, b, thread_index(m_launch.block, most_warp, most_lane), most,
                          thread_index(m_launch.block, fewest_warp, fewest_lane), fewest);
}

void record_barrier_mismatch(LaunchState& launch, Dim3 block, Dim3 most_thread,
                             std::uint32_t most, Dim3 fewest_thread, std::uint32_t fewest) {
  std::string finding = fmt::format(
      "kernel '{}' block ({},{},{}): its threads reached different numbers of block-wide "
      "barriers (__syncthreads): thread ({},{},{}) {}, thread ({},{},{}) {} — a barrier in "
      "divergent code, undefined behaviour in CUDA (a GPU may hang, or release the barrier early)",
      launch.kernel->name, block.x, block.y, block.z, most_thread.x, most_thread.y, most_thread.z,
      most, fewest_thread.x, fewest_thread.y, fewest_thread.z, fewest);
  std::lock_guard lock(launch.findings_mutex);
  if (launch.barrier_mismatch_blocks++ == 0)
    launch.barrier_mismatch = std::move(finding);
}

void Interpreter::warp_collective(Warp& w, const Inst& in, std::uint32_t exec) {
  if (!exec) {
    advance(w);
    return;
  }
  const std::uint64_t* members = w.reg(in.e);
  std::uint32_t need = 0;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    int l = std::countr_zero(g);
    w.sync_mask[l] = static_cast<std::uint32_t>(members[l]);
    need |= w.sync_mask[l];
  }
  if (m_launch.synccheck)
    check_member_masks(w, in, exec);
  // Lanes past the end of a partial last warp never exist; naming them is harmless.
  need &= w.existed;
  if (!(need & ~exec) && !w.parked) { // the common case: the whole membership is here
    run_whole_collective(w, in, exec);
    return;
  }
  if (std::uint32_t gone = need & ~w.live) {
    const int lane = std::countr_zero(exec);
    if (!m_launch.synccheck)
      throw Fault{fmt::format("executed {} with member mask {:#010x}, but lane {} of it has exited",
                              kind_name(in.sync_kind), w.sync_mask[lane], std::countr_zero(gone)),
                  lane};
    // A finding; the collective then goes on with the members that are left.
    report_exited_members(w, in, exec, gone);
    need &= w.live;
    if (!(need & ~exec) && !w.parked) {
      run_whole_collective(w, in, exec);
      return;
    }
  }
  spill_group(w);
  for (std::uint32_t g = w.group & ~exec; g; g &= g - 1)
    w.keys[std::countr_zero(g)] = w.group_key + 1;
  w.parked |= exec;
  w.group = 0;
  if (ready_lanes(w, in.sync_kind) & exec)
    run_collective(w, ready_lanes(w, in.sync_kind));
  schedule(w);
}

void Interpreter::run_whole_collective(Warp& w, const Inst& in, std::uint32_t exec) {
  w.sync_active = exec;
  in.fn(w, in, exec);
  if (m_block.shadow)
    note_warp_sync(w, exec);
  advance(w);
}

std::uint32_t Interpreter::ready_lanes(const Warp& w, std::uint8_t sync_kind) const {
  // The lanes that can go: parked at a collective of this kind with all their members parked too.
  std::uint32_t ready = 0;
  for (std::uint32_t p = w.parked; p; p &= p - 1) {
    int l = std::countr_zero(p);
    if (m_program.code[key_pc(w.keys[l])].sync_kind == sync_kind)
      ready |= 1u << l;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t r = ready; r; r &= r - 1) {
      int l = std::countr_zero(r);
      if (w.sync_mask[l] & w.existed & ~ready) {
        ready &= ~(1u << l);
        changed = true;
      }
    }
  }
  return ready;
}

void Interpreter::report_exited_members(Warp& w, const Inst& in, std::uint32_t lanes,
                                        std::uint32_t gone) {
  const std::uint32_t pc = static_cast<std::uint32_t>(&in - m_program.code.data());
  for (std::uint32_t g = lanes; g; g &= g - 1) {
    const int l = std::countr_zero(g);
    const std::uint32_t missing = w.sync_mask[l] & gone;
    if (!missing)
      continue;
    m_launch.findings.report(
        FindingKey{Tool::synccheck, 3, pc, 0}, Severity::error,
        report_order(m_block, static_cast<std::uint32_t>(w.index) * kWarpSize + l), [&] {
          const Dim3 t = thread_index(m_launch.block, w.index, l);
          const Dim3& b = m_block.index;
          return fmt::format(
              "{} with member mask {:#010x} in kernel '{}' block ({},{},{}) thread ({},{},{}) "
              "(warp {} lane {}) at {}: lanes {:#010x} of the mask exited without reaching it",
              kind_name(in.sync_kind), w.sync_mask[l], m_launch.kernel->name, b.x, b.y, b.z, t.x,
              t.y, t.z, w.index, l, source_text(m_launch, pc), missing);
        });
    // The lanes that are left go on without the ones that exited.
    w.sync_mask[l] &= ~gone;
  }
}

void Interpreter::run_collective(Warp& w, std::uint32_t lanes) {
  const Inst* code = m_program.code.data();
  // Every lane's own source value (its own instruction's operand), read before any lane writes.
  std::uint64_t value[kWarpSize];
  std::uint32_t pred_value = 0;
  std::uint32_t pcs_left = lanes;
  bool single_pc = true;
  std::uint32_t first_pc = key_pc(w.keys[std::countr_zero(lanes)]);
  for (std::uint32_t g = lanes; g; g &= g - 1) {
    int l = std::countr_zero(g);
    const Inst& li = code[key_pc(w.keys[l])];
    single_pc = single_pc && key_pc(w.keys[l]) == first_pc;
    if (li.a == kNoReg)
      continue;
    if (li.sync_kind == 2) {
      bool bit = (w.preds[li.a] >> l & 1) != ((li.flags & kNegA) != 0);
      pred_value |= static_cast<std::uint32_t>(bit) << l;
    } else {
      value[l] = w.reg(li.a)[l];
    }
  }
  w.sync_active = lanes;
  while (pcs_left) {
    std::uint32_t pc = key_pc(w.keys[std::countr_zero(pcs_left)]);
    std::uint32_t here = 0;
    for (std::uint32_t g = pcs_left; g; g &= g - 1) {
      int l = std::countr_zero(g);
      if (key_pc(w.keys[l]) == pc)
        here |= 1u << l;
    }
    pcs_left &= ~here;
    const Inst& in = code[pc];
    std::uint32_t others = single_pc || in.a == kNoReg ? 0 : lanes & ~here;
    if (!others) {
      in.fn(w, in, here);
      continue;
    }
    // Show this instruction's handler the other lanes' own values in its source operand.
    if (in.sync_kind == 2) {
      std::uint32_t saved = w.preds[in.a];
      std::uint32_t view = (in.flags & kNegA) ? ~pred_value : pred_value;
      w.preds[in.a] = (saved & ~others) | (view & others);
      in.fn(w, in, here);
      w.preds[in.a] = (w.preds[in.a] & ~others) | (saved & others);
    } else {
      std::uint64_t saved[kWarpSize];
      std::uint64_t* src = w.reg(in.a);
      for (std::uint32_t g = others; g; g &= g - 1) {
        int l = std::countr_zero(g);
        saved[l] = src[l];
        src[l] = value[l];
      }
      in.fn(w, in, here);
      for (std::uint32_t g = others; g; g &= g - 1) {
        int l = std::countr_zero(g);
        src[l] = saved[l];
      }
    }
  }
  if (m_block.shadow)
    note_warp_sync(w, lanes);
  for (std::uint32_t g = lanes; g; g &= g - 1)
    ++w.keys[std::countr_zero(g)];
  w.parked &= ~lanes;
}

void Interpreter::check_member_masks(Warp& w, const Inst& in, std::uint32_t exec) {
  for (std::uint32_t g = exec; g; g &= g - 1) {
    const int l = std::countr_zero(g);
    const std::uint32_t mask = w.sync_mask[l];
    const bool self = (mask >> l & 1) != 0;
    const std::uint32_t absent = mask & ~w.existed;
    if (self && !absent)
      continue;
    const std::uint32_t pc = static_cast<std::uint32_t>(&in - m_program.code.data());
    m_launch.findings.report(
        FindingKey{Tool::synccheck, self ? 2u : 1u, pc, 0}, Severity::error,
        report_order(m_block, static_cast<std::uint32_t>(w.index) * kWarpSize + l), [&] {
          const Dim3 t = thread_index(m_launch.block, w.index, l);
          const Dim3& b = m_block.index;
          return fmt::format(
              "invalid member mask {:#010x} of {} in kernel '{}' block ({},{},{}) thread "
              "({},{},{}) (warp {} lane {}) at {}: {}",
              mask, kind_name(in.sync_kind), m_launch.kernel->name, b.x, b.y, b.z, t.x, t.y, t.z,
              w.index, l, source_text(m_launch, pc),
              self ? fmt::format("it names lanes {:#010x}, which the warp does not have", absent)
                   : std::string("it does not include the calling lane"));
        });
  }
}

void Interpreter::check_parked_members(Warp& w) {
  for (std::uint32_t p = w.parked; p; p &= p - 1) {
    int l = std::countr_zero(p);
    if (!(w.parked >> l & 1))
      continue; // released by a collective that went on without an exited member
    if (std::uint32_t gone = w.sync_mask[l] & w.existed & ~w.live) {
      const Inst& in = m_program.code[key_pc(w.keys[l])];
      if (m_launch.synccheck) {
        // A finding; the parked lanes go on without the member that exited.
        report_exited_members(w, in, 1u << l, gone);
        if (std::uint32_t ready = ready_lanes(w, in.sync_kind))
          run_collective(w, ready);
        continue;
      }
      int lane = std::countr_zero(gone);
      throw Fault{fmt::format("lane {} exited while lanes {:#010x} wait for it at {} (PTX line {}, "
                              "member mask {:#010x})",
                              lane, w.parked, kind_name(in.sync_kind), in.line, w.sync_mask[l]),
                  lane};
    }
  }
}

} // namespace gpurun::emu
