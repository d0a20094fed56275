#pragma once
// Per-kernel resources from ptxas's verbose report (NVRTC with --ptxas-options=-v), so that
// `gpurun compile --resources` reports the real register counts of a cubin with no GPU present.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpurun {

struct PtxasKernelInfo {
  std::string name; ///< the (lowered) entry name
  std::string arch; ///< "sm_90"
  int registers = -1;
  int barriers = 0;
  std::size_t shared_bytes = 0; ///< static shared memory (smem)
  std::size_t stack_frame_bytes = 0;
  std::size_t spill_store_bytes = 0;
  std::size_t spill_load_bytes = 0;
  std::size_t constant_bytes = 0; ///< cmem[0] (parameters and compiler constants)
};

/// Parses every "Compiling entry function 'k' for 'sm_90'" block of a ptxas -v log; entries
/// are in log order. Lines it does not know are ignored.
[[nodiscard]] std::vector<PtxasKernelInfo> parse_ptxas_info(std::string_view log);

} // namespace gpurun
