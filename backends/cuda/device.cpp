#include "backends/cuda/device.hpp"

#include <array>
#include <string>

#include "backends/cuda/clock_monitor.hpp"
#include "backends/cuda/context.hpp"
#include "backends/cuda/error.hpp"
#include "backends/kit/cuda_arch.hpp"

namespace gpurun::cuda {

double theoretical_bandwidth_gbs(int memory_clock_khz, int bus_bits) {
  return 2.0 * memory_clock_khz * 1e3 * bus_bits / 8.0 / 1e9;
}

std::string driver_version_text(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

DeviceProperties query_properties(const DriverApi& api, CUdevice device) {
  auto attribute = [&](CUdevice_attribute which, const char* what) {
    int value = 0;
    GPURUN_CU_CHECK_MSG("cuDeviceGetAttribute", api.device_get_attribute(&value, which, device),
                        ExitCode::device, "reading {} of CUDA device {}", what,
                        static_cast<int>(device));
    return value;
  };
  // Informational attributes that newer drivers may retire (CUDA 13 deprecates the clock rates)
  // read as 0 instead of making the device unusable.
  auto informational = [&](CUdevice_attribute which) {
    int value = 0;
    return api.device_get_attribute(&value, which, device) == CUDA_SUCCESS ? value : 0;
  };
  auto dim = [](int v) { return static_cast<std::uint32_t>(v); };

  DeviceProperties p;
  std::array<char, 256> name{};
  GPURUN_CU_CHECK("cuDeviceGetName", api.device_get_name(name.data(), name.size(), device));
  p.name = name.data();
  p.vendor = "NVIDIA";
  p.compute_major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
  p.compute_minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
  p.arch = arch::real_arch(p.compute_major, p.compute_minor);
  p.multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count");
  p.warp_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size");
  std::size_t total = 0;
  GPURUN_CU_CHECK("cuDeviceTotalMem", api.device_total_mem(&total, device));
  p.total_memory = total;
  p.max_threads_per_block = static_cast<unsigned>(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads per block"));
  p.max_block = {dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, "max block.x")),
                 dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, "max block.y")),
                 dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, "max block.z"))};
  p.max_grid = {dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, "max grid.x")),
                dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, "max grid.y")),
                dim(attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, "max grid.z"))};
  p.max_shared_per_block = static_cast<std::size_t>(
      attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared memory per block"));
  p.max_shared_per_block_optin = static_cast<std::size_t>(attribute(
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "opt-in shared memory per block"));
  p.l2_bytes = static_cast<std::size_t>(informational(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  p.clock_khz = informational(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  p.memory_clock_khz = informational(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  p.memory_bus_bits = informational(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  p.memory_bandwidth_gbs = theoretical_bandwidth_gbs(p.memory_clock_khz, p.memory_bus_bits);
  int version = 0;
  GPURUN_CU_CHECK("cuDriverGetVersion", api.driver_get_version(&version));
  p.driver_version = driver_version_text(version);
  std::array<char, 32> bus_id{};
  if (api.device_get_pci_bus_id(bus_id.data(), bus_id.size(), device) == CUDA_SUCCESS)
    p.pci_bus_id = bus_id.data();
  return p;
}

CudaDevice::CudaDevice(const DriverApi& api, CUdevice device)
    : m_api(api), m_device(device), m_properties(query_properties(api, device)) {}

std::unique_ptr<Context> CudaDevice::create_context(const ContextOptions& options) {
  // The checks, stats and host threads of DeviceSettings are the CPU backend's; on the GPU,
  // compute-sanitizer checks.
  auto state = std::make_shared<ContextState>(m_api, m_device);
  state->device_output = options.device_output;
  // Takes effect for the primary context's later launches (the driver refuses it once a launch
  // that uses printf has run in this process).
  const DeviceSettings& settings = options.settings;
  if (settings.printf_buffer)
    GPURUN_CU_CHECK("cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE)",
                    m_api.ctx_set_limit(CU_LIMIT_PRINTF_FIFO_SIZE, *settings.printf_buffer));
  if (settings.heap_bytes)
    GPURUN_CU_CHECK("cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)",
                    m_api.ctx_set_limit(CU_LIMIT_MALLOC_HEAP_SIZE, *settings.heap_bytes));
  return std::make_unique<CudaContext>(std::move(state), m_properties);
}

std::unique_ptr<ClockMonitor> CudaDevice::clock_monitor(std::string& why_not) {
  return open_clock_monitor(nvml(), m_properties.pci_bus_id, why_not);
}

} // namespace gpurun::cuda
