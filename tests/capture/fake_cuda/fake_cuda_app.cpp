// The program the end-to-end test of `gpurun capture` runs on the fake libcuda (fake_cuda.cpp):
// it drives the driver API as CUDA programs do, reaching it one of three ways, and checks what
// it computed.
//
//   fake_cuda_app linked|dlsym|proc [--n N] [--managed] [--print-addresses] [--exit K]
//
//   linked   calls the entry points it links (libcuda.so.1)
//   dlsym    opens libcuda.so.1 itself and looks the entry points up with dlsym: on its
//            handle, and two with RTLD_NEXT and RTLD_DEFAULT
//   proc     asks cuGetProcAddress for every entry point, as CUDA 12's runtime does (the
//            per-thread-default-stream launches included)
//
// It loads tests/capture/fake_cuda/fake_module.hpp's PTX twice, as a module (saxpy) and as a
// library (scale_bias), allocates x, y (64 floats into its allocation, from cuMemAllocAsync, or
// cuMemAllocManaged with --managed) and bias, launches saxpy three times (kernelParams, `extra`,
// cuLaunchKernelEx) and scale_bias once (a by-value struct holding a pointer, 128 bytes of
// dynamic shared memory), copies y back and prints it in brief. It exits with 0 when y is as
// expected (or K with --exit K), 3 when it is not, 2 when a driver call fails.
#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "driver_api.hpp"
#include "fake_module.hpp"

namespace gpurun::test::fake_cuda {
namespace {

/// The entry points the program calls, however it found them.
struct Driver {
  decltype(&cuGetErrorName) get_error_name = nullptr;
  decltype(&cuInit) init = nullptr;
  decltype(&cuDeviceGet) device_get = nullptr;
  decltype(&cuDevicePrimaryCtxRetain) primary_ctx_retain = nullptr;
  decltype(&cuDevicePrimaryCtxRelease_v2) primary_ctx_release = nullptr;
  decltype(&cuCtxSetCurrent) ctx_set_current = nullptr;
  decltype(&cuCtxSynchronize) ctx_synchronize = nullptr;
  decltype(&cuModuleLoadData) module_load_data = nullptr;
  decltype(&cuModuleLoadDataEx) module_load_data_ex = nullptr;
  decltype(&cuModuleGetFunction) module_get_function = nullptr;
  decltype(&cuModuleUnload) module_unload = nullptr;
  decltype(&cuLibraryLoadData) library_load_data = nullptr;
  decltype(&cuLibraryGetKernel) library_get_kernel = nullptr;
  decltype(&cuLibraryUnload) library_unload = nullptr;
  decltype(&cuKernelGetFunction) kernel_get_function = nullptr;
  decltype(&cuMemAlloc_v2) mem_alloc = nullptr;
  decltype(&cuMemAllocManaged) mem_alloc_managed = nullptr;
  decltype(&cuMemAllocAsync) mem_alloc_async = nullptr;
  decltype(&cuMemFree_v2) mem_free = nullptr;
  decltype(&cuMemFreeAsync) mem_free_async = nullptr;
  decltype(&cuMemcpyHtoD_v2) memcpy_htod = nullptr;
  decltype(&cuMemcpyDtoH_v2) memcpy_dtoh = nullptr;
  decltype(&cuLaunchKernel) launch_kernel = nullptr;
  decltype(&cuLaunchKernelEx) launch_kernel_ex = nullptr;
};

Driver linked() {
  return {.get_error_name = &cuGetErrorName,
          .init = &cuInit,
          .device_get = &cuDeviceGet,
          .primary_ctx_retain = &cuDevicePrimaryCtxRetain,
          .primary_ctx_release = &cuDevicePrimaryCtxRelease_v2,
          .ctx_set_current = &cuCtxSetCurrent,
          .ctx_synchronize = &cuCtxSynchronize,
          .module_load_data = &cuModuleLoadData,
          .module_load_data_ex = &cuModuleLoadDataEx,
          .module_get_function = &cuModuleGetFunction,
          .module_unload = &cuModuleUnload,
          .library_load_data = &cuLibraryLoadData,
          .library_get_kernel = &cuLibraryGetKernel,
          .library_unload = &cuLibraryUnload,
          .kernel_get_function = &cuKernelGetFunction,
          .mem_alloc = &cuMemAlloc_v2,
          .mem_alloc_managed = &cuMemAllocManaged,
          .mem_alloc_async = &cuMemAllocAsync,
          .mem_free = &cuMemFree_v2,
          .mem_free_async = &cuMemFreeAsync,
          .memcpy_htod = &cuMemcpyHtoD_v2,
          .memcpy_dtoh = &cuMemcpyDtoH_v2,
          .launch_kernel = &cuLaunchKernel,
          .launch_kernel_ex = &cuLaunchKernelEx};
}

/// Every entry point `find(exported name, cuGetProcAddress name, per-thread stream)` finds;
/// false when one is missing.
template <class Find> bool look_up(Driver& d, Find&& find) {
  bool all = true;
  const auto get = [&](auto& slot, const char* exported, const char* name, bool per_thread) {
    slot =
        reinterpret_cast<std::remove_reference_t<decltype(slot)>>(find(exported, name, per_thread));
    if (slot == nullptr) {
      std::fprintf(stderr, "fake_cuda_app: %s not found\n", exported);
      all = false;
    }
  };
  get(d.get_error_name, "cuGetErrorName", "cuGetErrorName", false);
  get(d.init, "cuInit", "cuInit", false);
  get(d.device_get, "cuDeviceGet", "cuDeviceGet", false);
  get(d.primary_ctx_retain, "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain", false);
  get(d.primary_ctx_release, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease", false);
  get(d.ctx_set_current, "cuCtxSetCurrent", "cuCtxSetCurrent", false);
  get(d.ctx_synchronize, "cuCtxSynchronize", "cuCtxSynchronize", false);
  get(d.module_load_data, "cuModuleLoadData", "cuModuleLoadData", false);
  get(d.module_load_data_ex, "cuModuleLoadDataEx", "cuModuleLoadDataEx", false);
  get(d.module_get_function, "cuModuleGetFunction", "cuModuleGetFunction", false);
  get(d.module_unload, "cuModuleUnload", "cuModuleUnload", false);
  get(d.library_load_data, "cuLibraryLoadData", "cuLibraryLoadData", false);
  get(d.library_get_kernel, "cuLibraryGetKernel", "cuLibraryGetKernel", false);
  get(d.library_unload, "cuLibraryUnload", "cuLibraryUnload", false);
  get(d.kernel_get_function, "cuKernelGetFunction", "cuKernelGetFunction", false);
  get(d.mem_alloc, "cuMemAlloc_v2", "cuMemAlloc", false);
  get(d.mem_alloc_managed, "cuMemAllocManaged", "cuMemAllocManaged", false);
  get(d.mem_alloc_async, "cuMemAllocAsync", "cuMemAllocAsync", false);
  get(d.mem_free, "cuMemFree_v2", "cuMemFree", false);
  get(d.mem_free_async, "cuMemFreeAsync", "cuMemFreeAsync", false);
  get(d.memcpy_htod, "cuMemcpyHtoD_v2", "cuMemcpyHtoD", false);
  get(d.memcpy_dtoh, "cuMemcpyDtoH_v2", "cuMemcpyDtoH", false);
  get(d.launch_kernel, "cuLaunchKernel", "cuLaunchKernel", true);
  get(d.launch_kernel_ex, "cuLaunchKernelEx", "cuLaunchKernelEx", true);
  return all;
}

bool from_dlsym(Driver& d) {
  void* libcuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (libcuda == nullptr) {
    std::fprintf(stderr, "fake_cuda_app: %s\n", dlerror());
    return false;
  }
  // As wrapper libraries do, two entry points are looked up in the global scope: cuLaunchKernel
  // as the next definition after the program's own (the interposer's, when it is preloaded) and
  // cuMemAlloc_v2 as the first.
  return look_up(d, [&](const char* exported, const char*, bool) {
    const std::string_view name = exported;
    void* handle = name == "cuLaunchKernel"  ? RTLD_NEXT
                   : name == "cuMemAlloc_v2" ? RTLD_DEFAULT
                                             : libcuda;
    return dlsym(handle, exported);
  });
}

bool from_proc_address(Driver& d) {
  constexpr int cuda_version = 12040;
  // The linked cuGetProcAddress hands out the one to use from then on (cuGetProcAddress_v2's
  // ABI from CUDA 12.0), as the runtime finds it.
  void* found = nullptr;
  if (cuGetProcAddress("cuGetProcAddress", &found, cuda_version, 0) != CUresult{} ||
      found == nullptr) {
    std::fprintf(stderr, "fake_cuda_app: cuGetProcAddress cannot find itself\n");
    return false;
  }
  const auto get_proc_address = reinterpret_cast<decltype(&cuGetProcAddress_v2)>(found);
  return look_up(d, [&](const char*, const char* name, bool per_thread) -> void* {
    void* f = nullptr;
    int status = -1;
    const std::uint64_t flags = per_thread ? capture::cu::k_proc_per_thread_stream : 0;
    return get_proc_address(name, &f, cuda_version, flags, &status) == CUresult{} && status == 0
               ? f
               : nullptr;
  });
}

struct Options {
  std::string mode;
  int n = 1000;
  bool managed = false;
  bool print_addresses = false;
  int exit_code = 0;
};

int usage() {
  std::fprintf(stderr, "usage: fake_cuda_app linked|dlsym|proc [--n N] [--managed] "
                       "[--print-addresses] [--exit K]\n");
  return 64;
}

class Checked {
public:
  explicit Checked(const Driver& d) : m_driver(d) {}
  /// Whether `r` is success; reports the call otherwise.
  bool operator()(CUresult r, const char* call) const {
    if (r == CUresult{})
      return true;
    const char* name = nullptr;
    if (m_driver.get_error_name == nullptr || m_driver.get_error_name(r, &name) != CUresult{})
      name = "?";
    std::fprintf(stderr, "fake_cuda_app: %s: %s (%d)\n", call, name, static_cast<int>(r));
    return false;
  }

private:
  const Driver& m_driver;
};

#define CHECK(call)                                                                                \
  do {                                                                                             \
    if (!ok((call), #call))                                                                        \
      return 2;                                                                                    \
  } while (0)

int run(const Options& o) {
  Driver d;
  if (o.mode == "linked")
    d = linked();
  else if (o.mode == "dlsym" ? !from_dlsym(d) : !from_proc_address(d))
    return 2;
  const Checked ok(d);
  const int n = o.n;
  CHECK(d.init(0));
  CUdevice device = 0;
  CHECK(d.device_get(&device, 0));
  CUcontext context = nullptr;
  CHECK(d.primary_ctx_retain(&context, device));
  CHECK(d.ctx_set_current(context));

  // saxpy from a module; scale_bias from a library, launched through its CUkernel or, in dlsym
  // mode, through the CUfunction cuKernelGetFunction makes of it.
  CUmodule module = nullptr;
  if (o.mode == "dlsym")
    CHECK(d.module_load_data_ex(&module, module_ptx, 0, nullptr, nullptr));
  else
    CHECK(d.module_load_data(&module, module_ptx));
  CUfunction saxpy = nullptr;
  CHECK(d.module_get_function(&saxpy, module, std::string(saxpy_name).c_str()));
  CUlibrary library = nullptr;
  CHECK(d.library_load_data(&library, module_ptx, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel kernel = nullptr;
  CHECK(d.library_get_kernel(&kernel, library, std::string(scale_bias_name).c_str()));
  CUfunction scale_bias = reinterpret_cast<CUfunction>(kernel);
  if (o.mode == "dlsym")
    CHECK(d.kernel_get_function(&scale_bias, kernel));

  const std::size_t bytes = sizeof(float) * n;
  const std::size_t y_bytes = sizeof(float) * (n + y_offset);
  CUdeviceptr x = 0;
  CUdeviceptr y_allocation = 0;
  CUdeviceptr bias = 0;
  CHECK(d.mem_alloc(&x, bytes));
  if (o.managed)
    CHECK(d.mem_alloc_managed(&y_allocation, y_bytes, 1 /* CU_MEM_ATTACH_GLOBAL */));
  else
    CHECK(d.mem_alloc_async(&y_allocation, y_bytes, nullptr));
  CHECK(d.mem_alloc(&bias, bytes));
  if (o.print_addresses)
    std::fprintf(stderr, "fake_cuda_app: x=%#" PRIx64 " y=%#" PRIx64 " bias=%#" PRIx64 "\n",
                 std::uint64_t{x}, std::uint64_t{y_allocation}, std::uint64_t{bias});
  const auto host_x = x_values(n);
  const auto host_bias = bias_values(n);
  std::vector<float> host_y = y_allocation_values(n, 0, false);
  CHECK(d.memcpy_htod(x, host_x.data(), bytes));
  CHECK(d.memcpy_htod(y_allocation, host_y.data(), y_bytes));
  CHECK(d.memcpy_htod(bias, host_bias.data(), bytes));

  CUdeviceptr y = y_allocation + sizeof(float) * y_offset;
  const unsigned saxpy_grid = (n + saxpy_block - 1) / saxpy_block;
  for (int k = 1; k <= saxpy_launches; ++k) {
    float a = saxpy_a(k);
    int count = n;
    void* params[] = {&count, &a, &x, &y};
    if (k == 1) {
      CHECK(
          d.launch_kernel(saxpy, saxpy_grid, 1, 1, saxpy_block, 1, 1, 0, nullptr, params, nullptr));
    } else if (k == 2) { // the parameters as one buffer, laid out as the kernel takes them
      unsigned char buffer[24] = {};
      std::memcpy(buffer, &count, 4);
      std::memcpy(buffer + 4, &a, 4);
      std::memcpy(buffer + 8, &x, 8);
      std::memcpy(buffer + 16, &y, 8);
      std::size_t size = sizeof buffer;
      void* extra[] = {capture::cu::k_launch_param_buffer_pointer, buffer,
                       capture::cu::k_launch_param_buffer_size, &size,
                       capture::cu::k_launch_param_end};
      CHECK(
          d.launch_kernel(saxpy, saxpy_grid, 1, 1, saxpy_block, 1, 1, 0, nullptr, nullptr, extra));
    } else {
      CUlaunchConfig config{};
      config.gridDimX = saxpy_grid;
      config.gridDimY = config.gridDimZ = 1;
      config.blockDimX = saxpy_block;
      config.blockDimY = config.blockDimZ = 1;
      CHECK(d.launch_kernel_ex(&config, saxpy, params, nullptr));
    }
  }
  Scale s;
  s.a = scale;
  s.bias = bias;
  s.n = n;
  void* params[] = {&s, &y};
  CHECK(d.launch_kernel(scale_bias, (n + scale_bias_block - 1) / scale_bias_block, 1, 1,
                        scale_bias_block, 1, 1, scale_bias_shared_bytes, nullptr, params, nullptr));
  CHECK(d.ctx_synchronize());
  CHECK(d.memcpy_dtoh(host_y.data(), y_allocation, y_bytes));

  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += host_y[y_offset + i];
  std::printf("n=%d sum=%.9g y[1]=%.9g y[n-1]=%.9g\n", n, sum, host_y[y_offset + 1],
              host_y[y_offset + n - 1]);
  const auto want = y_allocation_values(n, saxpy_launches, true);
  for (std::size_t i = 0; i < want.size(); ++i)
    if (host_y[i] != want[i]) {
      std::printf("wrong: y allocation[%zu] = %.9g, want %.9g\n", i, host_y[i], want[i]);
      return 3;
    }
  std::printf("as expected\n");

  CHECK(d.mem_free(x));
  if (o.managed)
    CHECK(d.mem_free(y_allocation));
  else
    CHECK(d.mem_free_async(y_allocation, nullptr));
  CHECK(d.mem_free(bias));
  CHECK(d.library_unload(library));
  CHECK(d.module_unload(module));
  CHECK(d.primary_ctx_release(device));
  return o.exit_code;
}

} // namespace
} // namespace gpurun::test::fake_cuda

int main(int argc, char** argv) {
  using namespace gpurun::test::fake_cuda;
  Options o;
  if (argc < 2)
    return usage();
  o.mode = argv[1];
  if (o.mode != "linked" && o.mode != "dlsym" && o.mode != "proc")
    return usage();
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--managed")
      o.managed = true;
    else if (a == "--print-addresses")
      o.print_addresses = true;
    else if (a == "--n" && i + 1 < argc)
      o.n = std::atoi(argv[++i]);
    else if (a == "--exit" && i + 1 < argc)
      o.exit_code = std::atoi(argv[++i]);
    else
      return usage();
  }
  if (o.n < 1 || o.n > 1 << 20)
    return usage();
  return run(o);
}
