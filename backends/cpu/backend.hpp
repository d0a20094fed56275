#pragma once
#include <cstddef>
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The CPU backend: NVRTC's PTX run by the emulator; one device unless set_device_count
/// (`--cpu-devices N`: N virtual devices, for multi-device work without GPUs; a count of 0 or
/// above k_max_cpu_devices is an Error(usage), as is a malformed GPURUN_TEST_FAIL_DEVICE).
[[nodiscard]] std::unique_ptr<Backend> make_cpu_backend();

/// The most virtual devices `--cpu-devices` makes.
inline constexpr std::size_t k_max_cpu_devices = 64;

} // namespace gpurun
