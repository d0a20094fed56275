#pragma once
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The OpenCL backend: every device of every platform the ICD loader (opened with dlopen) lists.
[[nodiscard]] std::unique_ptr<Backend> make_opencl_backend();
} // namespace gpurun
