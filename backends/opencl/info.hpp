#pragma once
// Typed reads of clGet*Info: a string or a value of one platform, device, program or kernel.
#include <string>
#include <vector>

#include "backends/opencl/api.hpp"
#include "backends/opencl/error.hpp"

namespace gpurun::opencl {

/// A string property through `get(param, size, value, size_ret)`; empty when the call fails.
template <class Get> std::string info_string(Get&& get, cl_uint param) {
  std::size_t size = 0;
  if (get(param, 0, nullptr, &size) != CL_SUCCESS || size == 0)
    return {};
  std::string text(size, '\0');
  if (get(param, size, text.data(), nullptr) != CL_SUCCESS)
    return {};
  while (!text.empty() && (text.back() == '\0' || text.back() == ' '))
    text.pop_back();
  return text;
}

/// A fixed-size property; `fallback` when the call fails.
template <class T, class Get> T info_value(Get&& get, cl_uint param, T fallback = T{}) {
  T value{};
  return get(param, sizeof value, &value, nullptr) == CL_SUCCESS ? value : fallback;
}

inline auto platform_info(const Api& api, cl_platform_id platform) {
  return [&api, platform](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
    return api.get_platform_info(platform, param, size, value, ret);
  };
}

inline auto device_info(const Api& api, cl_device_id device) {
  return [&api, device](cl_uint param, std::size_t size, void* value, std::size_t* ret) {
    return api.get_device_info(device, param, size, value, ret);
  };
}

} // namespace gpurun::opencl
