#pragma once
// Kernel parameter layouts read from the module image a kernel came from, for a driver that cannot
// report them (cuFuncGetParamInfo and cuKernelGetParamInfo came with driver 12.4, and a driver may
// refuse them): PTX text gives each `.entry`'s parameter list (backends/kit/ptx_entries), a cubin
// its `.nv.info` sections (backends/kit/cubin_params), and a fat binary the cubin the driver would
// run on the device — the highest architecture of the device's major version not above it — or
// else the PTX it would compile (kit::fatbin_ptx).
#include <cstddef>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "backends/kit/module_image.hpp"
#include "capture/pointer_scan.hpp"

namespace gpurun::capture {

/// Each kernel's parameters in order, by the kernel's name as the module has it.
using ParamLayouts = std::map<std::string, std::vector<ParamSlot>, std::less<>>;

/// Every kernel of `image`, an image of kind `kind`, for a device of architecture `arch` (90 for
/// sm_90). Throws kit::ImageError for an image of no kind it reads and for a fat binary with
/// neither a cubin the device runs nor PTX, and the readers' errors (kit::CubinError,
/// kit::PtxSyntaxError) for an image they cannot read.
[[nodiscard]] ParamLayouts image_param_layouts(std::span<const std::byte> image,
                                               kit::ImageKind kind, unsigned arch);

} // namespace gpurun::capture
