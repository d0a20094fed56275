#include "backends/kit/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

namespace gpurun::dl {

void DlcloseDeleter::operator()(void* handle) const noexcept {
  if (handle != nullptr)
    dlclose(handle);
}

OpenedLibrary open_first(std::span<const std::string> candidates) {
  OpenedLibrary result;
  for (const auto& name : candidates) {
    dlerror();
    if (void* handle = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)) {
      result.handle.reset(handle);
      result.path = name;
      result.error.clear();
      return result;
    }
    const char* why = dlerror();
    if (!result.error.empty())
      result.error += "; ";
    result.error += why != nullptr ? why : name + ": dlopen failed";
  }
  return result;
}

std::string file_of(void* handle) {
  link_map* map = nullptr;
  if (handle == nullptr || dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr ||
      map->l_name == nullptr)
    return {};
  return map->l_name;
}

void* find_symbol(void* handle, const char* name) noexcept {
  if (handle == nullptr)
    return nullptr;
  return dlsym(handle, name);
}

} // namespace gpurun::dl
