#pragma once
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The HIP backend (the HIP runtime and hipRTC, both opened with dlopen).
[[nodiscard]] std::unique_ptr<Backend> make_hip_backend();
} // namespace gpurun
