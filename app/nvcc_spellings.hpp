#pragma once
// nvcc's spellings of compile options, rewritten into gpurun's before the command line is parsed
// (docs/nvcc-flags.md has the table): `-arch=sm_90` → `--arch sm_90`, `--use_fast_math` →
// `--opt --use_fast_math`, … so that a kernel author's habits work.
#include <string>
#include <vector>

namespace gpurun {

/// `args` with every nvcc spelling replaced by gpurun's equivalent; other words are unchanged.
[[nodiscard]] std::vector<std::string> rewrite_nvcc_spellings(std::vector<std::string> args);

} // namespace gpurun
