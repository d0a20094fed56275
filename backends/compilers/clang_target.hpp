#pragma once
// Which GPU architecture clang compiles for when asked for compute_XX, and which PTX ISA it emits.
#include <string>
#include <vector>

namespace gpurun::clang_cuda {

/// The --cuda-gpu-arch numbers (50 = sm_50 …) that clang of this major version accepts, oldest
/// first; clang 14 stops at sm_86, clang 16 adds sm_87, sm_89 and sm_90, clang 20 sm_100 and
/// sm_120.
[[nodiscard]] std::vector<int> supported_archs(int clang_major);

/// The architectures to try for `target` ("compute_90"), best first: the newest one clang supports
/// that is not newer than the request, then the older ones (a clang that turns one down is asked
/// for the next). Throws Error(usage) for a cubin target ("sm_90": clang produces PTX only), for a
/// malformed one, and for one older than every supported architecture.
[[nodiscard]] std::vector<int> arch_candidates(const std::string& target, int clang_major);

/// The PTX ISA version to ask for (the target feature +ptxNN) for sm_`arch`: the one the
/// architecture needs, and at least 6.0, which the *_sync warp intrinsics need.
[[nodiscard]] int ptx_isa(int arch);

} // namespace gpurun::clang_cuda
