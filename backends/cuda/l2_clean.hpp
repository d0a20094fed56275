#pragma once
// Leaving the L2 cache clean between counter passes: a kernel reads a buffer of twice the L2's
// size, one word per 32-byte sector, so that the lines of earlier work (the kernel's data, the
// inputs just copied back) are evicted, the dirty ones written back, and the cache holds only
// clean lines of that buffer. A pass then counts its kernel's DRAM traffic alone, as after
// Nsight Compute's cache flush; writing a flush buffer instead (what benchmark samples do) would
// leave dirty lines whose write-back the next kernel's counters would include.
#include "backends/cuda/driver_types.hpp"

#include <cstddef>
#include <memory>
#include <string_view>

#include "backends/cuda/context_state.hpp"

namespace gpurun::cuda {

/// The PTX of `gpurun_l2_clean(const u32* buffer, u64 sectors, u32* sink)`: reads word 0 of every
/// 32-byte sector of buffer with ld.global.cg (cached in L2 only) and stores their xor to sink
/// only when it equals a constant, so that the loads cannot be dropped.
[[nodiscard]] std::string_view l2_clean_ptx();

class L2Cleaner {
public:
  /// A buffer of 2 × `l2_bytes`, and the kernel loaded in the context.
  L2Cleaner(std::shared_ptr<ContextState> state, std::size_t l2_bytes, int multiprocessors);
  ~L2Cleaner();
  L2Cleaner(const L2Cleaner&) = delete;
  L2Cleaner& operator=(const L2Cleaner&) = delete;

  /// Enqueues the read on the context's stream.
  void clean();

private:
  void release() noexcept;

  std::shared_ptr<ContextState> m_state;
  CUdeviceptr m_buffer = 0;
  CUdeviceptr m_sink = 0;
  unsigned long long m_sectors = 0;
  unsigned m_blocks = 1;
  CUmodule m_module = nullptr;
  CUfunction m_function = nullptr;
};

} // namespace gpurun::cuda
