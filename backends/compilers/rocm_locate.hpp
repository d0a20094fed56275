#pragma once
// Where ROCm's libraries are looked for: the HIP runtime (libamdhip64), which the hip backend
// opens and which holds hipRTC up to ROCm 5, and hipRTC's own libhiprtc from ROCm 6 on. Each name
// is tried by soname first, then under $ROCM_PATH/lib and /opt/rocm/lib.
#include <string>
#include <vector>

namespace gpurun::rocm {

/// The candidates tried for the runtime, in order: $GPURUN_HIP_LIBRARY when set (alone), else
/// libamdhip64.so.7, .6, .5, libamdhip64.so, then the same names under $ROCM_PATH/lib and
/// /opt/rocm/lib.
[[nodiscard]] std::vector<std::string> runtime_candidates();

/// libhiprtc.so.7, .6, libhiprtc.so, then the same names under $ROCM_PATH/lib and /opt/rocm/lib.
[[nodiscard]] std::vector<std::string> hiprtc_candidates();

/// The first attempt's reason of dl::open_first's error ("libamdhip64.so.7: cannot open shared
/// object file"): the one that names what is missing; the other attempts differ only in the
/// version.
[[nodiscard]] std::string first_reason(const std::string& error);

} // namespace gpurun::rocm
