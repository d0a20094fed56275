#include "capture/preload/launch_capture.hpp"

#include <fnmatch.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/host_memory.hpp"
#include "capture/launch_record.hpp"
#include "capture/pointer_scan.hpp"
#include "capture/preload/param_layout.hpp"
#include "capture/preload/program_state.hpp"
#include "capture/preload/real_driver.hpp"
#include "capture/preload/settings.hpp"

namespace gpurun::capture::preload {

namespace {

using namespace cu;

std::vector<std::byte> param_bytes(const Launch& l, const std::vector<ParamSlot>& slots) {
  std::size_t total = 0;
  for (const auto& s : slots)
    total = std::max(total, s.offset + s.size);
  std::vector<std::byte> bytes(total);
  if (l.params != nullptr) {
    for (std::size_t i = 0; i < slots.size(); ++i)
      std::memcpy(bytes.data() + slots[i].offset, l.params[i], slots[i].size);
  } else if (l.extra != nullptr) {
    const void* buffer = nullptr;
    std::size_t size = 0;
    for (void** e = l.extra; *e != k_launch_param_end; e += 2) {
      if (e[0] == k_launch_param_buffer_pointer)
        buffer = e[1];
      else if (e[0] == k_launch_param_buffer_size)
        size = *static_cast<const std::size_t*>(e[1]);
    }
    if (buffer != nullptr)
      std::memcpy(bytes.data(), buffer, std::min(size, total));
  }
  return bytes;
}

/// What one capture can afford to save, beyond --max-bytes: each byte saved is held twice in host
/// memory (before and after) and written twice to the disk holding the capture folder, so the
/// budget is a third of the host's available memory and a half of the folder's free space.
std::uint64_t affordable_bytes() {
  std::uint64_t affordable = std::numeric_limits<std::uint64_t>::max();
  std::filesystem::path dir = std::filesystem::absolute(settings().out);
  std::error_code ec;
  while (!std::filesystem::exists(dir, ec) && dir.has_parent_path() && dir != dir.parent_path())
    dir = dir.parent_path();
  struct statvfs fs {};
  if (statvfs(dir.c_str(), &fs) == 0)
    affordable = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize / 2;
  if (const auto available = available_host_bytes())
    affordable = std::min(affordable, *available / 3);
  return affordable;
}

/// Saves each window of the allocations the pointers reach.
void save_memory(LaunchRecord& record, bool after) {
  static const auto dtoh = real<cu::cuMemcpyDtoH_fn>("cuMemcpyDtoH_v2");
  for (auto& m : record.memory) {
    auto& bytes = after ? m.after : m.before;
    bytes.resize(m.window.saved);
    if (m.window.saved > 0 && dtoh(bytes.data(), m.window.allocation.base + m.window.offset,
                                   m.window.saved) != k_success) {
      record.incomplete.push_back(
          fmt::format("a{}: its contents could not be copied", &m - record.memory.data()));
      bytes.clear();
    }
  }
}

/// The device of the current context, as the record names it.
struct Device {
  std::string name;         ///< "NVIDIA H200"; empty when there is no current context
  std::string arch;         ///< "sm_90"
  unsigned arch_number = 0; ///< 90
};

Device current_device() {
  static const auto get_device = real<cu::cuCtxGetDevice_fn>("cuCtxGetDevice");
  static const auto get_name = real<cuda::cuDeviceGetName_fn>("cuDeviceGetName");
  static const auto get_attribute = real<cuda::cuDeviceGetAttribute_fn>("cuDeviceGetAttribute");
  CUdevice device = 0;
  char name[256] = {};
  int major = 0;
  int minor = 0;
  if (get_device == nullptr || get_device(&device) != k_success)
    return {};
  (void)get_name(name, sizeof name - 1, device);
  (void)get_attribute(&major, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  (void)get_attribute(&minor, cuda::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  return {name, fmt::format("sm_{}{}", major, minor),
          static_cast<unsigned>(std::max(0, major * 10 + minor))};
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts)
    out += (out.empty() ? "" : "; ") + p;
  return out;
}

std::string folder_name(std::string_view kernel, std::uint64_t ordinal) {
  std::string name;
  for (const char c : kernel.substr(0, 80))
    name += std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' ? c : '_';
  return fmt::format("{}-{}", name.empty() ? "kernel" : name, ordinal);
}

} // namespace

CUresult launch(const Launch& l, LaunchCall go) {
  KernelInfo info;
  std::uint64_t ordinal = 0;
  {
    std::lock_guard lock(state().mutex);
    const auto it = state().kernels.find(l.function);
    if (it == state().kernels.end())
      return go();
    info = it->second;
    if (fnmatch(settings().kernel.c_str(), info.name.c_str(), 0) != 0)
      return go();
    ordinal = ++state().launches[info.name];
    if (settings().nth != 0 && ordinal != settings().nth)
      return go();
  }
  static const auto is_capturing = real<cu::cuStreamIsCapturing_fn>("cuStreamIsCapturing");
  int capture_status = k_stream_capture_none;
  if (is_capturing != nullptr && is_capturing(l.stream, &capture_status) == k_success &&
      capture_status != k_stream_capture_none) {
    say(fmt::format("{} launch {}: not captured: its stream is being recorded into a CUDA graph",
                    info.name, ordinal));
    return go();
  }
  LaunchRecord record;
  try {
    record.kernel = info.name;
    record.ordinal = ordinal;
    std::copy(std::begin(l.grid), std::end(l.grid), record.grid);
    std::copy(std::begin(l.block), std::end(l.block), record.block);
    record.shared_bytes = l.shared_bytes;
    const Device device = current_device();
    record.device = device.name;
    record.arch = device.arch;
    record.slots = param_slots(l.function, info, device.arch_number);
    record.params = param_bytes(l, record.slots);
    if (info.image != nullptr) {
      record.image_kind = info.image->kind;
      record.image = info.image->bytes;
      if (!info.image->why.empty())
        record.incomplete.push_back("the module image: " + info.image->why);
    } else {
      record.incomplete.push_back("the module image: loaded before the interposer was");
    }
    const std::uint64_t budget = std::min(settings().max_bytes, affordable_bytes());
    {
      std::lock_guard lock(state().mutex);
      record.pointers = find_pointers(record.params, record.slots, state().allocations);
    }
    MemoryPlan plan = plan_memory(record.pointers, budget);
    record.incomplete.insert(record.incomplete.end(), plan.left_out.begin(), plan.left_out.end());
    for (std::size_t i = 0; i < plan.windows.size(); ++i) {
      if (plan.windows[i].allocation.kind == MemoryKind::managed)
        record.incomplete.push_back(fmt::format(
            "a{}: unified memory (cuMemAllocManaged), which the host may change at any time", i));
      record.memory.push_back({plan.windows[i], {}, {}});
    }
  } catch (const std::exception& e) {
    say(fmt::format("{} launch {}: not captured: {}", info.name, ordinal, e.what()));
    return go();
  }
  static const auto synchronize = real<cu::cuCtxSynchronize_fn>("cuCtxSynchronize");
  (void)synchronize();
  save_memory(record, false);
  const CUresult result = go();
  if (result != k_success) {
    say(fmt::format("{} launch {}: not captured: the launch failed ({})", info.name, ordinal,
                    static_cast<int>(result)));
    return result;
  }
  (void)synchronize();
  save_memory(record, true);
  try {
    const std::filesystem::path dir =
        std::filesystem::path(settings().out) / folder_name(info.name, ordinal);
    write_capture(dir, record);
    {
      std::lock_guard lock(state().mutex);
      ++state().captured;
    }
    say(fmt::format("{} launch {} → {}{}", info.name, ordinal, dir.string(),
                    record.incomplete.empty()
                        ? std::string()
                        : " (incomplete: " + joined(record.incomplete) + ")"));
  } catch (const std::exception& e) {
    say(fmt::format("{} launch {}: not written: {}", info.name, ordinal, e.what()));
  }
  return result;
}

} // namespace gpurun::capture::preload
