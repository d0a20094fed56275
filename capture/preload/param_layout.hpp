#pragma once
// Where a launch's parameter layout comes from: the driver (cuFuncGetParamInfo, or
// cuKernelGetParamInfo for a library kernel; driver 12.4+), else — where the driver has neither,
// or refuses them — the module image the kernel came from (capture/image_params), read once per
// image.
#include <vector>

#include "capture/pointer_scan.hpp"
#include "capture/preload/program_state.hpp"

namespace gpurun::capture::preload {

/// Each parameter's offset and size for a launch of `function` (a CUfunction, or a CUkernel
/// where `info` says so), on a device of architecture `arch` (90 for sm_90; it picks a fat
/// binary's cubin). Throws std::runtime_error saying why when neither the driver nor the image
/// can tell.
[[nodiscard]] std::vector<ParamSlot> param_slots(const void* function, const KernelInfo& info,
                                                 unsigned arch);

} // namespace gpurun::capture::preload
