#include "capture/preload/param_layout.hpp"

#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "capture/preload/real_driver.hpp"
#include "capture/preload/settings.hpp"

namespace gpurun::capture::preload {

namespace {

using namespace cu;

/// The layout as the driver reports it; nullopt where it cannot: no such entry point (before
/// 12.4), or a failure on the first parameter other than CUDA_ERROR_INVALID_VALUE, which is its
/// answer for a kernel without parameters. Each entry point is called through its own type: a
/// CUfunction and a CUkernel are different handles.
std::optional<std::vector<ParamSlot>> from_driver(const void* function, bool library_kernel) {
  static const auto function_info = real<cuda::cuFuncGetParamInfo_fn>("cuFuncGetParamInfo");
  static const auto kernel_info = real<cu::cuKernelGetParamInfo_fn>("cuKernelGetParamInfo");
  if (library_kernel ? kernel_info == nullptr : function_info == nullptr)
    return std::nullopt;
  auto* handle = const_cast<void*>(function);
  std::vector<ParamSlot> slots;
  for (std::size_t i = 0; i < 4096; ++i) {
    std::size_t offset = 0;
    std::size_t size = 0;
    const CUresult r = library_kernel
                           ? kernel_info(static_cast<CUkernel>(handle), i, &offset, &size)
                           : function_info(static_cast<CUfunction>(handle), i, &offset, &size);
    if (r != k_success) {
      if (i == 0 && r != k_error_invalid_value)
        return std::nullopt;
      break;
    }
    slots.push_back({offset, size});
  }
  return slots;
}

/// The image's layouts, read at the first call (for the device of that call: a process whose
/// devices differ in architecture gets the first one's cubin of a fat binary).
const ParamLayouts& image_layouts(const Image& image, unsigned arch) {
  std::call_once(image.layouts_read, [&] {
    try {
      image.layouts = image_param_layouts(image.bytes, image.kind, arch);
    } catch (const std::exception& e) {
      image.layouts_why = e.what();
    }
  });
  return image.layouts;
}

} // namespace

std::vector<ParamSlot> param_slots(const void* function, const KernelInfo& info, unsigned arch) {
  if (auto slots = from_driver(function, info.library_kernel))
    return *std::move(slots);
  static std::once_flag told;
  std::call_once(told, [] {
    say("the driver does not describe kernel parameters (cuFuncGetParamInfo, driver 12.4+): "
        "their layouts come from the module images");
  });
  const std::string no_driver = "the driver does not describe its parameters";
  if (info.image == nullptr)
    throw std::runtime_error(no_driver + ", and its module was loaded before the interposer was");
  if (!info.image->why.empty())
    throw std::runtime_error(no_driver +
                             ", and its module image could not be copied: " + info.image->why);
  const ParamLayouts& layouts = image_layouts(*info.image, arch);
  if (!info.image->layouts_why.empty())
    throw std::runtime_error(no_driver +
                             ", and the parameter lists of its module image could not be read: " +
                             info.image->layouts_why);
  const auto it = layouts.find(info.name);
  if (it == layouts.end())
    throw std::runtime_error(
        fmt::format("{}, and its module image has no kernel named {}", no_driver, info.name));
  return it->second;
}

} // namespace gpurun::capture::preload
