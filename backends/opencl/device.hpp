#pragma once
#include "backends/opencl/api.hpp"

#include <string>

#include "backends/backend.hpp"

namespace gpurun::opencl {

/// The properties of one OpenCL device from clGetDeviceInfo. The name carries the platform's
/// ("pthread-cpu (Portable Computing Language)"); arch is the device's OpenCL version
/// ("OpenCL 3.0"); the grid has no limit of its own beyond size_t work items.
[[nodiscard]] DeviceProperties query_properties(const Api& api, cl_platform_id platform,
                                                cl_device_id device);

class OpenclDevice final : public Device {
public:
  OpenclDevice(const Api& api, cl_platform_id platform, cl_device_id device);
  [[nodiscard]] const DeviceProperties& properties() const override { return m_properties; }
  [[nodiscard]] std::unique_ptr<Context> create_context(const ContextOptions& options) override;

private:
  const Api& m_api;
  cl_platform_id m_platform;
  cl_device_id m_device;
  DeviceProperties m_properties;
};

} // namespace gpurun::opencl
