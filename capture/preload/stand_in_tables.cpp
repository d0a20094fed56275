#include "capture/preload/stand_in_tables.hpp"

#include "capture/preload/stand_ins.hpp"

namespace gpurun::capture::preload {

void* stand_in(std::string_view symbol, int cuda_version, std::uint64_t flags) {
  const bool per_thread = (flags & cu::k_proc_per_thread_stream) != 0;
  struct Entry {
    std::string_view name;
    void* function;
    void* per_thread;
    int since; ///< the CUDA version whose ABI the stand-in has
  };
  static const Entry entries[] = {
      {"cuModuleLoadData", reinterpret_cast<void*>(&cuModuleLoadData), nullptr, 0},
      {"cuModuleLoadDataEx", reinterpret_cast<void*>(&cuModuleLoadDataEx), nullptr, 0},
      {"cuModuleLoadFatBinary", reinterpret_cast<void*>(&cuModuleLoadFatBinary), nullptr, 0},
      {"cuModuleLoad", reinterpret_cast<void*>(&cuModuleLoad), nullptr, 0},
      {"cuModuleGetFunction", reinterpret_cast<void*>(&cuModuleGetFunction), nullptr, 0},
      {"cuLibraryLoadData", reinterpret_cast<void*>(&cuLibraryLoadData), nullptr, 0},
      {"cuLibraryLoadFromFile", reinterpret_cast<void*>(&cuLibraryLoadFromFile), nullptr, 0},
      {"cuLibraryGetKernel", reinterpret_cast<void*>(&cuLibraryGetKernel), nullptr, 0},
      {"cuKernelGetFunction", reinterpret_cast<void*>(&cuKernelGetFunction), nullptr, 0},
      {"cuMemAlloc", reinterpret_cast<void*>(&cuMemAlloc_v2), nullptr, 3020},
      {"cuMemAllocPitch", reinterpret_cast<void*>(&cuMemAllocPitch_v2), nullptr, 3020},
      {"cuMemFree", reinterpret_cast<void*>(&cuMemFree_v2), nullptr, 3020},
      {"cuMemAllocManaged", reinterpret_cast<void*>(&cuMemAllocManaged), nullptr, 0},
      {"cuMemAllocAsync", reinterpret_cast<void*>(&cuMemAllocAsync), nullptr, 0},
      {"cuMemAllocFromPoolAsync", reinterpret_cast<void*>(&cuMemAllocFromPoolAsync), nullptr, 0},
      {"cuMemFreeAsync", reinterpret_cast<void*>(&cuMemFreeAsync), nullptr, 0},
      {"cuMemMap", reinterpret_cast<void*>(&cuMemMap), nullptr, 0},
      {"cuMemUnmap", reinterpret_cast<void*>(&cuMemUnmap), nullptr, 0},
      {"cuLaunchKernel", reinterpret_cast<void*>(&cuLaunchKernel),
       reinterpret_cast<void*>(&cuLaunchKernel_ptsz), 0},
      {"cuLaunchKernelEx", reinterpret_cast<void*>(&cuLaunchKernelEx),
       reinterpret_cast<void*>(&cuLaunchKernelEx_ptsz), 0},
  };
  for (const Entry& e : entries)
    if (e.name == symbol) {
      if (cuda_version < e.since)
        return nullptr;
      // The per-thread-stream flag matters only to entry points that take a stream.
      return per_thread && e.per_thread != nullptr ? e.per_thread : e.function;
    }
  return nullptr;
}

void* exported_stand_in(std::string_view symbol) {
  struct Export {
    std::string_view name;
    void* function;
  };
  static const Export exports[] = {
      {"cuGetProcAddress", reinterpret_cast<void*>(&cuGetProcAddress)},
      {"cuGetProcAddress_v2", reinterpret_cast<void*>(&cuGetProcAddress_v2)},
      {"cuModuleLoadData", reinterpret_cast<void*>(&cuModuleLoadData)},
      {"cuModuleLoadDataEx", reinterpret_cast<void*>(&cuModuleLoadDataEx)},
      {"cuModuleLoadFatBinary", reinterpret_cast<void*>(&cuModuleLoadFatBinary)},
      {"cuModuleLoad", reinterpret_cast<void*>(&cuModuleLoad)},
      {"cuModuleGetFunction", reinterpret_cast<void*>(&cuModuleGetFunction)},
      {"cuLibraryLoadData", reinterpret_cast<void*>(&cuLibraryLoadData)},
      {"cuLibraryLoadFromFile", reinterpret_cast<void*>(&cuLibraryLoadFromFile)},
      {"cuLibraryGetKernel", reinterpret_cast<void*>(&cuLibraryGetKernel)},
      {"cuKernelGetFunction", reinterpret_cast<void*>(&cuKernelGetFunction)},
      {"cuMemAlloc_v2", reinterpret_cast<void*>(&cuMemAlloc_v2)},
      {"cuMemAllocPitch_v2", reinterpret_cast<void*>(&cuMemAllocPitch_v2)},
      {"cuMemFree_v2", reinterpret_cast<void*>(&cuMemFree_v2)},
      {"cuMemAllocManaged", reinterpret_cast<void*>(&cuMemAllocManaged)},
      {"cuMemAllocAsync", reinterpret_cast<void*>(&cuMemAllocAsync)},
      {"cuMemAllocFromPoolAsync", reinterpret_cast<void*>(&cuMemAllocFromPoolAsync)},
      {"cuMemFreeAsync", reinterpret_cast<void*>(&cuMemFreeAsync)},
      {"cuMemMap", reinterpret_cast<void*>(&cuMemMap)},
      {"cuMemUnmap", reinterpret_cast<void*>(&cuMemUnmap)},
      {"cuLaunchKernel", reinterpret_cast<void*>(&cuLaunchKernel)},
      {"cuLaunchKernel_ptsz", reinterpret_cast<void*>(&cuLaunchKernel_ptsz)},
      {"cuLaunchKernelEx", reinterpret_cast<void*>(&cuLaunchKernelEx)},
      {"cuLaunchKernelEx_ptsz", reinterpret_cast<void*>(&cuLaunchKernelEx_ptsz)},
  };
  for (const Export& e : exports)
    if (e.name == symbol)
      return e.function;
  return nullptr;
}

} // namespace gpurun::capture::preload
