#include "capture/image_params.hpp"

#include <string_view>

#include <fmt/format.h>

#include "backends/kit/cubin_params.hpp"
#include "backends/kit/ptx_entries.hpp"

namespace gpurun::capture {

namespace {

ParamLayouts from_ptx(std::string_view ptx) {
  // A copy of a PTX image the driver was handed keeps the NUL that ended it.
  while (!ptx.empty() && ptx.back() == '\0')
    ptx.remove_suffix(1);
  ParamLayouts layouts;
  for (const auto& entry : kit::parse_ptx_entries(ptx)) {
    auto& slots = layouts[entry.name];
    for (const auto& param : entry.params)
      slots.push_back({param.offset, param.size});
  }
  return layouts;
}

ParamLayouts from_cubin(std::span<const std::byte> cubin) {
  ParamLayouts layouts;
  for (const auto& [name, params] : kit::cubin_params(cubin)) {
    auto& slots = layouts[name];
    for (const auto& param : params)
      slots.push_back({param.offset, param.size});
  }
  return layouts;
}

/// The cubin entry a device of `arch` runs: machine code runs on its own major version, from its
/// minor one up.
const kit::FatbinEntry* runnable_cubin(const std::vector<kit::FatbinEntry>& entries,
                                       unsigned arch) {
  const kit::FatbinEntry* best = nullptr;
  for (const auto& e : entries)
    if (e.kind == kit::FatbinEntry::Kind::elf && e.arch / 10 == arch / 10 && e.arch <= arch &&
        (best == nullptr || e.arch > best->arch))
      best = &e;
  return best;
}

} // namespace

ParamLayouts image_param_layouts(std::span<const std::byte> image, kit::ImageKind kind,
                                 unsigned arch) {
  switch (kind) {
  case kit::ImageKind::ptx:
    return from_ptx({reinterpret_cast<const char*>(image.data()), image.size()});
  case kit::ImageKind::cubin:
    return from_cubin(image);
  case kit::ImageKind::fatbin: {
    const auto entries = kit::fatbin_entries(image);
    if (const kit::FatbinEntry* cubin = runnable_cubin(entries, arch))
      return from_cubin(kit::fatbin_payload(*cubin));
    if (const auto ptx = kit::fatbin_ptx(image, arch))
      return from_ptx(*ptx);
    throw kit::ImageError(
        fmt::format("the fat binary has neither machine code for sm_{} nor PTX", arch));
  }
  case kit::ImageKind::fatbin_wrapper:
  case kit::ImageKind::unknown:
    break;
  }
  throw kit::ImageError(
      fmt::format("a module image of kind '{}' has no parameter layouts", kit::to_string(kind)));
}

} // namespace gpurun::capture
