// libgpurun-capture.so: loaded into a CUDA program by LD_PRELOAD (`gpurun capture -- PROGRAM`, or
// GPURUN_CAPTURE set by whatever starts it), it stands in for the driver entry points that load
// modules, allocate memory and launch kernels, and passes every call on unchanged. It keeps a map
// of the program's allocations and of its modules' images, and at each launch the capture
// selects it synchronizes, saves every allocation a pointer in the parameter bytes points into,
// launches, synchronizes and saves them again, then writes the capture folder
// (capture/launch_record). A program reaches the driver three ways, and all three end here: by
// linking libcuda (these exported symbols win over libcuda's), by dlsym on libcuda (dlsym is
// exported here too) and through cuGetProcAddress (CUDA 12+'s runtime, PyTorch).
//
// GPURUN_CAPTURE="out=DIR,kernel=GLOB,nth=K|all,max-bytes=N,quiet" (docs/capture.md).
#include <dlfcn.h>
#include <fnmatch.h>
#include <sys/statvfs.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "backends/kit/module_image.hpp"
#include "capture/allocation_map.hpp"
#include "capture/launch_record.hpp"
#include "capture/pointer_scan.hpp"
#include "capture/preload/driver_entry_points.hpp"

namespace gpurun::capture {
namespace {

using namespace cu;

// ---- settings
// ------------------------------------------------------------------------------------

struct Settings {
  std::string out = "gpurun-capture";
  std::string kernel = "*";
  std::uint64_t nth = 1; ///< 0: every launch
  std::uint64_t max_bytes = std::numeric_limits<std::uint64_t>::max();
  bool quiet = false;
};

Settings read_settings() {
  Settings s;
  const char* env = std::getenv("GPURUN_CAPTURE");
  std::string_view text = env != nullptr ? env : "";
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const auto eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    const std::string value(eq == std::string_view::npos ? std::string_view()
                                                         : item.substr(eq + 1));
    if (key == "out")
      s.out = value;
    else if (key == "kernel")
      s.kernel = value;
    else if (key == "nth")
      s.nth = value == "all" ? 0 : std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "max-bytes")
      s.max_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (key == "quiet")
      s.quiet = true;
  }
  return s;
}

const Settings& settings() {
  static const Settings s = read_settings();
  return s;
}

void say(const std::string& line) {
  if (!settings().quiet)
    std::fprintf(stderr, "gpurun capture: %s\n", line.c_str());
}

// ---- the real entry points
// -----------------------------------------------------------------------

using dlsym_fn = void* (*)(void*, const char*);

dlsym_fn real_dlsym() {
  static const dlsym_fn f = [] {
    for (const char* version : {"GLIBC_2.34", "GLIBC_2.2.5"})
      if (void* p = dlvsym(RTLD_NEXT, "dlsym", version))
        return reinterpret_cast<dlsym_fn>(p);
    return static_cast<dlsym_fn>(nullptr);
  }();
  return f;
}

void* libcuda() {
  static void* const handle = [] {
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    return h != nullptr ? h : dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  }();
  return handle;
}

/// libcuda's own entry point `symbol` (as exported: "cuMemAlloc_v2").
template <class Fn> Fn real(const char* symbol) {
  void* h = libcuda();
  dlsym_fn d = real_dlsym();
  return h != nullptr && d != nullptr ? reinterpret_cast<Fn>(d(h, symbol)) : nullptr;
}

// ---- what the program holds
// ----------------------------------------------------------------------

struct Image {
  kit::ImageKind kind = kit::ImageKind::unknown;
  std::vector<std::byte> bytes;
  std::string why; ///< why it could not be copied
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

State& state() {
  static State* s = new State; // never destroyed: launches may come during exit
  return *s;
}

/// A copy of the image the driver was handed by pointer: its size from its own headers.
std::unique_ptr<Image> copy_image(const void* data) {
  auto image = std::make_unique<Image>();
  if (data == nullptr)
    return image;
  const auto* p = static_cast<const std::byte*>(data);
  try {
    image->kind = kit::image_kind(std::span(p, 16));
    if (image->kind == kit::ImageKind::fatbin_wrapper) { // {magic, version, data, filename}
      std::memcpy(&p, p + 8, sizeof p);
      image->kind = kit::image_kind(std::span(p, 16));
    }
    // The image's own tables say where it ends; nothing beyond them is read.
    const std::uint64_t size = kit::image_size(std::span(p, std::size_t{1} << 40));
    image->bytes.assign(p, p + size + (image->kind == kit::ImageKind::ptx ? 1 : 0));
  } catch (const std::exception& e) {
    image->why = e.what();
  }
  return image;
}

std::unique_ptr<Image> read_image_file(const char* path) {
  auto image = std::make_unique<Image>();
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    image->why = fmt::format("{}: cannot be read", path);
    return image;
  }
  image->bytes.resize(text.size());
  std::memcpy(image->bytes.data(), text.data(), text.size());
  image->kind = kit::image_kind(image->bytes);
  if (image->kind == kit::ImageKind::ptx)
    image->bytes.push_back(std::byte{0});
  return image;
}

void remember_image(const void* handle, std::unique_ptr<Image> image) {
  std::lock_guard lock(state().mutex);
  state().images[handle] = std::move(image);
}

void remember_kernel(const void* handle, const void* owner, const char* name, bool library_kernel) {
  std::lock_guard lock(state().mutex);
  const auto it = state().images.find(owner);
  state().kernels[handle] = {name != nullptr ? name : "",
                             it != state().images.end() ? it->second.get() : nullptr,
                             library_kernel};
}

void remember_allocation(CUdeviceptr base, std::size_t size, MemoryKind kind) {
  std::lock_guard lock(state().mutex);
  state().allocations.add({base, size, kind});
}

void forget_allocation(CUdeviceptr base) {
  std::lock_guard lock(state().mutex);
  (void)state().allocations.remove(base);
}

// ---- capturing a launch
// --------------------------------------------------------------------------

struct Launch {
  const void* function;
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
  CUstream stream;
  void** params;
  void** extra;
};

/// The launch's parameters: each one's offset and size, from the driver (cuFuncGetParamInfo, or
/// cuKernelGetParamInfo for a library kernel; driver 12.4+).
std::vector<ParamSlot> param_slots(const void* function, bool library_kernel) {
  using info_fn = CUresult (*)(const void*, std::size_t, std::size_t*, std::size_t*);
  static const auto function_info = real<info_fn>("cuFuncGetParamInfo");
  static const auto kernel_info = real<info_fn>("cuKernelGetParamInfo");
  const info_fn get_info = library_kernel ? kernel_info : function_info;
  std::vector<ParamSlot> slots;
  if (get_info == nullptr)
    throw std::runtime_error("the driver does not describe kernel parameters (before 12.4)");
  for (std::size_t i = 0; i < 4096; ++i) {
    std::size_t offset = 0;
    std::size_t size = 0;
    if (get_info(function, i, &offset, &size) != k_success)
      break;
    slots.push_back({offset, size});
  }
  return slots;
}

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
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:")
      affordable = std::min(affordable, kib * 1024 / 3);
  return affordable;
}

/// Saves each window of the allocations the pointers reach.
void save_memory(LaunchRecord& record, bool after) {
  static const auto dtoh = real<cu::cuMemcpyDtoH_fn>("cuMemcpyDtoH_v2");
  for (auto& m : record.memory) {
    auto& bytes = after ? m.after : m.before;
    bytes.resize(m.window.saved);
    if (m.window.saved > 0 &&
        dtoh(bytes.data(), m.window.allocation.base + m.window.offset, m.window.saved) !=
            k_success) {
      record.incomplete.push_back(
          fmt::format("a{}: its contents could not be copied", &m - record.memory.data()));
      bytes.clear();
    }
  }
}

std::string device_description(std::string& arch) {
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
  arch = fmt::format("sm_{}{}", major, minor);
  return name;
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

/// Runs the launch through `go`, capturing it when the settings select it.
template <class Go> CUresult launch(const Launch& l, Go&& go) {
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
    record.slots = param_slots(l.function, info.library_kernel);
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
    record.device = device_description(record.arch);
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

} // namespace
} // namespace gpurun::capture

// ---- the entry points
// ------------------------------------------------------------------------------

using namespace gpurun::capture;
using namespace gpurun::capture::cu;

#define GPURUN_REAL(type, symbol)                                                                  \
  static const auto real_fn = real<type>(symbol);                                                  \
  if (real_fn == nullptr)                                                                          \
    return static_cast<CUresult>(34) /* CUDA_ERROR_STUB_LIBRARY */;

extern "C" {

__attribute__((visibility("default"))) CUresult cuModuleLoadData(CUmodule* module,
                                                                 const void* image) {
  GPURUN_REAL(cuModuleLoadData_fn, "cuModuleLoadData");
  const CUresult r = real_fn(module, image);
  if (r == k_success)
    remember_image(*module, copy_image(image));
  return r;
}

__attribute__((visibility("default"))) CUresult
cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int n, CUjit_option* options,
                   void** values) {
  GPURUN_REAL(gpurun::cuda::cuModuleLoadDataEx_fn, "cuModuleLoadDataEx");
  const CUresult r = real_fn(module, image, n, options, values);
  if (r == k_success)
    remember_image(*module, copy_image(image));
  return r;
}

__attribute__((visibility("default"))) CUresult cuModuleLoadFatBinary(CUmodule* module,
                                                                      const void* fatbin) {
  GPURUN_REAL(cuModuleLoadFatBinary_fn, "cuModuleLoadFatBinary");
  const CUresult r = real_fn(module, fatbin);
  if (r == k_success)
    remember_image(*module, copy_image(fatbin));
  return r;
}

__attribute__((visibility("default"))) CUresult cuModuleLoad(CUmodule* module, const char* path) {
  GPURUN_REAL(cuModuleLoad_fn, "cuModuleLoad");
  const CUresult r = real_fn(module, path);
  if (r == k_success)
    remember_image(*module, read_image_file(path));
  return r;
}

__attribute__((visibility("default"))) CUresult cuModuleGetFunction(CUfunction* f, CUmodule module,
                                                                    const char* name) {
  GPURUN_REAL(gpurun::cuda::cuModuleGetFunction_fn, "cuModuleGetFunction");
  const CUresult r = real_fn(f, module, name);
  if (r == k_success)
    remember_kernel(*f, module, name, false);
  return r;
}

__attribute__((visibility("default"))) CUresult
cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jit_options,
                  void** jit_values, unsigned int n_jit, CUlibraryOption* options, void** values,
                  unsigned int n) {
  GPURUN_REAL(cuLibraryLoadData_fn, "cuLibraryLoadData");
  const CUresult r = real_fn(library, code, jit_options, jit_values, n_jit, options, values, n);
  if (r == k_success)
    remember_image(*library, copy_image(code));
  return r;
}

__attribute__((visibility("default"))) CUresult
cuLibraryLoadFromFile(CUlibrary* library, const char* path, CUjit_option* jit_options,
                      void** jit_values, unsigned int n_jit, CUlibraryOption* options,
                      void** values, unsigned int n) {
  GPURUN_REAL(cuLibraryLoadFromFile_fn, "cuLibraryLoadFromFile");
  const CUresult r = real_fn(library, path, jit_options, jit_values, n_jit, options, values, n);
  if (r == k_success)
    remember_image(*library, read_image_file(path));
  return r;
}

__attribute__((visibility("default"))) CUresult
cuLibraryGetKernel(CUkernel* kernel, CUlibrary library, const char* name) {
  GPURUN_REAL(cuLibraryGetKernel_fn, "cuLibraryGetKernel");
  const CUresult r = real_fn(kernel, library, name);
  if (r == k_success)
    remember_kernel(*kernel, library, name, true);
  return r;
}

__attribute__((visibility("default"))) CUresult cuKernelGetFunction(CUfunction* f,
                                                                    CUkernel kernel) {
  GPURUN_REAL(cuKernelGetFunction_fn, "cuKernelGetFunction");
  const CUresult r = real_fn(f, kernel);
  if (r == k_success) {
    std::lock_guard lock(state().mutex);
    if (const auto it = state().kernels.find(kernel); it != state().kernels.end()) {
      KernelInfo info = it->second;
      info.library_kernel = false;
      state().kernels[*f] = info;
    }
  }
  return r;
}

__attribute__((visibility("default"))) CUresult cuMemAlloc_v2(CUdeviceptr* p, std::size_t size) {
  GPURUN_REAL(gpurun::cuda::cuMemAlloc_fn, "cuMemAlloc_v2");
  const CUresult r = real_fn(p, size);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::device);
  return r;
}

__attribute__((visibility("default"))) CUresult
cuMemAllocPitch_v2(CUdeviceptr* p, std::size_t* pitch, std::size_t width, std::size_t height,
                   unsigned int element) {
  GPURUN_REAL(cuMemAllocPitch_fn, "cuMemAllocPitch_v2");
  const CUresult r = real_fn(p, pitch, width, height, element);
  if (r == k_success)
    remember_allocation(*p, *pitch * height, MemoryKind::device);
  return r;
}

__attribute__((visibility("default"))) CUresult cuMemAllocManaged(CUdeviceptr* p, std::size_t size,
                                                                  unsigned int flags) {
  GPURUN_REAL(cuMemAllocManaged_fn, "cuMemAllocManaged");
  const CUresult r = real_fn(p, size, flags);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::managed);
  return r;
}

__attribute__((visibility("default"))) CUresult cuMemAllocAsync(CUdeviceptr* p, std::size_t size,
                                                                CUstream stream) {
  GPURUN_REAL(cuMemAllocAsync_fn, "cuMemAllocAsync");
  const CUresult r = real_fn(p, size, stream);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::pool);
  return r;
}

__attribute__((visibility("default"))) CUresult
cuMemAllocFromPoolAsync(CUdeviceptr* p, std::size_t size, CUmemoryPool pool, CUstream stream) {
  GPURUN_REAL(cuMemAllocFromPoolAsync_fn, "cuMemAllocFromPoolAsync");
  const CUresult r = real_fn(p, size, pool, stream);
  if (r == k_success)
    remember_allocation(*p, size, MemoryKind::pool);
  return r;
}

__attribute__((visibility("default"))) CUresult cuMemFree_v2(CUdeviceptr p) {
  GPURUN_REAL(gpurun::cuda::cuMemFree_fn, "cuMemFree_v2");
  forget_allocation(p);
  return real_fn(p);
}

__attribute__((visibility("default"))) CUresult cuMemFreeAsync(CUdeviceptr p, CUstream stream) {
  GPURUN_REAL(cuMemFreeAsync_fn, "cuMemFreeAsync");
  forget_allocation(p);
  return real_fn(p, stream);
}

__attribute__((visibility("default"))) CUresult cuMemMap(CUdeviceptr p, std::size_t size,
                                                         std::size_t offset,
                                                         CUmemGenericAllocationHandle handle,
                                                         unsigned long long flags) {
  GPURUN_REAL(cuMemMap_fn, "cuMemMap");
  const CUresult r = real_fn(p, size, offset, handle, flags);
  if (r == k_success)
    remember_allocation(p, size, MemoryKind::mapped);
  return r;
}

__attribute__((visibility("default"))) CUresult cuMemUnmap(CUdeviceptr p, std::size_t size) {
  GPURUN_REAL(cuMemUnmap_fn, "cuMemUnmap");
  forget_allocation(p);
  return real_fn(p, size);
}

#define GPURUN_LAUNCH_KERNEL(export_name, symbol)                                                  \
  __attribute__((visibility("default"))) CUresult export_name(                                     \
      CUfunction f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,            \
      unsigned int by, unsigned int bz, unsigned int shared, CUstream stream, void** params,       \
      void** extra) {                                                                              \
    GPURUN_REAL(gpurun::cuda::cuLaunchKernel_fn, symbol);                                          \
    const Launch l{f, {gx, gy, gz}, {bx, by, bz}, shared, stream, params, extra};                  \
    return launch(                                                                                 \
        l, [&] { return real_fn(f, gx, gy, gz, bx, by, bz, shared, stream, params, extra); });     \
  }
GPURUN_LAUNCH_KERNEL(cuLaunchKernel, "cuLaunchKernel")
GPURUN_LAUNCH_KERNEL(cuLaunchKernel_ptsz, "cuLaunchKernel_ptsz")

#define GPURUN_LAUNCH_KERNEL_EX(export_name, symbol)                                               \
  __attribute__((visibility("default"))) CUresult export_name(                                     \
      const CUlaunchConfig* c, CUfunction f, void** params, void** extra) {                        \
    GPURUN_REAL(cuLaunchKernelEx_fn, symbol);                                                      \
    const Launch l{f,                                                                              \
                   {c->gridDimX, c->gridDimY, c->gridDimZ},                                        \
                   {c->blockDimX, c->blockDimY, c->blockDimZ},                                     \
                   c->sharedMemBytes,                                                              \
                   c->hStream,                                                                     \
                   params,                                                                         \
                   extra};                                                                         \
    return launch(l, [&] { return real_fn(c, f, params, extra); });                                \
  }
GPURUN_LAUNCH_KERNEL_EX(cuLaunchKernelEx, "cuLaunchKernelEx")
GPURUN_LAUNCH_KERNEL_EX(cuLaunchKernelEx_ptsz, "cuLaunchKernelEx_ptsz")

} // extern "C"

namespace gpurun::capture {
namespace {

/// The stand-in for a driver entry point `symbol` as cuGetProcAddress names it (no version
/// suffix), for the ABI that `cuda_version` and `flags` select; nullptr when it is not stood in
/// for (or the caller asks for an older ABI than the stand-in's).
void* stand_in(std::string_view symbol, int cuda_version, std::uint64_t flags) {
  const bool per_thread = (flags & k_proc_per_thread_stream) != 0;
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

/// The stand-in exported under `symbol` (the driver's exported name: "cuMemAlloc_v2").
void* exported_stand_in(std::string_view symbol);

} // namespace
} // namespace gpurun::capture

extern "C" {

__attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(const char* symbol, void** pfn,
                                                                    int cuda_version,
                                                                    std::uint64_t flags,
                                                                    int* status);

__attribute__((visibility("default"))) CUresult
cuGetProcAddress(const char* symbol, void** pfn, int cuda_version, std::uint64_t flags) {
  GPURUN_REAL(cuGetProcAddress_fn, "cuGetProcAddress");
  const CUresult r = real_fn(symbol, pfn, cuda_version, flags);
  if (r == k_success && symbol != nullptr && pfn != nullptr && *pfn != nullptr) {
    if (std::string_view(symbol) == "cuGetProcAddress")
      *pfn = cuda_version >= 12000 ? reinterpret_cast<void*>(&cuGetProcAddress_v2)
                                   : reinterpret_cast<void*>(&cuGetProcAddress);
    else if (void* own = stand_in(symbol, cuda_version, flags))
      *pfn = own;
  }
  return r;
}

CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int cuda_version, std::uint64_t flags,
                             int* status) {
  GPURUN_REAL(cuGetProcAddress_v2_fn, "cuGetProcAddress_v2");
  const CUresult r = real_fn(symbol, pfn, cuda_version, flags, status);
  if (r == k_success && symbol != nullptr && pfn != nullptr && *pfn != nullptr) {
    if (std::string_view(symbol) == "cuGetProcAddress")
      *pfn = cuda_version >= 12000 ? reinterpret_cast<void*>(&cuGetProcAddress_v2)
                                   : reinterpret_cast<void*>(&cuGetProcAddress);
    else if (void* own = stand_in(symbol, cuda_version, flags))
      *pfn = own;
  }
  return r;
}

/// dlsym on a handle (libcuda's, a program that loads the driver itself): the stand-in where
/// there is one under that exported name, else what the driver exports.
__attribute__((visibility("hidden"))) void* gpurun_capture_dlsym(void* handle, const char* symbol) {
  const dlsym_fn d = real_dlsym();
  if (d == nullptr)
    return nullptr;
  void* found = d(handle, symbol);
  if (found == nullptr || symbol == nullptr || std::strncmp(symbol, "cu", 2) != 0)
    return found;
  void* own = exported_stand_in(symbol);
  return own != nullptr ? own : found;
}

} // extern "C"

namespace gpurun::capture {
namespace {

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

} // namespace
} // namespace gpurun::capture

// dlsym itself. glibc resolves dlsym(RTLD_NEXT, …) relative to its caller, found by the return
// address: a call passed on from a C++ function would resolve relative to this library instead.
// So dlsym is a jump: RTLD_NEXT goes straight on to glibc's dlsym with the caller's return address
// untouched; any other handle to gpurun_capture_dlsym.
extern "C" {
__attribute__((visibility("hidden"))) void* gpurun_capture_real_dlsym = nullptr;
}

__attribute__((constructor)) static void gpurun_capture_init() {
  gpurun_capture_real_dlsym = reinterpret_cast<void*>(gpurun::capture::real_dlsym());
}

#if defined(__x86_64__)
asm(R"(
  .text
  .globl dlsym
  .type dlsym, @function
dlsym:
  cmpq $-1, %rdi
  jne 1f
  movq gpurun_capture_real_dlsym(%rip), %rax
  testq %rax, %rax
  je 1f
  jmp *%rax
1:
  jmp gpurun_capture_dlsym
  .size dlsym, .-dlsym
)");
#else
#error "the capture interposer's dlsym is written for x86-64"
#endif
