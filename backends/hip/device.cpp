#include "backends/hip/device.hpp"

#include <array>

#include "backends/hip/context.hpp"
#include "backends/hip/error.hpp"
#include "backends/kit/amdgpu_code_object.hpp"

namespace gpurun::hip {

std::string runtime_version_text(int version) {
  return fmt::format("{}.{}", version / 10'000'000, (version / 100'000) % 100);
}

DeviceProperties query_properties(const RuntimeApi& api, int device, std::string& target) {
  hipDeviceProp_t props{};
  GPURUN_HIP_CHECK_MSG("hipGetDeviceProperties", api.get_device_properties(&props, device),
                       ExitCode::device, "reading the properties of HIP device {}", device);
  auto attribute = [&](hipDeviceAttribute_t which) {
    int value = 0;
    return api.device_get_attribute(&value, which, device) == hipSuccess ? value : 0;
  };
  auto dim = [](int v) { return static_cast<std::uint32_t>(v); };
  DeviceProperties p;
  p.name = props.name;
  p.vendor = "AMD";
  target = props.gcnArchName;
  p.arch = kit::amdgpu_processor(target);
  p.compute_major = props.major;
  p.compute_minor = props.minor;
  p.multiprocessors = props.multiProcessorCount;
  p.warp_size = props.warpSize;
  p.total_memory = props.totalGlobalMem;
  p.max_threads_per_block = static_cast<unsigned>(props.maxThreadsPerBlock);
  p.max_block = {dim(props.maxThreadsDim[0]), dim(props.maxThreadsDim[1]),
                 dim(props.maxThreadsDim[2])};
  p.max_grid = {dim(props.maxGridSize[0]), dim(props.maxGridSize[1]), dim(props.maxGridSize[2])};
  p.max_shared_per_block = props.sharedMemPerBlock;
  // AMD GPUs have no opt-in beyond the per-block LDS limit.
  p.max_shared_per_block_optin = props.sharedMemPerBlock;
  p.l2_bytes = static_cast<std::size_t>(props.l2CacheSize);
  p.clock_khz = props.clockRate;
  p.memory_clock_khz = attribute(hipDeviceAttributeMemoryClockRate);
  p.memory_bus_bits = attribute(hipDeviceAttributeMemoryBusWidth);
  p.memory_bandwidth_gbs = 2.0 * p.memory_clock_khz * 1e3 * p.memory_bus_bits / 8.0 / 1e9;
  int version = 0;
  if (api.runtime_get_version(&version) == hipSuccess)
    p.driver_version = runtime_version_text(version);
  std::array<char, 32> bus_id{};
  if (api.device_get_pci_bus_id(bus_id.data(), static_cast<int>(bus_id.size()), device) ==
      hipSuccess)
    p.pci_bus_id = bus_id.data();
  return p;
}

HipDevice::HipDevice(const RuntimeApi& api, int device)
    : m_api(api), m_device(device), m_properties(query_properties(api, device, m_target)) {}

std::unique_ptr<Context> HipDevice::create_context(const ContextOptions& options) {
  auto state = std::make_shared<ContextState>(m_api, m_device);
  state->device_output = options.device_output;
  const DeviceSettings& settings = options.settings;
  if ((settings.printf_buffer || settings.heap_bytes) && m_api.device_set_limit == nullptr)
    throw unavailable_error("the device printf buffer and heap sizes: this HIP runtime has no "
                            "hipDeviceSetLimit (ROCm 5.3 and later have)");
  if (settings.printf_buffer)
    GPURUN_HIP_CHECK("hipDeviceSetLimit(hipLimitPrintfFifoSize)",
                     m_api.device_set_limit(hipLimitPrintfFifoSize, *settings.printf_buffer));
  if (settings.heap_bytes)
    GPURUN_HIP_CHECK("hipDeviceSetLimit(hipLimitMallocHeapSize)",
                     m_api.device_set_limit(hipLimitMallocHeapSize, *settings.heap_bytes));
  return std::make_unique<HipContext>(std::move(state), m_properties, m_target);
}

} // namespace gpurun::hip
