#pragma once
// Per-kernel resources from ptxas's verbose report (NVRTC with --ptxas-options=-v), so that
// `gpurun compile --resources` reports the real register counts of a cubin with no GPU present.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun {

/// Parses every "Compiling entry function 'k' for 'sm_90'" block of a ptxas -v log; entries
/// are in log order. Lines it does not know are ignored.
[[nodiscard]] std::vector<PtxasKernelInfo> parse_ptxas_info(std::string_view log);

} // namespace gpurun
