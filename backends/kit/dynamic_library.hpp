#pragma once
// dlopen helpers shared by the vendor-library tables (NVRTC here, the CUDA driver in
// backends/cuda): the handle is owned by a unique_ptr, symbols are bound into typed pointers.
#include <memory>
#include <span>
#include <string>

namespace gpurun::dl {

struct DlcloseDeleter {
  void operator()(void* handle) const noexcept;
};
using LibraryHandle = std::unique_ptr<void, DlcloseDeleter>;

/// The first candidate that dlopen accepts, or an empty handle and, in `error`, every attempt
/// with its dlerror text ("libnvrtc.so.13: cannot open shared object file; …").
struct OpenedLibrary {
  LibraryHandle handle;
  std::string path;  ///< the candidate that was opened
  std::string error; ///< why none could be opened (empty when one was)
};

/// Opens the first loadable library of `candidates`. Libraries are opened RTLD_NODELETE: vendor
/// runtimes register exit handlers and keep threads, so they must stay mapped even after the
/// owning handle is closed at static destruction.
[[nodiscard]] OpenedLibrary open_first(std::span<const std::string> candidates);

/// The file `handle` maps, as the loader found it: "/usr/lib/x86_64-linux-gnu/libm.so.6" for a
/// library opened as "libm.so.6". Empty when the loader cannot say.
[[nodiscard]] std::string file_of(void* handle);

/// dlsym; nullptr when absent.
[[nodiscard]] void* find_symbol(void* handle, const char* name) noexcept;

/// Binds `name` into `fn`; false when the library does not export it.
template <class Fn> bool bind(void* handle, Fn& fn, const char* name) noexcept {
  fn = reinterpret_cast<Fn>(find_symbol(handle, name));
  return fn != nullptr;
}

} // namespace gpurun::dl
