#pragma once
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The CPU backend: NVRTC's PTX run by the emulator.
[[nodiscard]] std::unique_ptr<Backend> make_cpu_backend();
} // namespace gpurun
