#pragma once
// Runs blocks of a launch: the warps of a block cooperatively on the calling thread (switching
// warps at barriers), each warp's lanes in lock-step groups at the lowest (call depth, PC).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/cpu/emu/sanitize.hpp"
#include "backends/cpu/emu/warp.hpp"

namespace gpurun::emu {

/// Thrown when the launch's cancel flag was seen (a timeout in synchronize()).
struct Cancelled {};

/// One per worker thread: owns the block's register files, shared and local memory and reuses
/// them from block to block.
class Interpreter {
public:
  /// `worker` is the pool thread's index, reported as %smid.
  Interpreter(LaunchState& launch, int worker);
  /// Adds the worker's instruction counts to the launch's.
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;
  /// Runs one block to completion. Throws Error(device) for faults, trap, failed asserts and
  /// memcheck findings, Cancelled when the launch was cancelled.
  void run_block(Dim3 block_index);

private:
  void start_block(Dim3 block_index);
  /// Special register `s` of lane `l` of `w` in the current block.
  [[nodiscard]] std::uint64_t special_value(Special s, const Warp& w, int l) const;
  void run_warp(Warp& w);
  void step_control(Warp& w, const Inst& in, std::uint32_t exec);
  void call(Warp& w, const Inst& in, std::uint32_t exec);
  void ret(Warp& w, const Inst& in, std::uint32_t exec);
  void exit_lanes(Warp& w, std::uint32_t lanes);
  void device_printf(Warp& w, const Inst& in, std::uint32_t exec);
  void barrier(Warp& w, const Inst& in, std::uint32_t exec);
  /// Releases every named barrier whose thread count has arrived (after lanes exit).
  void release_barrier_if_complete();
  /// Releases named barrier `id` if its thread count has arrived.
  void release_barrier(int id);
  [[noreturn]] void throw_deadlock();
  /// At the end of a block: its threads must have reached the same number of block-wide
  /// barriers. A mismatch (a barrier in divergent code) is recorded for the launch's warnings.
  void check_barrier_counts();
  void warp_collective(Warp& w, const Inst& in, std::uint32_t exec);
  void run_collective(Warp& w, std::uint32_t lanes);
  void run_whole_collective(Warp& w, const Inst& in, std::uint32_t exec);
  /// The parked lanes at a collective of this kind whose members are all parked too.
  std::uint32_t ready_lanes(const Warp& w, std::uint8_t sync_kind) const;
  /// synccheck: members of the lanes' masks in `gone` exited before reaching the collective.
  void report_exited_members(Warp& w, const Inst& in, std::uint32_t lanes, std::uint32_t gone);
  void check_parked_members(Warp& w);
  /// synccheck: a member mask without the calling lane, or naming lanes the warp lacks.
  void check_member_masks(Warp& w, const Inst& in, std::uint32_t exec);
  [[noreturn]] void trap(Warp& w, const Inst& in, std::uint32_t exec);
  /// A failed device assert (`call __assertfail`): every lane in `exec` prints the GPU's line on
  /// standard error, then the launch ends with the launch's first one as its device error.
  [[noreturn]] void assert_fail(Warp& w, const Inst& in, std::uint32_t exec);

  LaunchState& m_launch;
  const Program& m_program;
  Block m_block;
  std::vector<std::uint64_t> m_regs;
  std::vector<std::uint32_t> m_preds;
  /// The special registers that differ from block to block (filled by start_block).
  std::vector<std::pair<std::uint32_t, Special>> m_block_specials;
  std::vector<std::byte> m_shared;
  std::vector<SharedVariable> m_shared_vars;
  std::size_t m_reserved_shared = 0; ///< offset of the reserved region (uses_reserved_shared)
  std::vector<std::byte> m_local;
  std::unique_ptr<BlockShadow> m_shadow;
  std::uint32_t m_last_barrier_pc = 0; ///< the last block-wide bar.sync (synccheck)
  std::uint32_t m_cancel_countdown = 0;
  int m_worker = 0;
};

/// Records, for the launch's warning, that the threads of `block` reached different numbers of
/// block-wide barriers: `most_thread` (the first with the most) `most`, `fewest_thread` `fewest`.
void record_barrier_mismatch(LaunchState& launch, Dim3 block, Dim3 most_thread,
                             std::uint32_t most, Dim3 fewest_thread, std::uint32_t fewest);

/// "(x,y,z)" of thread `lane` of warp `warp` in a block of shape `block`.
[[nodiscard]] Dim3 thread_index(const Dim3& block, int warp, int lane) noexcept;

} // namespace gpurun::emu
