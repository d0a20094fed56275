#pragma once
// Execution state of one block and its warps. Registers are lane-major per warp
// (regs[r * 32 + lane]) so that a handler works on 32 contiguous values; predicates are 32-bit
// lane masks.
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/emu/findings.hpp"
#include "backends/cpu/emu/memory.hpp"
#include "backends/cpu/emu/program.hpp"
#include "base/dims.hpp"

namespace gpurun::native {
class CompiledKernel;
}

namespace gpurun::emu {

class DeviceHeap;
class BlockShadow;

inline constexpr int kWarpSize = 32;
inline constexpr std::uint32_t kFullMask = 0xffffffffu;

/// State shared by every block of one launch.
struct LaunchState {
  const Program* program = nullptr;
  const DecodedFunction* kernel = nullptr;
  Dim3 grid;
  Dim3 block;
  std::size_t dynamic_shared = 0;
  std::uint64_t grid_id = 0;     ///< %gridid: the context's launch number, from 1
  std::vector<std::byte> params; ///< the kernel parameter buffer (read-only)
  MemoryMap memory;
  bool memcheck = false;
  bool racecheck = false;     ///< shared-memory hazards between threads of a block
  bool initcheck = false;     ///< reads of memory never written
  bool synccheck = false;     ///< barriers and collectives not every member reaches
  DeviceHeap* heap = nullptr; ///< in-kernel malloc/free (the context's; null when unused)
  /// The kernel's native code when the compiled engine runs this launch (null: interpreted).
  std::shared_ptr<const native::CompiledKernel> native;
  int workers = 1;
  std::atomic<bool> cancel{false};
  // Written at the end of every block: kept off the line holding `cancel`, which workers poll.
  alignas(64) std::atomic<std::uint64_t> warp_instructions{0};
  std::atomic<std::uint64_t> lane_instructions{0};
  /// Counted after every block when set (the context's progress counter).
  std::atomic<std::uint64_t>* blocks_done = nullptr;
  std::mutex output_mutex; ///< device printf, failed asserts: one call's text is written at once
  /// Receives device printf text (under output_mutex); empty: the process's standard output.
  std::function<void(std::string_view)> device_output;
  /// Device printf is bounded as the GPU's printf buffer is: a call whose record does not fit in
  /// what is left of `printf_capacity` bytes is dropped (and counted).
  std::size_t printf_capacity = 0;
  std::size_t printf_used = 0; ///< under output_mutex
  std::uint64_t printf_calls = 0;
  std::uint64_t printf_dropped = 0;
  /// The line of the first failed device assert (under output_mutex): what the launch's error
  /// names, whichever worker's throw ends the launch.
  std::string first_assertion;
  Findings findings; ///< the sanitizers' findings
  std::mutex findings_mutex;
  /// Blocks whose threads reached different numbers of block-wide barriers, and the first one.
  std::uint64_t barrier_mismatch_blocks = 0;
  std::string barrier_mismatch;
};

/// One frame of a lane's call stack.
struct CallFrame {
  std::uint32_t return_pc = 0;
  std::uint32_t frame_base = 0; ///< the caller's frame base
  std::uint32_t call_site = 0;
};

struct Block;

struct Warp {
  Block* block = nullptr;
  std::uint64_t* regs = nullptr;  ///< register_count × 32
  std::uint32_t* preds = nullptr; ///< predicate_count
  int index = 0;                  ///< warp index within the block
  std::uint32_t live = 0;         ///< lanes that exist and have not exited
  std::uint32_t blocked = 0;      ///< lanes waiting at bar.sync
  std::uint32_t parked = 0;       ///< lanes waiting at a .sync warp collective for their members
  std::uint32_t existed = 0;      ///< lanes the block has (exited lanes are existed & ~live)
  std::uint32_t carry = 0;        ///< CC.CF of each lane (add.cc / addc …)
  std::uint32_t sync_active = 0;  ///< lanes taking part in the collective being executed
  std::uint32_t sync_count = 0;   ///< racecheck: warp collectives run so far in this block
  std::uint32_t lane_sync[kWarpSize] = {}; ///< racecheck: sync_count at each lane's last one
  // The group: lanes at the lowest (call depth, PC) key run together at `pc`.
  std::uint32_t group = 0;
  std::uint32_t pc = 0;
  std::uint64_t group_key = 0;
  std::uint64_t waiting_min = ~std::uint64_t{0}; ///< lowest key of the other runnable lanes
  std::uint64_t keys[kWarpSize] = {};            ///< key of lanes outside the group
  std::uint32_t depth[kWarpSize] = {};
  std::uint32_t frame_base[kWarpSize] = {};
  std::uint32_t sync_mask[kWarpSize] = {}; ///< member mask of a parked lane
  std::uint32_t at_barrier[16] = {};       ///< the blocked lanes waiting at each named barrier
  /// The key every live lane resumes at when they all wait at one barrier, arrived together
  /// (then the release hands the warp back as one group without scheduling); else 0.
  std::uint64_t resume_key = 0;
  /// Block-wide barriers (no thread count) each lane reached: the block's threads must agree.
  std::uint32_t barriers_reached[kWarpSize] = {};
  const Inst* reduction_of[kWarpSize] = {}; ///< the bar.red a blocked lane waits at (else null)
  std::vector<CallFrame> stacks[kWarpSize];
  std::vector<std::uint64_t> saves[kWarpSize]; ///< registers saved across recursive calls
  const Allocation* cached = nullptr; ///< last global allocation hit (most accesses repeat it)
  /// The ones hit before it, most recent first (a kernel reading a and b and writing c).
  const Allocation* recent[3] = {};
  /// The allocation each of a few instructions hit last, by PC (an instruction keeps to one
  /// buffer; consecutive instructions often do not).
  struct InstAllocation {
    std::uint32_t pc = ~0u;
    const Allocation* allocation = nullptr;
  };
  InstAllocation by_inst[8] = {};

  [[nodiscard]] std::uint64_t* reg(std::uint32_t r) noexcept { return regs + std::size_t{r} * 32; }
};

/// One block, run cooperatively by one worker thread.
struct Block {
  LaunchState* launch = nullptr;
  Dim3 index;
  std::byte* shared = nullptr;
  std::size_t shared_bytes = 0;
  const SharedVariable* shared_vars = nullptr; ///< by offset (memcheck)
  std::size_t shared_var_count = 0;
  BlockShadow* shadow = nullptr; ///< racecheck/initcheck state, else null
  bool sanitize = false;         ///< loads and stores call sanitize_access()
  std::byte* local = nullptr;    ///< thread t's local memory: local + t * local_per_thread
  std::size_t local_per_thread = 0;
  std::vector<Warp> warps;
  int live_threads = 0;
  /// A thread of the block reached a block-wide barrier (else every count is 0 and agrees).
  bool counted_barrier = false;
  bool reduction_waiting[16] = {};    ///< a bar.red waits at the named barrier
  std::uint32_t pending_barriers = 0; ///< named barriers some thread has arrived at (bit per id)
  /// Named barriers 0..15: threads arrived, and the thread count that completes them (0 = all
  /// live threads).
  int arrived[16] = {};
  int expected[16] = {};
  int predicates_true[16] = {}; ///< bar.red: arrived threads whose predicate was true
  std::uint64_t warp_instructions = 0;
  std::uint64_t lane_instructions = 0;

  [[nodiscard]] std::byte* local_of(int warp, int lane) const noexcept {
    return local + (std::size_t(warp) * kWarpSize + lane) * local_per_thread;
  }
};

/// Where thread `thread` of block `b` is in the launch, for ordering sanitizer findings.
[[nodiscard]] inline std::uint64_t report_order(const Block& b, std::uint32_t thread) {
  const Dim3& g = b.launch->grid;
  return occurrence_order(
      b.index.x + std::uint64_t{g.x} * (b.index.y + std::uint64_t{g.y} * b.index.z), thread);
}

/// Lane-order iteration over a mask; the full-mask case is a plain loop the compiler vectorises.
/// The number of lanes in `mask` (a whole warp is the rule; std::popcount is a library call on
/// baseline x86-64).
inline int count_lanes(std::uint32_t mask) noexcept {
  return mask == kFullMask ? kWarpSize : std::popcount(mask);
}

template <class F> inline void each_lane(std::uint32_t mask, F&& f) {
  if (mask == kFullMask) {
    for (int l = 0; l < kWarpSize; ++l)
      f(l);
  } else {
    while (mask) {
      int l = __builtin_ctz(mask);
      mask &= mask - 1;
      f(l);
    }
  }
}

/// A device-side fault: thrown by handlers, turned into Error(device) with the location.
struct Fault {
  std::string what;
  int lane = 0;
};

} // namespace gpurun::emu
