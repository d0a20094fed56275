#include "backends/cpu/emu/interpreter.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "backends/cpu/emu/address_space.hpp"
#include "backends/cpu/emu/device_heap.hpp"
#include "backends/cpu/emu/sanitize.hpp"
#include "backends/cpu/emu/schedule.hpp"
#include "base/error.hpp"

namespace gpurun::emu {

namespace {

constexpr std::uint32_t kCancelInterval = 4096;
// Instructions a warp runs before the other warps of its block get a turn, so that a warp
// spinning on shared memory (cooperative groups' multi-warp barriers) lets the warps it waits
// for arrive. Counted per turn, so the interleaving is the same on every run.
constexpr std::uint32_t kWarpTurn = 1u << 16;
// Unused bytes between the block's shared memory and the reserved region (memcheck).
constexpr std::size_t kReservedRedzone = 256;

std::string location(const LaunchState& launch, const Block& b, const Warp& w, int lane,
                     const Inst& in) {
  Dim3 t = thread_index(launch.block, w.index, lane);
  std::string src;
  if (in.source_line > 0) {
    auto it = launch.program->files.find(in.source_file);
    std::string file = it == launch.program->files.end() ? "?" : it->second;
    auto slash = file.find_last_of('/');
    if (slash != std::string::npos)
      file = file.substr(slash + 1);
    src = fmt::format(" ({}:{})", file, in.source_line);
  }
  return fmt::format("at block ({},{},{}) thread ({},{},{}), PTX line {}{}", b.index.x, b.index.y,
                     b.index.z, t.x, t.y, t.z, in.line, src);
}

} // namespace

Dim3 thread_index(const Dim3& block, int warp, int lane) noexcept {
  std::uint64_t t = std::uint64_t(warp) * kWarpSize + lane;
  return Dim3{static_cast<std::uint32_t>(t % block.x),
              static_cast<std::uint32_t>(t / block.x % block.y),
              static_cast<std::uint32_t>(t / (std::uint64_t{block.x} * block.y))};
}

Interpreter::Interpreter(LaunchState& launch, int worker)
    : m_launch(launch), m_program(*launch.program), m_worker(worker) {
  m_block.launch = &launch;
  std::size_t threads = launch.block.volume();
  std::size_t warps = (threads + kWarpSize - 1) / kWarpSize;
  m_regs.assign(warps * m_program.register_count * kWarpSize, 0);
  m_preds.assign(warps * std::max<std::uint32_t>(m_program.predicate_count, 1), 0);
  std::size_t shared = m_program.shared_layout_bytes;
  if (launch.dynamic_shared)
    shared =
        (shared + m_program.shared_align - 1) / m_program.shared_align * m_program.shared_align +
        launch.dynamic_shared;
  m_shared_vars = m_program.shared_variables;
  if (m_program.uses_reserved_shared) {
    // The driver's reserved region lies before the block's own shared memory on a GPU; here it
    // follows it, past a redzone, so the kernel's own shared addresses stay where they were.
    m_reserved_shared = (shared + kReservedRedzone + kSharedAllocationUnit - 1) /
                        kSharedAllocationUnit * kSharedAllocationUnit;
    shared = m_reserved_shared + kReservedSharedBytes;
    m_shared_vars.push_back(SharedVariable{"reserved shared memory",
                                           static_cast<std::uint32_t>(m_reserved_shared),
                                           kReservedSharedBytes, false});
  }
  m_shared.assign(shared, std::byte{0});
  m_local.assign(warps * kWarpSize * m_program.local_bytes_per_thread, std::byte{0});
  for (auto& v : m_shared_vars)
    if (v.dynamic)
      v.size = static_cast<std::uint32_t>(launch.dynamic_shared);
  m_block.shared_vars = m_shared_vars.data();
  m_block.shared_var_count = m_shared_vars.size();
  m_block.shared = m_shared.data();
  m_block.shared_bytes = shared;
  m_block.local = m_local.data();
  m_block.local_per_thread = m_program.local_bytes_per_thread;
  if (launch.racecheck || launch.initcheck) {
    m_shadow = std::make_unique<BlockShadow>(shared, m_local.size());
    m_block.shadow = m_shadow.get();
  }
  m_block.sanitize = m_block.shadow != nullptr || (launch.memcheck && launch.heap != nullptr);
  m_block.warps.resize(warps);
  for (std::size_t i = 0; i < warps; ++i) {
    Warp& w = m_block.warps[i];
    w.block = &m_block;
    w.index = static_cast<int>(i);
    w.regs = m_regs.data() + i * m_program.register_count * kWarpSize;
    w.preds = m_preds.data() + i * std::max<std::uint32_t>(m_program.predicate_count, 1);
  }
  // Constants and special registers live in slots no instruction writes: those that are the same
  // in every block are filled once here, the block's own (%ctaid, %clusterid) by start_block.
  for (const auto& [r, s] : m_program.specials) {
    const bool per_block = s == Special::ctaid_x || s == Special::ctaid_y ||
                           s == Special::ctaid_z || s == Special::clusterid_x ||
                           s == Special::clusterid_y || s == Special::clusterid_z;
    if (per_block)
      m_block_specials.emplace_back(r, s);
  }
  for (Warp& w : m_block.warps) {
    for (const auto& [r, v] : m_program.constants)
      std::fill_n(w.regs + std::size_t{r} * kWarpSize, kWarpSize, v);
    for (const auto& [r, s] : m_program.specials)
      for (int l = 0; l < kWarpSize; ++l)
        w.regs[std::size_t{r} * kWarpSize + l] = special_value(s, w, l);
  }
}

std::uint64_t Interpreter::special_value(Special s, const Warp& w, int l) const {
  const LaunchState& L = m_launch;
  const Dim3& index = m_block.index;
  const Dim3 t = thread_index(L.block, w.index, l);
  std::uint64_t v = 0;
  switch (s) {
  case Special::tid_x:
    v = t.x;
    break;
  case Special::tid_y:
    v = t.y;
    break;
  case Special::tid_z:
    v = t.z;
    break;
  case Special::ntid_x:
    v = L.block.x;
    break;
  case Special::ntid_y:
    v = L.block.y;
    break;
  case Special::ntid_z:
    v = L.block.z;
    break;
  case Special::ctaid_x:
    v = index.x;
    break;
  case Special::ctaid_y:
    v = index.y;
    break;
  case Special::ctaid_z:
    v = index.z;
    break;
  case Special::nctaid_x:
    v = L.grid.x;
    break;
  case Special::nctaid_y:
    v = L.grid.y;
    break;
  case Special::nctaid_z:
    v = L.grid.z;
    break;
  case Special::laneid:
    v = static_cast<std::uint64_t>(l);
    break;
  case Special::warpid:
    v = static_cast<std::uint64_t>(w.index);
    break;
  case Special::nwarpid:
    v = m_block.warps.size();
    break;
  case Special::smid:
    v = static_cast<std::uint64_t>(m_worker);
    break;
  case Special::nsmid:
    v = static_cast<std::uint64_t>(L.workers);
    break;
  case Special::lanemask_eq:
    v = 1u << l;
    break;
  case Special::lanemask_lt:
    v = (1u << l) - 1;
    break;
  case Special::lanemask_le:
    v = l == 31 ? kFullMask : (2u << l) - 1;
    break;
  case Special::lanemask_gt:
    v = l == 31 ? 0 : ~((2u << l) - 1);
    break;
  case Special::lanemask_ge:
    v = ~((1u << l) - 1);
    break;
  case Special::warpsize:
    v = kWarpSize;
    break;
  case Special::gridid:
    v = L.grid_id;
    break;
  case Special::is_explicit_cluster:
  case Special::cluster_ctaid_x:
  case Special::cluster_ctaid_y:
  case Special::cluster_ctaid_z:
  case Special::cluster_ctarank:
  case Special::zero:
    v = 0;
    break;
  case Special::clusterid_x:
    v = index.x;
    break;
  case Special::clusterid_y:
    v = index.y;
    break;
  case Special::clusterid_z:
    v = index.z;
    break;
  case Special::nclusterid_x:
    v = L.grid.x;
    break;
  case Special::nclusterid_y:
    v = L.grid.y;
    break;
  case Special::nclusterid_z:
    v = L.grid.z;
    break;
  case Special::cluster_nctaid_x:
  case Special::cluster_nctaid_y:
  case Special::cluster_nctaid_z:
  case Special::cluster_nctarank:
    v = 1;
    break;
  case Special::total_smem_size:
  case Special::aggr_smem_size:
    // Static and dynamic shared memory as the kernel's attributes report them, in
    // allocation units; the aggregate adds the reserved region.
    v = (m_program.static_shared_bytes + L.dynamic_shared + kSharedAllocationUnit - 1) /
        kSharedAllocationUnit * kSharedAllocationUnit;
    if (s == Special::aggr_smem_size)
      v += kReservedSharedBytes;
    break;
  case Special::dynamic_smem_size:
    v = L.dynamic_shared;
    break;
  case Special::reserved_smem_begin:
  case Special::reserved_smem_0:
    v = kSharedBase + m_reserved_shared;
    break;
  case Special::reserved_smem_1:
    v = kSharedBase + m_reserved_shared + kReservedSharedSecondOffset;
    break;
  case Special::reserved_smem_end:
    v = kSharedBase + m_reserved_shared + kReservedSharedBytes;
    break;
  case Special::reserved_smem_cap:
    v = kReservedSharedBytes;
    break;
  }
  return v;
}

void Interpreter::start_block(Dim3 index) {
  const LaunchState& L = m_launch;
  m_block.index = index;
  std::uint64_t threads = L.block.volume();
  m_block.live_threads = static_cast<int>(threads);
  // What barriers leave behind: the counts (only a block that reached one has any); a released
  // barrier clears its own waiting lanes and reductions, so those start cleared.
  if (m_block.counted_barrier)
    for (Warp& w : m_block.warps)
      std::fill(std::begin(w.barriers_reached), std::end(w.barriers_reached), 0u);
  m_block.counted_barrier = false;
  m_block.pending_barriers = 0;
  std::fill(std::begin(m_block.arrived), std::end(m_block.arrived), 0);
  std::fill(std::begin(m_block.expected), std::end(m_block.expected), 0);
  std::fill(std::begin(m_block.predicates_true), std::end(m_block.predicates_true), 0);
  std::fill(std::begin(m_block.reduction_waiting), std::end(m_block.reduction_waiting), false);
  // Shared memory starts zeroed on every block so results never depend on a previous block.
  std::fill(m_shared.begin(), m_shared.end(), std::byte{0});
  if (m_shadow)
    m_shadow->begin_block();
  for (Warp& w : m_block.warps) {
    std::uint64_t* regs = w.regs;
    for (const auto& [r, s] : m_block_specials) // the same in every lane
      std::fill_n(regs + std::size_t{r} * kWarpSize, kWarpSize, special_value(s, w, 0));
    if (m_program.pred_true != kNoReg)
      w.preds[m_program.pred_true] = kFullMask;
    if (m_program.pred_false != kNoReg)
      w.preds[m_program.pred_false] = 0;
    std::uint64_t first = std::uint64_t(w.index) * kWarpSize;
    std::uint64_t count = std::min<std::uint64_t>(kWarpSize, threads - first);
    w.live = count >= 32 ? kFullMask : (1u << count) - 1;
    w.blocked = 0;
    w.parked = 0;
    w.resume_key = 0;
    w.existed = w.live;
    if (m_shadow) { // racecheck's warp-level ordering starts over with the block
      w.sync_count = 0;
      std::fill(std::begin(w.lane_sync), std::end(w.lane_sync), 0u);
    }
    w.carry = 0;
    // w.cached, w.recent and w.by_inst carry over: the launch's allocations stay put.
    std::fill(std::begin(w.depth), std::end(w.depth), 0u);
    std::fill(std::begin(w.frame_base), std::end(w.frame_base), 0u);
    std::fill(std::begin(w.keys), std::end(w.keys), make_key(0, L.kernel->begin));
    for (int l = 0; l < kWarpSize; ++l) {
      w.stacks[l].clear();
      w.saves[l].clear();
    }
    w.group = w.live;
    w.pc = L.kernel->begin;
    w.group_key = make_key(0, L.kernel->begin);
    w.waiting_min = ~std::uint64_t{0};
  }
}

void Interpreter::run_block(Dim3 index) {
  start_block(index);
  for (;;) {
    bool any_live = false;
    bool ran = false;
    for (Warp& w : m_block.warps) {
      if (w.live & ~w.blocked & ~w.parked) {
        if (!w.group)
          schedule(w);
        run_warp(w);
        ran = true;
      }
      any_live = any_live || w.live;
    }
    if (!any_live)
      break;
    if (!ran)
      throw_deadlock();
  }
  check_barrier_counts();
}

Interpreter::~Interpreter() {
  // The worker's instruction counts reach the launch once, not after every block: the counters
  // are shared by every worker.
  m_launch.warp_instructions.fetch_add(m_block.warp_instructions, std::memory_order_relaxed);
  m_launch.lane_instructions.fetch_add(m_block.lane_instructions, std::memory_order_relaxed);
}

void Interpreter::run_warp(Warp& w) {
  const Inst* code = m_program.code.data();
  std::uint64_t warp_count = 0, lane_count = 0;
  std::uint32_t turn = kWarpTurn;
  const bool others = m_block.warps.size() > 1;
  try {
    while (w.group) {
      if (--turn == 0) [[unlikely]] {
        if (others)
          break; // run_block comes back to this warp at w.pc
        turn = kWarpTurn;
      }
      const Inst& in = code[w.pc];
      std::uint32_t exec = w.group;
      if (in.guard != kNoReg) {
        std::uint32_t p = w.preds[in.guard];
        exec &= in.guard_negated ? ~p : p;
      }
      ++warp_count;
      // Like thread_inst_executed: lanes whose guard is false still issued the instruction.
      // (A whole warp is the rule; std::popcount is a library call on baseline x86-64.)
      lane_count +=
          w.group == kFullMask ? kWarpSize : static_cast<unsigned>(std::popcount(w.group));
      if (in.control == Control::none) [[likely]] {
        if (exec)
          in.fn(w, in, exec);
        advance(w);
      } else {
        step_control(w, in, exec);
      }
      if (++m_cancel_countdown >= kCancelInterval) [[unlikely]] {
        m_cancel_countdown = 0;
        if (m_launch.cancel.load(std::memory_order_relaxed))
          throw Cancelled{};
      }
    }
  } catch (const Fault& f) {
    m_block.warp_instructions += warp_count;
    m_block.lane_instructions += lane_count;
    throw device_error(fmt::format("kernel '{}' {} {}", m_launch.kernel->name, f.what,
                                   location(m_launch, m_block, w, f.lane, code[w.pc])));
  }
  m_block.warp_instructions += warp_count;
  m_block.lane_instructions += lane_count;
}

void Interpreter::step_control(Warp& w, const Inst& in, std::uint32_t exec) {
  switch (in.control) {
  case Control::none:
    break;
  case Control::bra: {
    std::uint32_t stay = w.group & ~exec;
    if (!stay) {
      jump(w, in.target);
    } else if (!exec) {
      advance(w);
    } else {
      std::uint32_t depth = key_depth(w.group_key);
      for (std::uint32_t g = exec; g; g &= g - 1)
        w.keys[std::countr_zero(g)] = make_key(depth, in.target);
      for (std::uint32_t g = stay; g; g &= g - 1)
        w.keys[std::countr_zero(g)] = w.group_key + 1;
      w.group = 0;
      schedule(w);
    }
    break;
  }
  case Control::exit: {
    std::uint32_t stay = w.group & ~exec;
    exit_lanes(w, exec);
    w.group = stay;
    if (stay)
      advance(w);
    else
      schedule(w);
    break;
  }
  case Control::ret:
    ret(w, in, exec);
    break;
  case Control::call:
    call(w, in, exec);
    break;
  case Control::vprintf:
    device_printf(w, in, exec);
    advance(w);
    break;
  case Control::heap_call:
    device_heap_call(w, in, exec);
    advance(w);
    break;
  case Control::trap:
    if (exec)
      trap(w, in, exec);
    advance(w);
    break;
  case Control::assert_fail:
    if (exec)
      assert_fail(w, in, exec);
    advance(w);
    break;
  case Control::bar_sync:
  case Control::bar_arrive:
    barrier(w, in, exec);
    break;
  case Control::warp_sync:
    warp_collective(w, in, exec);
    break;
  }
}

void Interpreter::exit_lanes(Warp& w, std::uint32_t lanes) {
  lanes &= w.live;
  w.live &= ~lanes;
  m_block.live_threads -= std::popcount(lanes);
  if (w.parked)
    check_parked_members(w);
  release_barrier_if_complete();
}

void Interpreter::call(Warp& w, const Inst& in, std::uint32_t exec) {
  const CallSite& site = m_program.call_sites[in.aux];
  const DecodedFunction& callee = m_program.functions[site.callee];
  std::uint32_t depth = key_depth(w.group_key);
  spill_group(w);
  for (std::uint32_t g = w.group & ~exec; g; g &= g - 1)
    w.keys[std::countr_zero(g)] = w.group_key + 1;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    int l = std::countr_zero(g);
    std::uint32_t base = w.frame_base[l] + static_cast<std::uint32_t>(in.imm);
    if (std::uint64_t{base} + callee.frame_bytes > m_block.local_per_thread || depth + 1 >= 0xfff0)
      throw Fault{fmt::format("overflowed its {}-byte call stack calling '{}'",
                              m_block.local_per_thread, callee.name),
                  l};
    std::byte* local = m_block.local_of(w.index, l);
    for (std::size_t i = 0; i < site.args.size() && i < callee.params.size(); ++i) {
      const std::size_t n = std::min(site.args[i].size, callee.params[i].size);
      std::memcpy(local + base + callee.params[i].offset,
                  local + w.frame_base[l] + site.args[i].offset, n);
      note_local_written(m_block, local + base + callee.params[i].offset, n);
    }
    if (callee.recursive) {
      auto& save = w.saves[l];
      for (std::uint32_t r = callee.reg_begin; r < callee.reg_end; ++r)
        save.push_back(w.reg(r)[l]);
      for (std::uint32_t p = callee.pred_begin; p < callee.pred_end; ++p)
        save.push_back(w.preds[p] >> l & 1);
    }
    w.stacks[l].push_back(CallFrame{w.pc + 1, w.frame_base[l], in.aux});
    w.frame_base[l] = base;
    w.keys[l] = make_key(depth + 1, callee.begin);
  }
  w.group = 0;
  schedule(w);
}

void Interpreter::ret(Warp& w, const Inst& in, std::uint32_t exec) {
  std::uint32_t depth = key_depth(w.group_key);
  if (depth == 0) { // returning from the kernel ends the thread
    std::uint32_t stay = w.group & ~exec;
    exit_lanes(w, exec);
    w.group = stay;
    if (stay)
      advance(w);
    else
      schedule(w);
    return;
  }
  spill_group(w);
  for (std::uint32_t g = w.group & ~exec; g; g &= g - 1)
    w.keys[std::countr_zero(g)] = w.group_key + 1;
  for (std::uint32_t g = exec; g; g &= g - 1) {
    int l = std::countr_zero(g);
    CallFrame frame = w.stacks[l].back();
    w.stacks[l].pop_back();
    const CallSite& site = m_program.call_sites[frame.call_site];
    const DecodedFunction& callee = m_program.functions[site.callee];
    std::byte* local = m_block.local_of(w.index, l);
    for (std::size_t i = 0; i < site.rets.size() && i < callee.returns.size(); ++i) {
      const std::size_t n = std::min(site.rets[i].size, callee.returns[i].size);
      std::memcpy(local + frame.frame_base + site.rets[i].offset,
                  local + w.frame_base[l] + callee.returns[i].offset, n);
      note_local_written(m_block, local + frame.frame_base + site.rets[i].offset, n);
    }
    if (callee.recursive) {
      auto& save = w.saves[l];
      for (std::uint32_t p = callee.pred_end; p-- > callee.pred_begin;) {
        std::uint32_t bit = static_cast<std::uint32_t>(save.back()) << l;
        save.pop_back();
        w.preds[p] = (w.preds[p] & ~(1u << l)) | bit;
      }
      for (std::uint32_t r = callee.reg_end; r-- > callee.reg_begin;) {
        w.reg(r)[l] = save.back();
        save.pop_back();
      }
    }
    w.frame_base[l] = frame.frame_base;
    w.keys[l] = make_key(depth - 1, frame.return_pc);
  }
  w.group = 0;
  schedule(w);
}

void Interpreter::trap(Warp& w, const Inst& in, std::uint32_t exec) {
  int lane = std::countr_zero(exec);
  throw device_error(fmt::format("kernel '{}' executed trap {}", m_launch.kernel->name,
                                 location(m_launch, m_block, w, lane, in)));
}

} // namespace gpurun::emu
