#pragma once
// The checks of --racecheck and --initcheck (and --memcheck's device-heap blocks) on every load,
// store and atomic, run only when one of them is on: the handlers call sanitize_access() after
// translating the lanes' addresses and before touching memory, behind one branch.
//
// racecheck keeps, for every byte of the block's shared memory, the last write and the last two
// reads by different threads, each with the barrier epoch it happened in: an access by another
// thread in the same epoch, not ordered by a warp-level collective both threads took part in, is
// a hazard. initcheck keeps "written" marks for shared memory (per block), local memory (per
// thread) and device allocations (per byte, DeviceMemory's shadow).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

enum class Access : std::uint8_t { load, store, atomic };

/// The sanitizers' per-worker state for the block it runs; reused from block to block.
class BlockShadow {
public:
  BlockShadow(std::size_t shared_bytes, std::size_t local_bytes);
  /// A new block: nothing of shared or local memory is written, no access is recorded.
  void begin_block() noexcept;
  /// A block-wide barrier completed: accesses before it are ordered with those after it.
  void barrier() noexcept { ++m_epoch; }

  struct Record {
    std::uint32_t epoch = 0; ///< 0: none
    std::uint32_t thread = 0;
    std::uint32_t pc = 0;
    std::uint32_t warp_sync = 0; ///< the warp's collective count at the access
  };
  struct SharedByte {
    Record write;
    Record read[2];
    bool write_changed = false; ///< the write changed the byte (else a same-value write)
    std::uint32_t written = 0;  ///< block serial of the last write (initcheck)
  };

  std::vector<SharedByte> shared;
  std::vector<std::uint32_t> local_written; ///< block serial of the last write, per local byte
  std::uint32_t epoch() const noexcept { return m_epoch; }
  std::uint32_t serial() const noexcept { return m_serial; }

private:
  std::uint32_t m_epoch = 0;
  std::uint32_t m_serial = 0;
};

/// A warp collective ran for `lanes`: their accesses before it are ordered with those after.
inline void note_warp_sync(Warp& w, std::uint32_t lanes) {
  ++w.sync_count;
  each_lane(lanes, [&](int l) { w.lane_sync[l] = w.sync_count; });
}

/// initcheck: the host wrote `bytes` bytes of a thread's local memory at `host` (call arguments,
/// return values, the results of vprintf, malloc).
void note_local_written(const Block& b, const std::byte* host, std::size_t bytes);

/// "PTX line 88 (matmul.cu:23)" for instruction `pc`.
[[nodiscard]] std::string source_text(const LaunchState& launch, std::uint32_t pc);
/// "threads (0..15,0,0), (32..47,0,0)": the threads of `block` set in `set` (linear index), as
/// runs of x for one (y, z).
[[nodiscard]] std::string thread_ranges(const Dim3& block, const std::vector<bool>& set);

/// Checks and records one instruction's access for the lanes in `mask`; `p` holds each lane's
/// translated host pointer, `bytes` the whole access. Stores are checked before they write.
void sanitize_access(Warp& w, const Inst& in, std::uint32_t mask, unsigned bytes, Access kind,
                     std::byte* const* p);

} // namespace gpurun::emu
