#pragma once
// The driver's own entry points, which every stand-in passes its call on to: libcuda.so.1 opened
// with dlopen (the one the program has loaded, or loaded here), its symbols looked up with glibc's
// dlsym. The interposer exports a dlsym of its own (dlsym_stub.cpp), so glibc's is found by
// version with dlvsym; a lookup through the program's dlsym would hand back the stand-ins.
#include "capture/preload/driver_entry_points.hpp"

namespace gpurun::capture::preload {

using dlsym_fn = void* (*)(void*, const char*);

/// glibc's dlsym; nullptr where neither of its symbol versions is found.
[[nodiscard]] dlsym_fn real_dlsym();

/// The handle of libcuda.so.1; nullptr where it cannot be opened.
[[nodiscard]] void* libcuda();

/// libcuda's own entry point `symbol` (as exported: "cuMemAlloc_v2"); nullptr where libcuda or
/// the symbol is missing.
template <class Fn> [[nodiscard]] Fn real(const char* symbol) {
  void* h = libcuda();
  dlsym_fn d = real_dlsym();
  return h != nullptr && d != nullptr ? reinterpret_cast<Fn>(d(h, symbol)) : nullptr;
}

} // namespace gpurun::capture::preload

/// In a stand-in: `real_fn`, libcuda's `symbol` of type `type`, looked up once; a program whose
/// libcuda lacks it gets CUDA_ERROR_STUB_LIBRARY, as from the driver's stub library.
#define GPURUN_REAL(type, symbol)                                                                  \
  static const auto real_fn = ::gpurun::capture::preload::real<type>(symbol);                      \
  if (real_fn == nullptr)                                                                          \
    return static_cast<::gpurun::capture::cu::CUresult>(34) /* CUDA_ERROR_STUB_LIBRARY */;
