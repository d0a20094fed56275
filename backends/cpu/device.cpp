#include "backends/cpu/device.hpp"

#include <charconv>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "backends/cpu/context.hpp"
#include "base/error.hpp"

namespace gpurun::cpu {

namespace {

constexpr const char* k_fail_variable = "GPURUN_TEST_FAIL_DEVICE";

template <typename T> std::optional<T> whole_number(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    return std::nullopt;
  return value;
}

} // namespace

std::optional<FailurePlan> parse_failure_plan(const char* text) {
  if (text == nullptr || *text == '\0')
    return std::nullopt;
  const std::string_view value(text);
  const auto at = value.find('@');
  const auto device = whole_number<int>(value.substr(0, at));
  std::optional<std::int64_t> launches;
  if (at != std::string_view::npos)
    launches = whole_number<std::int64_t>(value.substr(at + 1));
  if (!device || (at != std::string_view::npos && !launches))
    throw usage_error(fmt::format("{}='{}': expected INDEX or INDEX@LAUNCHES (whole numbers; a "
                                  "test setting)",
                                  k_fail_variable, value));
  return FailurePlan{*device, launches};
}

CpuDevice::CpuDevice(int index, int count, const std::optional<FailurePlan>& failure)
    : m_index(index) {
  DeviceProperties& p = m_properties;
  p.name = "gpurun PTX emulator";
  p.vendor = "gpurun";
  p.arch = "sm_90";
  p.compute_major = 9;
  p.compute_minor = 0;
  // Virtual devices share the cores, so that N of them together are as fast as one.
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  m_workers = std::max(1, cores / std::max(1, count));
  p.multiprocessors = m_workers;
  p.warp_size = 32;
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGE_SIZE);
  p.total_memory = pages > 0 && page_size > 0 ? std::uint64_t(pages) * std::uint64_t(page_size) : 0;
  p.max_threads_per_block = 1024;
  p.max_block = Dim3{1024, 1024, 64};
  p.max_grid = Dim3{2147483647u, 65535u, 65535u};
  p.max_shared_per_block = 48 * 1024;
  p.max_shared_per_block_optin = 227 * 1024;
  if (failure && failure->device == index) {
    if (failure->after_launches)
      m_launch_budget = std::make_shared<std::atomic<std::int64_t>>(*failure->after_launches);
    else
      m_fails = true;
  }
}

std::unique_ptr<Context> CpuDevice::create_context(const ContextOptions& options) {
  if (m_fails || (m_launch_budget && m_launch_budget->load() <= 0))
    throw device_error(fmt::format("cpu:{}: cannot create a context: the device is lost ({}, a "
                                   "test setting)",
                                   m_index, k_fail_variable));
  return std::make_unique<CpuContext>(options, m_workers, m_launch_budget);
}

std::unique_ptr<ClockMonitor> CpuDevice::clock_monitor(std::string& why_not) {
  why_not = "the CPU backend has no clocks to watch";
  return nullptr;
}

} // namespace gpurun::cpu
