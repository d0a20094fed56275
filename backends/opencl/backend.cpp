#include "backends/opencl/backend.hpp"

#include <vector>

#include <fmt/format.h>

#include "backends/kit/probed_backend.hpp"
#include "backends/opencl/api.hpp"
#include "backends/opencl/device.hpp"
#include "backends/opencl/error.hpp"
#include "backends/opencl/info.hpp"

namespace gpurun {
namespace {

// The platforms the loader lists; `status` is the call's.
std::vector<cl_platform_id> platforms(const opencl::Api& api, cl_int& status) {
  cl_uint count = 0;
  status = api.get_platform_ids(0, nullptr, &count);
  std::vector<cl_platform_id> list(count);
  if (status == CL_SUCCESS && count != 0)
    status = api.get_platform_ids(count, list.data(), nullptr);
  return status == CL_SUCCESS ? list : std::vector<cl_platform_id>{};
}

std::vector<cl_device_id> devices_of(const opencl::Api& api, cl_platform_id platform) {
  cl_uint count = 0;
  if (api.get_device_ids(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS)
    return {};
  std::vector<cl_device_id> list(count);
  if (count != 0 &&
      api.get_device_ids(platform, CL_DEVICE_TYPE_ALL, count, list.data(), nullptr) != CL_SUCCESS)
    return {};
  return list;
}

class OpenclBackend final : public kit::ProbedBackend<Backend> {
public:
  [[nodiscard]] std::string name() const override { return "opencl"; }
  [[nodiscard]] std::vector<Language> languages() const override { return {Language::opencl}; }

  // Each platform builds OpenCL C itself (clBuildProgram): no compiler of gpurun's choosing.

private:
  [[nodiscard]] ProbeResult run_probe() override {
    const auto& lib = opencl::library();
    if (!lib.error.empty())
      return {false, lib.error};
    cl_int status = CL_SUCCESS;
    const auto list = platforms(lib.api, status);
    // ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when no ICD file names a platform.
    if (list.empty())
      return {false, status == CL_SUCCESS || status == -1001
                         ? fmt::format("no OpenCL platform: {} lists none (/etc/OpenCL/vendors, "
                                       "$OCL_ICD_VENDORS; Debian: pocl-opencl-icd)",
                                       lib.path)
                         : fmt::format("clGetPlatformIDs failed: {} ({})",
                                       opencl::status_name(status), lib.path)};
    for (cl_platform_id p : list)
      if (!devices_of(lib.api, p).empty())
        return {true, {}};
    return {false, fmt::format("no OpenCL device: {} platform(s), none with a device ({})",
                               list.size(), lib.path)};
  }

  [[nodiscard]] std::vector<std::unique_ptr<Device>> enumerate() override {
    const auto& api = opencl::library().api;
    cl_int status = CL_SUCCESS;
    std::vector<std::unique_ptr<Device>> out;
    for (cl_platform_id p : platforms(api, status))
      for (cl_device_id d : devices_of(api, p))
        out.push_back(std::make_unique<opencl::OpenclDevice>(api, p, d));
    return out;
  }
};

} // namespace

std::unique_ptr<Backend> make_opencl_backend() {
  return std::make_unique<OpenclBackend>();
}

} // namespace gpurun
