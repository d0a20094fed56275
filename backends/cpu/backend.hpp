#pragma once
#include <cstddef>
#include <memory>

#include "backends/backend.hpp"

namespace gpurun {
/// The CPU backend: NVRTC's PTX run by the emulator; one device unless set_cpu_device_count.
[[nodiscard]] std::unique_ptr<Backend> make_cpu_backend();

/// The most virtual devices `--cpu-devices` makes.
inline constexpr std::size_t k_max_cpu_devices = 64;

/// Gives the CPU backend `count` virtual devices (`--cpu-devices N`, for multi-device tests),
/// before anything asked for its devices. `backend` must be the CPU backend. Throws Error(usage)
/// naming the option when `count` is 0 or above k_max_cpu_devices, and a malformed
/// GPURUN_TEST_FAIL_DEVICE naming the variable.
void set_cpu_device_count(Backend& backend, std::size_t count);
} // namespace gpurun
