#pragma once
// What the pipeline needs from a .ptx source without parsing it fully: the kernel names and their
// parameter types, so that arguments to a PTX kernel are checked like those of a CUDA kernel.
#include <string>
#include <string_view>
#include <vector>

#include "core/signature.hpp"

namespace gpurun {

/// Names of the `.entry` kernels in PTX text, in order.
[[nodiscard]] std::vector<std::string> ptx_entry_names(std::string_view ptx);

/// A signature built from an entry's `.param` list: .u64/.b64 parameters accept a buffer of any
/// type or a 64-bit scalar; other widths are scalars of that type.
[[nodiscard]] KernelSignature ptx_signature(std::string_view ptx, const std::string& entry);

} // namespace gpurun
