#pragma once
// Kernel names and parameter layouts read from PTX text. The driver can report both for any
// module from 12.4 on (cuModuleEnumerateFunctions, cuFuncGetParamInfo); this is the fallback for
// older drivers when the module was loaded from PTX.
#include <string>
#include <string_view>
#include <vector>

#include "backends/backend.hpp"

namespace gpurun::cuda {

struct PtxEntry {
  std::string name;
  /// Offsets as the launch parameter buffer lays them out: each parameter aligned to its
  /// alignment (.align N, else its element size).
  std::vector<ParamLayout> params;
};

/// Every `.entry` in PTX text, in order. Unrecognized parameter declarations get size 0.
[[nodiscard]] std::vector<PtxEntry> parse_ptx_entries(std::string_view ptx);

} // namespace gpurun::cuda
