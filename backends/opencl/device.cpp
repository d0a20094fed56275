#include "backends/opencl/device.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "backends/opencl/context.hpp"
#include "backends/opencl/info.hpp"

namespace gpurun::opencl {
namespace {

// NVIDIA's cl_nv_device_attribute_query: the warp size.
constexpr cl_uint k_device_warp_size_nv = 0x4003;

std::uint32_t clamp32(std::size_t v) {
  return static_cast<std::uint32_t>(std::min<std::size_t>(v, std::numeric_limits<std::uint32_t>::max()));
}

} // namespace

DeviceProperties query_properties(const Api& api, cl_platform_id platform, cl_device_id device) {
  const auto dev = device_info(api, device);
  DeviceProperties p;
  const std::string platform_name = info_string(platform_info(api, platform), CL_PLATFORM_NAME);
  p.name = info_string(dev, CL_DEVICE_NAME);
  if (!platform_name.empty())
    p.name += " (" + platform_name + ")";
  p.vendor = info_string(dev, CL_DEVICE_VENDOR);
  // "OpenCL 3.0 PoCL 3.1 …" → "OpenCL 3.0".
  const std::string version = info_string(dev, CL_DEVICE_VERSION);
  const auto second_space = version.find(' ', version.find(' ') + 1);
  p.arch = version.substr(0, second_space);
  p.multiprocessors = static_cast<int>(info_value<cl_uint>(dev, CL_DEVICE_MAX_COMPUTE_UNITS));
  const auto type = info_value<cl_device_type>(dev, CL_DEVICE_TYPE);
  if (const auto nv = info_value<cl_uint>(dev, k_device_warp_size_nv); nv != 0)
    p.warp_size = static_cast<int>(nv);
  else
    p.warp_size = (type & CL_DEVICE_TYPE_GPU) != 0 && p.vendor.find("AMD") != std::string::npos
                      ? 64
                      : (type & CL_DEVICE_TYPE_GPU) != 0 ? 32 : 1;
  p.total_memory = info_value<cl_ulong>(dev, CL_DEVICE_GLOBAL_MEM_SIZE);
  p.max_threads_per_block = clamp32(info_value<std::size_t>(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  std::size_t sizes[3] = {1, 1, 1};
  const cl_uint dims = info_value<cl_uint>(dev, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  if (dims >= 3)
    (void)api.get_device_info(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof sizes, sizes, nullptr);
  p.max_block = {clamp32(sizes[0]), clamp32(sizes[1]), clamp32(sizes[2])};
  // OpenCL limits the global size only by size_t; the grid (global / local) by the same.
  p.max_grid = {std::numeric_limits<std::uint32_t>::max(), std::numeric_limits<std::uint32_t>::max(),
                std::numeric_limits<std::uint32_t>::max()};
  p.max_shared_per_block = info_value<cl_ulong>(dev, CL_DEVICE_LOCAL_MEM_SIZE);
  p.max_shared_per_block_optin = p.max_shared_per_block;
  p.l2_bytes = info_value<cl_ulong>(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE);
  p.clock_khz = static_cast<int>(info_value<cl_uint>(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY)) * 1000;
  p.driver_version = info_string(dev, CL_DRIVER_VERSION);
  return p;
}

OpenclDevice::OpenclDevice(const Api& api, cl_platform_id platform, cl_device_id device)
    : m_api(api), m_platform(platform), m_device(device),
      m_properties(query_properties(api, platform, device)) {}

std::unique_ptr<Context> OpenclDevice::create_context(const ContextOptions& options) {
  return std::make_unique<OpenclContext>(m_api, m_platform, m_device, m_properties, options);
}

} // namespace gpurun::opencl
