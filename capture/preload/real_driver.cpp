#include "capture/preload/real_driver.hpp"

#include <dlfcn.h>

#include <initializer_list>

namespace gpurun::capture::preload {

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

} // namespace gpurun::capture::preload
