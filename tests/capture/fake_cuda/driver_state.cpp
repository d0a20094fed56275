#include "driver_state.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <span>

#include "backends/kit/cubin_params.hpp"
#include "backends/kit/module_image.hpp"
#include "backends/kit/ptx_entries.hpp"
#include "kernels.hpp"

namespace gpurun::test::fake_cuda {

using namespace gpurun::cuda;

namespace {

constexpr std::size_t allocation_alignment = 256;

/// The parameter bytes of a launch, from `params` (one pointer per parameter) or from `extra`'s
/// buffer, as the driver takes them.
CUresult gather_params(const Function& f, void** params, void** extra,
                       std::vector<std::byte>& bytes) {
  std::size_t total = 0;
  for (const auto& s : f.slots)
    total = std::max(total, s.offset + s.size);
  bytes.assign(total, std::byte{0});
  if (params != nullptr) {
    for (std::size_t i = 0; i < f.slots.size(); ++i) {
      if (params[i] == nullptr)
        return CUDA_ERROR_INVALID_VALUE;
      std::memcpy(bytes.data() + f.slots[i].offset, params[i], f.slots[i].size);
    }
    return CUDA_SUCCESS;
  }
  if (extra != nullptr) {
    const void* buffer = nullptr;
    const std::size_t* size = nullptr;
    for (void** e = extra; *e != capture::cu::k_launch_param_end; e += 2) {
      if (e[0] == capture::cu::k_launch_param_buffer_pointer)
        buffer = e[1];
      else if (e[0] == capture::cu::k_launch_param_buffer_size)
        size = static_cast<const std::size_t*>(e[1]);
      else
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (buffer == nullptr || size == nullptr || *size < total)
      return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(bytes.data(), buffer, total);
    return CUDA_SUCCESS;
  }
  return total == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

} // namespace

DriverState& driver() {
  static DriverState* d = new DriverState; // never destroyed: the program may call during exit
  return *d;
}

Context*& current_context() {
  thread_local Context* current = nullptr;
  return current;
}

Layouts layouts_of(const void* data) {
  const auto* p = static_cast<const std::byte*>(data);
  kit::ImageKind kind = kit::image_kind(std::span(p, 16));
  if (kind == kit::ImageKind::fatbin_wrapper) { // {magic, version, data, filename}
    std::memcpy(&p, p + 8, sizeof p);
    kind = kit::image_kind(std::span(p, 16));
  }
  const std::span<const std::byte> image(p, kit::image_size(std::span(p, std::size_t{1} << 40)));
  Layouts layouts;
  const auto from_ptx = [&](std::string_view ptx) {
    for (const auto& entry : kit::parse_ptx_entries(ptx)) {
      auto& slots = layouts[entry.name];
      for (const auto& param : entry.params)
        slots.push_back({param.offset, param.size});
    }
  };
  const auto from_cubin = [&](std::span<const std::byte> cubin) {
    for (const auto& [name, params] : kit::cubin_params(cubin)) {
      auto& slots = layouts[name];
      for (const auto& param : params)
        slots.push_back({param.offset, param.size});
    }
  };
  switch (kind) {
  case kit::ImageKind::ptx:
    from_ptx({reinterpret_cast<const char*>(image.data()), image.size()});
    return layouts;
  case kit::ImageKind::cubin:
    from_cubin(image);
    return layouts;
  case kit::ImageKind::fatbin:
    for (const auto& entry : kit::fatbin_entries(image))
      if (entry.kind == kit::FatbinEntry::Kind::elf && entry.arch == 90) {
        from_cubin(kit::fatbin_payload(entry));
        return layouts;
      }
    if (const auto ptx = kit::fatbin_ptx(image, 90)) {
      from_ptx(*ptx);
      return layouts;
    }
    throw kit::ImageError("no sm_90 code and no PTX in the fat binary");
  case kit::ImageKind::fatbin_wrapper:
  case kit::ImageKind::unknown:
    break;
  }
  throw kit::ImageError("not a module image");
}

CUresult load(const void*& handle, const void* image) {
  if (image == nullptr)
    return CUDA_ERROR_INVALID_VALUE;
  auto module = std::make_unique<Module>();
  try {
    module->layouts = layouts_of(image);
  } catch (const std::exception&) {
    return CUDA_ERROR_INVALID_IMAGE;
  }
  std::lock_guard lock(driver().mutex);
  if (current_context() == nullptr)
    return CUDA_ERROR_INVALID_CONTEXT;
  handle = module.get();
  driver().modules[handle] = std::move(module);
  return CUDA_SUCCESS;
}

CUresult unload(const void* handle) {
  std::lock_guard lock(driver().mutex);
  const auto it = driver().modules.find(handle);
  if (it == driver().modules.end())
    return CUDA_ERROR_INVALID_HANDLE;
  for (const auto& [name, f] : it->second->functions)
    driver().functions.erase(f.get());
  for (const auto& [name, k] : it->second->kernels)
    driver().kernels.erase(k.get());
  driver().modules.erase(it);
  return CUDA_SUCCESS;
}

Function* function_named(Module& module, std::string_view name) {
  const auto layout = module.layouts.find(name);
  if (layout == module.layouts.end())
    return nullptr;
  auto& f = module.functions[std::string(name)];
  if (f == nullptr) {
    f = std::make_unique<Function>(Function{std::string(name), layout->second});
    driver().functions.insert(f.get());
  }
  return f.get();
}

Function* launched_function(const void* handle) {
  if (driver().functions.count(handle) != 0)
    return static_cast<Function*>(const_cast<void*>(handle));
  if (driver().kernels.count(handle) != 0)
    return static_cast<const LibraryKernel*>(handle)->function;
  return nullptr;
}

CUresult allocate(CUdeviceptr* pointer, std::size_t size, bool managed) {
  if (pointer == nullptr || size == 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(driver().mutex);
  if (current_context() == nullptr)
    return CUDA_ERROR_INVALID_CONTEXT;
  const std::size_t rounded =
      (size + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
  void* p = std::aligned_alloc(allocation_alignment, rounded);
  if (p == nullptr)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<std::uintptr_t>(p);
  driver().allocations[*pointer] = {size, managed};
  return CUDA_SUCCESS;
}

CUresult release(CUdeviceptr pointer) {
  std::lock_guard lock(driver().mutex);
  const auto it = driver().allocations.find(pointer);
  if (it == driver().allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  driver().allocations.erase(it);
  std::free(reinterpret_cast<void*>(pointer));
  return CUDA_SUCCESS;
}

bool inside_allocation(std::uint64_t pointer, std::uint64_t bytes) {
  auto it = driver().allocations.upper_bound(pointer);
  if (it == driver().allocations.begin())
    return false;
  --it;
  return pointer + bytes <= it->first + it->second.size;
}

CUresult launch(const void* handle, const unsigned grid[3], const unsigned block[3],
                unsigned shared_bytes, void** params, void** extra) {
  std::lock_guard lock(driver().mutex);
  if (current_context() == nullptr)
    return CUDA_ERROR_INVALID_CONTEXT;
  const Function* f = launched_function(handle);
  if (f == nullptr)
    return CUDA_ERROR_INVALID_HANDLE;
  const std::uint64_t block_threads = std::uint64_t{block[0]} * block[1] * block[2];
  const std::uint64_t blocks = std::uint64_t{grid[0]} * grid[1] * grid[2];
  if (blocks == 0 || block_threads == 0 || block_threads > max_threads_per_block ||
      shared_bytes > max_shared_bytes)
    return CUDA_ERROR_INVALID_VALUE;
  std::vector<std::byte> bytes;
  if (const CUresult r = gather_params(*f, params, extra, bytes); r != CUDA_SUCCESS)
    return r;
  return run_kernel(*f, bytes, blocks * block_threads);
}

} // namespace gpurun::test::fake_cuda
