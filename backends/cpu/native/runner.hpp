#pragma once
// Runs blocks of a launch with a kernel's native code on one worker thread: the block's threads
// wait at regions (native/translate.hpp); the lowest region any thread waits at runs next, for
// the threads waiting there — the interpreter's lowest-PC rule applied block-wide, so a barrier
// region runs once every thread has reached it.
#include <cstdint>
#include <memory>
#include <vector>

#include "backends/cpu/emu/warp.hpp"
#include "backends/cpu/native/abi.hpp"
#include "backends/cpu/native/compiled_kernel.hpp"

namespace gpurun::native {

class BlockRunner {
public:
  BlockRunner(emu::LaunchState& launch, std::shared_ptr<const CompiledKernel> kernel);
  /// Runs one block. False when a thread's access faulted: the block stopped there, and the
  /// caller re-runs it on the interpreter, which names the thread, line and buffer. Throws
  /// emu::Cancelled when the launch was cancelled (a timeout).
  [[nodiscard]] bool run_block(Dim3 index);
  /// "thread (x,y,z), PTX line N": where the fault of the last failed block was.
  [[nodiscard]] std::string fault_location() const;

private:
  /// At the end of a block: its threads must have reached the same number of block-wide
  /// barriers; a mismatch is recorded for the launch's warning, as the interpreter words it.
  void check_barrier_counts(Dim3 index);

  emu::LaunchState& m_launch;
  std::shared_ptr<const CompiledKernel> m_kernel;
  native_abi::Launch m_abi;
  native_abi::Block m_block;
  std::vector<std::uint64_t> m_regs;
  std::vector<std::uint32_t> m_regs32;
  std::vector<std::uint8_t> m_preds;
  std::vector<std::uint32_t> m_at;
  std::vector<std::uint32_t> m_resume;
  std::vector<std::uint32_t> m_barriers;
  std::vector<native_abi::Window> m_sites;
  std::vector<std::uint64_t> m_memo;
  std::vector<std::uint8_t> m_shared;
};

/// The shared memory a block of this launch gets, as the interpreter lays it out.
[[nodiscard]] std::size_t block_shared_bytes(const emu::LaunchState& launch);

} // namespace gpurun::native
