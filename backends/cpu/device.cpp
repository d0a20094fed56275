#include "backends/cpu/device.hpp"

#include <thread>

#include <unistd.h>

#include "backends/cpu/context.hpp"

namespace gpurun::cpu {

CpuDevice::CpuDevice() {
  DeviceProperties& p = m_properties;
  p.name = "gpurun PTX emulator";
  p.vendor = "gpurun";
  p.arch = "sm_90";
  p.compute_major = 9;
  p.compute_minor = 0;
  p.multiprocessors = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  p.warp_size = 32;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  p.total_memory = pages > 0 && page_size > 0 ? std::uint64_t(pages) * std::uint64_t(page_size) : 0;
  p.max_threads_per_block = 1024;
  p.max_block = Dim3{1024, 1024, 64};
  p.max_grid = Dim3{2147483647u, 65535u, 65535u};
  p.max_shared_per_block = 48 * 1024;
  p.max_shared_per_block_optin = 227 * 1024;
}

std::unique_ptr<Context> CpuDevice::create_context(const ContextOptions& options) {
  return std::make_unique<CpuContext>(options);
}

std::unique_ptr<ClockMonitor> CpuDevice::clock_monitor(std::string& why_not) {
  why_not = "the CPU backend has no clocks to watch";
  return nullptr;
}

} // namespace gpurun::cpu
