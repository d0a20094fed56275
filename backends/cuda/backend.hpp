#pragma once
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The CUDA backend (driver API + NVRTC, both opened with dlopen).
[[nodiscard]] std::unique_ptr<Backend> make_cuda_backend();
} // namespace gpurun
