#pragma once
// The HIP runtime as the kit's driver-shaped pieces see it (kit/driver_traits.hpp).
#include "backends/hip/rocm_types.hpp"

#include "backends/hip/api.hpp"
#include "backends/hip/error.hpp"

namespace gpurun::hip {

struct ApiTraits {
  using Api = RuntimeApi;
  static constexpr hipError_t success = hipSuccess;
  static constexpr hipError_t not_ready = hipErrorNotReady;
  static constexpr const char* call_prefix = "hip";
  static constexpr auto raise = &throw_error;
  static hipError_t create_event(const Api& api, hipEvent_t* event) {
    return api.event_create(event);
  }
};

} // namespace gpurun::hip
