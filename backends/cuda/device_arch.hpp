#pragma once
#include <string>
#include <vector>

namespace gpurun::cuda {

/// The NVRTC target for a device of compute capability major.minor, given the architectures
/// this NVRTC supports ("75", "80", …; empty when it cannot say): the device's own "sm_XY"
/// (a cubin) when NVRTC knows it, else — for a device newer than NVRTC — the newest
/// "compute_XY" it knows, whose PTX the driver JIT-compiles for the device. An older device
/// than NVRTC supports keeps "sm_XY", so that NVRTC's own error names the problem.
[[nodiscard]] std::string default_compile_target(int major, int minor,
                                                 const std::vector<std::string>& nvrtc_archs);

} // namespace gpurun::cuda
