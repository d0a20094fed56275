#pragma once
// The fake libcuda's state (fake_cuda.cpp): what the driver calls made — contexts, loaded modules
// with their kernels' parameter layouts and the handles handed out for them, allocations — and
// the operations the entry points share. Device pointers are host addresses (aligned_alloc),
// never 0; a launch runs the kernel's host body (kernels.hpp). One state for the process, behind
// one mutex.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "driver_api.hpp"

namespace gpurun::test::fake_cuda {

inline constexpr unsigned max_threads_per_block = 1024;
inline constexpr unsigned max_shared_bytes = 48 * 1024;

/// One parameter's place in the parameter bytes.
struct Slot {
  std::size_t offset = 0;
  std::size_t size = 0;
  bool operator==(const Slot&) const = default;
};
using Layouts = std::map<std::string, std::vector<Slot>, std::less<>>;

struct Function {
  std::string name;
  std::vector<Slot> slots;
};
struct LibraryKernel {
  Function* function = nullptr;
};
/// A loaded module or library: its kernels' layouts and the handles handed out for them.
struct Module {
  Layouts layouts;
  std::map<std::string, std::unique_ptr<Function>, std::less<>> functions;
  std::map<std::string, std::unique_ptr<LibraryKernel>, std::less<>> kernels;
};
struct Context {
  CUdevice device = 0;
};
struct Allocation {
  std::size_t size = 0;
  bool managed = false;
};

struct DriverState {
  std::mutex mutex;
  bool initialized = false;
  Context primary;
  std::vector<std::unique_ptr<Context>> created;
  std::map<const void*, std::unique_ptr<Module>> modules; ///< by CUmodule or CUlibrary
  std::set<const void*> functions;                        ///< live CUfunction handles
  std::set<const void*> kernels;                          ///< live CUkernel handles
  std::map<std::uint64_t, Allocation> allocations;        ///< by base
};

/// The process's one DriverState, never destroyed: the program may call during exit.
[[nodiscard]] DriverState& driver();
/// The calling thread's current context (nullptr: none).
[[nodiscard]] Context*& current_context();

/// The parameter layouts of every kernel in `image`, an image handed over by pointer as the real
/// driver gets it (its end is found in its own headers). Throws for an image it cannot read.
[[nodiscard]] Layouts layouts_of(const void* image);
/// Loads `image` as a module or library; `handle` is the new one.
[[nodiscard]] CUresult load(const void*& handle, const void* image);
[[nodiscard]] CUresult unload(const void* handle);
/// The function `name` of a loaded module, made at the first request (the same handle after);
/// nullptr when the module has no such kernel. The caller holds the mutex.
[[nodiscard]] Function* function_named(Module& module, std::string_view name);
/// The function a launch names: a CUfunction, or a CUkernel passed in its place (CUDA 12);
/// nullptr for neither. The caller holds the mutex.
[[nodiscard]] Function* launched_function(const void* handle);

[[nodiscard]] CUresult allocate(CUdeviceptr* pointer, std::size_t size, bool managed);
[[nodiscard]] CUresult release(CUdeviceptr pointer);
/// Whether [pointer, pointer + bytes) lies inside one allocation. The caller holds the mutex.
[[nodiscard]] bool inside_allocation(std::uint64_t pointer, std::uint64_t bytes);

/// A launch of cuLaunchKernel's or cuLaunchKernelEx's: checked, then run on the host.
[[nodiscard]] CUresult launch(const void* handle, const unsigned grid[3], const unsigned block[3],
                              unsigned shared_bytes, void** params, void** extra);

} // namespace gpurun::test::fake_cuda
