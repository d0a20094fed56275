#pragma once
// What the program holds, as the stand-ins saw it made: the module images it loaded (copied at
// load, since the driver keeps no copy a launch could be read from), its kernel handles with
// their names and modules, its allocations, and how often each kernel has been launched. One
// table for the whole process, behind one mutex: the program may call the driver from any thread.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/kit/module_image.hpp"
#include "capture/allocation_map.hpp"
#include "capture/image_params.hpp"
#include "capture/preload/driver_entry_points.hpp"

namespace gpurun::capture::preload {

struct Image {
  kit::ImageKind kind = kit::ImageKind::unknown;
  std::vector<std::byte> bytes;
  std::string why; ///< why it could not be copied
  /// Its kernels' parameter layouts (capture/image_params), for a driver that cannot report them:
  /// read once, at the first launch that needs them (param_layout).
  mutable std::once_flag layouts_read;
  mutable ParamLayouts layouts;
  mutable std::string layouts_why; ///< why they could not be read
};

struct KernelInfo {
  std::string name;
  const Image* image = nullptr;
  bool library_kernel = false; ///< a CUkernel of the library API, not a CUfunction
};

struct State {
  std::mutex mutex;
  AllocationMap allocations;
  std::map<const void*, std::unique_ptr<Image>> images; ///< by CUmodule or CUlibrary
  std::unordered_map<const void*, KernelInfo> kernels;  ///< by CUfunction or CUkernel
  std::unordered_map<std::string, std::uint64_t> launches;
  std::uint64_t captured = 0;
};

/// The process's one State, never destroyed: launches may come during exit.
[[nodiscard]] State& state();

/// A copy of the image the driver was handed by pointer: its size from its own headers.
[[nodiscard]] std::unique_ptr<Image> copy_image(const void* data);
/// A copy of the image file the driver was handed by path.
[[nodiscard]] std::unique_ptr<Image> read_image_file(const char* path);

void remember_image(const void* handle, std::unique_ptr<Image> image);
void remember_kernel(const void* handle, const void* owner, const char* name, bool library_kernel);
void remember_allocation(cu::CUdeviceptr base, std::size_t size, MemoryKind kind);
void forget_allocation(cu::CUdeviceptr base);

} // namespace gpurun::capture::preload
