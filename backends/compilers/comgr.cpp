#include "backends/compilers/comgr.hpp"

#include <cstddef>
#include <cstdlib>

#include <fmt/format.h>

#include "backends/kit/amdgpu_code_object.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::hiprtc {
namespace {

// amd_comgr.h's entry points (its status enum is an int); declared here because the header's
// place differs between ROCm releases and only these three calls are needed.
using get_version_fn = void (*)(std::size_t* major, std::size_t* minor);
using get_isa_count_fn = int (*)(std::size_t* count);
using get_isa_name_fn = int (*)(std::size_t index, const char** name);

std::optional<ComgrTargets> load() {
  std::vector<std::string> candidates{"libamd_comgr.so.3", "libamd_comgr.so.2", "libamd_comgr.so"};
  for (const std::string folder : {"/opt/rocm/lib"})
    for (const char* name : {"libamd_comgr.so.3", "libamd_comgr.so.2"})
      candidates.push_back(folder + "/" + name);
  auto opened = dl::open_first(candidates);
  if (!opened.handle)
    return std::nullopt;
  get_version_fn get_version = nullptr;
  get_isa_count_fn get_isa_count = nullptr;
  get_isa_name_fn get_isa_name = nullptr;
  void* h = opened.handle.get();
  if (!dl::bind(h, get_version, "amd_comgr_get_version") ||
      !dl::bind(h, get_isa_count, "amd_comgr_get_isa_count") ||
      !dl::bind(h, get_isa_name, "amd_comgr_get_isa_name"))
    return std::nullopt;
  ComgrTargets out;
  out.library = dl::file_of(h);
  std::size_t major = 0;
  std::size_t minor = 0;
  get_version(&major, &minor);
  out.version = fmt::format("{}.{}", major, minor);
  std::size_t count = 0;
  if (get_isa_count(&count) != 0)
    return std::nullopt;
  for (std::size_t i = 0; i < count; ++i) {
    const char* name = nullptr;
    if (get_isa_name(i, &name) == 0 && name != nullptr)
      out.processors.push_back(kit::amdgpu_processor(name));
  }
  // Kept open for the process (RTLD_NODELETE): hipRTC uses the same library.
  (void)opened.handle.release();
  return out;
}

} // namespace

const std::optional<ComgrTargets>& comgr_targets() {
  static const std::optional<ComgrTargets> targets = load();
  return targets;
}

} // namespace gpurun::hiprtc
