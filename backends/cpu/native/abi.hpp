#pragma once
// What the CPU backend's compiled engine and the code it generates share: a launch's read-only
// description, a worker's per-block state, and the exported region functions. The generated C++
// includes this header (gpurun hands it to the compiler with the numeric headers), so it depends
// on nothing but the standard library.
#include <cstdint>

namespace gpurun::native_abi {

/// Bumped whenever this layout or the generated code's meaning changes: part of the cache key.
inline constexpr std::uint32_t kVersion = 10;

/// How many sets of values whose checks passed each memoized region keeps (the last ones).
inline constexpr std::uint32_t kMemoEntries = 16;
static_assert((kMemoEntries & (kMemoEntries - 1)) == 0, "entries are replaced in turn by a mask");

/// Where a lane's thread is when the block is not running: a region index, or kDone.
inline constexpr std::uint32_t kDone = 0xffffffffu;

/// One device allocation (or the block's shared memory) as [base, base + size) → host.
struct Window {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::uint8_t* host = nullptr;
};

struct Block;

/// Exact translation of one access the fast path could not take (another allocation, the
/// generic window, or a fault): the host pointer, or null after recording the fault in `b`.
/// `site` indexes Block::sites, whose hint it updates.
using TranslateFn = std::uint8_t* (*)(Block* b, std::uint64_t address, std::uint32_t bytes,
                                      std::uint32_t space, std::uint32_t write, std::uint32_t site,
                                      std::uint32_t line, std::uint32_t thread);

/// The special-function unit's `.approx` results and div.full, as the interpreter computes them
/// (emu/sfu.cpp, from tables gpurun carries): called, not inlined, so the bits are its own.
struct SpecialFunctions {
  float (*rcp)(float, bool) = nullptr;
  float (*sqrt)(float, bool) = nullptr;
  float (*rsqrt)(float, bool) = nullptr;
  float (*ex2)(float, bool) = nullptr;
  float (*lg2)(float, bool) = nullptr;
  float (*sin)(float, bool) = nullptr;
  float (*cos)(float, bool) = nullptr;
  float (*tanh)(float) = nullptr;
  float (*div_approx)(float, float, bool) = nullptr;
  float (*div_full)(float, float, bool) = nullptr;
  double (*rcp_ftz_f64)(double) = nullptr;
  double (*rsqrt_f64)(double) = nullptr;
  double (*rsqrt_ftz_f64)(double) = nullptr;
};

/// A launch, the same for every block.
struct Launch {
  const std::uint8_t* params = nullptr;
  std::uint32_t grid[3] = {1, 1, 1};
  std::uint32_t block[3] = {1, 1, 1};
  std::uint32_t threads = 1; ///< block[0] * block[1] * block[2]
  std::uint64_t grid_id = 0;
  TranslateFn translate = nullptr;
  const SpecialFunctions* sfu = nullptr;
  void* host = nullptr; ///< the engine's own state, for `translate`
};

/// A worker's state for the block it runs. Registers and predicates are stored per slot, one
/// entry per thread ([slot * threads + thread]), so a region's lane loop reads them as vectors;
/// a register is in `regs32` or in `regs`, as the generated code decided.
struct Block {
  const Launch* launch = nullptr;
  std::uint32_t ctaid[3] = {0, 0, 0};
  std::uint64_t* regs = nullptr;
  std::uint32_t* regs32 = nullptr; ///< registers never written wider than 32 bits
  std::uint8_t* preds = nullptr;
  std::uint32_t* at = nullptr;     ///< per thread: the region it waits at, or kDone
  std::uint32_t* resume = nullptr; ///< per thread: 1 + the site the fast path left it at, or 0
  std::uint32_t* barriers = nullptr; ///< per thread: the block-wide barriers it reached
  Window* sites = nullptr;         ///< per memory instruction: the window it last hit
  /// The checks' memo, kept for the whole launch (zeroed when it starts): per memoized region
  /// (Kernel::memo_regions) the count of entries kept and the entry that last matched, then
  /// kMemoEntries entries, each with per row of threads (ty + ntid.y * tz) Kernel::memo_slots
  /// values.
  std::uint64_t* memo = nullptr;
  Window shared;                   ///< the block's shared memory
  // The first fault (set by translate): the thread (linear index) and the PTX line.
  std::uint32_t fault = 0;
  std::uint32_t fault_thread = 0;
  std::uint32_t fault_line = 0;
};

/// What a region returns when the threads must be scanned to know where they wait.
inline constexpr std::uint32_t kScan = 0xfffffffeu;

/// A region's lane loop over every thread waiting at it (`all`: every thread of the block is).
/// Returns where every thread of the block waits now (a region, or kDone) when that is known
/// without looking (each ran the region and it has one way out, with no thread left to resume),
/// else kScan.
using RegionFn = std::uint32_t (*)(Block* b, std::uint32_t all);
/// One thread's rest of a region from where the fast path left it: 0, or 1 after a fault.
using ResumeFn = int (*)(Block* b, std::uint32_t thread, std::uint32_t site);

/// What a pass over a block's threads found.
struct Scan {
  std::uint32_t lowest = kDone; ///< the lowest region a thread waits at
  std::uint32_t waiting = 0;    ///< how many threads wait there
  std::uint32_t resume = 0;     ///< nonzero when a thread must be resumed (Block::resume)
  std::uint32_t fewest = 0;     ///< the fewest block-wide barriers a thread reached
  std::uint32_t most = 0;       ///< the most
};
using ScanFn = void (*)(const Block* b, Scan* s);

/// Where the threads wait after a region ran, and whether any must be resumed. Defined here so
/// that the generated module compiles it for the host's vectors, as it does the regions.
inline void scan_threads(const Block* b, Scan* s) {
  const std::uint32_t n = b->launch->threads;
  const std::uint32_t* const at = b->at;
  const std::uint32_t* const resume = b->resume;
  std::uint32_t lowest = kDone, highest = 0, any = 0;
  for (std::uint32_t t = 0; t < n; ++t) {
    lowest = at[t] < lowest ? at[t] : lowest;
    highest = at[t] > highest ? at[t] : highest;
    any |= resume[t];
  }
  s->lowest = lowest;
  s->resume = any;
  s->waiting = n;
  if (lowest == highest) // the usual case: every thread waits at the same region
    return;
  std::uint32_t waiting = 0;
  for (std::uint32_t t = 0; t < n; ++t)
    waiting += at[t] == lowest ? 1u : 0u;
  s->waiting = waiting;
}

/// Where every thread waits when that is one place (a region, or kDone), else kScan: after a
/// loop that ran every thread and cannot leave one to resume, for a region with several ways out.
inline std::uint32_t one_place(const Block* b) {
  const std::uint32_t n = b->launch->threads;
  const std::uint32_t* const at = b->at;
  std::uint32_t lowest = kDone, highest = 0;
  for (std::uint32_t t = 0; t < n; ++t) {
    lowest = at[t] < lowest ? at[t] : lowest;
    highest = at[t] > highest ? at[t] : highest;
  }
  return lowest == highest ? lowest : kScan;
}

/// Where every thread waits after a loop without checks that ran them all, from the ways they
/// left it (bit r for region r < 31, bit 31 for the end or a higher region): one way is the
/// answer; bit 31 alone needs the pass over the threads; several ways need the runner's scan.
inline std::uint32_t one_way(const Block* b, std::uint32_t ways) {
  if (ways == 0x80000000u)
    return one_place(b);
  if (ways != 0 && (ways & (ways - 1)) == 0)
    return static_cast<std::uint32_t>(__builtin_ctz(ways));
  return kScan;
}

/// At the end of a block: the fewest and the most barriers its threads reached.
inline void count_barriers(const Block* b, Scan* s) {
  const std::uint32_t n = b->launch->threads;
  const std::uint32_t* const reached = b->barriers;
  std::uint32_t fewest = 0xffffffffu, most = 0;
  for (std::uint32_t t = 0; t < n; ++t) {
    fewest = reached[t] < fewest ? reached[t] : fewest;
    most = reached[t] > most ? reached[t] : most;
  }
  s->fewest = fewest;
  s->most = most;
}

/// What the generated module exports as `gpurun_native_kernel`.
struct Kernel {
  std::uint32_t version = kVersion;
  std::uint32_t regions = 0;
  std::uint32_t sites = 0;
  std::uint32_t register_slots = 0;
  std::uint32_t predicate_slots = 0;
  const RegionFn* fast = nullptr;
  const ResumeFn* resume = nullptr;
  ScanFn scan = nullptr;     ///< scan_threads, compiled with the regions
  ScanFn barriers = nullptr; ///< count_barriers, likewise; null when the kernel has no barrier
  std::uint32_t memo_regions = 0;
  std::uint32_t memo_slots = 0;
};

} // namespace gpurun::native_abi
