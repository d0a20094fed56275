#pragma once
// The driver API as the kit's driver-shaped pieces see it (kit/driver_traits.hpp).
#include "backends/cuda/driver_types.hpp"

#include "backends/cuda/api.hpp"
#include "backends/cuda/error.hpp"

namespace gpurun::cuda {

struct ApiTraits {
  using Api = DriverApi;
  static constexpr CUresult success = CUDA_SUCCESS;
  static constexpr CUresult not_ready = CUDA_ERROR_NOT_READY;
  static constexpr const char* call_prefix = "cu";
  static constexpr auto raise = &throw_error;
  static CUresult create_event(const Api& api, CUevent* event) {
    return api.event_create(event, CU_EVENT_DEFAULT);
  }
};

} // namespace gpurun::cuda
