#include <cstdlib>
#include <fmt/format.h>
#include <vector>

#include "backends/compilers/nvrtc_api.hpp"

namespace gpurun::nvrtc {
namespace {

std::vector<std::string> candidate_paths() {
  static const char* const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                                      "libnvrtc.so"};
  static const char* const folders[] = {"", "/usr/local/cuda/lib64/", "/usr/local/cuda/lib/"};
  std::vector<std::string> paths;
  if (const char* override_path = std::getenv("GPURUN_NVRTC_LIBRARY");
      override_path != nullptr && *override_path != '\0')
    paths.emplace_back(override_path);
  for (const char* folder : folders)
    for (const char* name : names)
      paths.push_back(std::string(folder) + name);
  return paths;
}

// Binds every entry of the table; returns the first missing symbol's name or nullptr.
const char* bind_all(void* h, Api& api) {
#define GPURUN_NVRTC_BIND(member, fn)                                                              \
  if (!dl::bind(h, api.member, GPURUN_DL_SYMBOL_NAME(fn)))                                         \
  return GPURUN_DL_SYMBOL_NAME(fn)
  GPURUN_NVRTC_BIND(get_error_string, nvrtcGetErrorString);
  GPURUN_NVRTC_BIND(version, nvrtcVersion);
  GPURUN_NVRTC_BIND(create_program, nvrtcCreateProgram);
  GPURUN_NVRTC_BIND(destroy_program, nvrtcDestroyProgram);
  GPURUN_NVRTC_BIND(compile_program, nvrtcCompileProgram);
  GPURUN_NVRTC_BIND(get_ptx_size, nvrtcGetPTXSize);
  GPURUN_NVRTC_BIND(get_ptx, nvrtcGetPTX);
  GPURUN_NVRTC_BIND(get_cubin_size, nvrtcGetCUBINSize);
  GPURUN_NVRTC_BIND(get_cubin, nvrtcGetCUBIN);
  GPURUN_NVRTC_BIND(get_program_log_size, nvrtcGetProgramLogSize);
  GPURUN_NVRTC_BIND(get_program_log, nvrtcGetProgramLog);
  GPURUN_NVRTC_BIND(add_name_expression, nvrtcAddNameExpression);
  GPURUN_NVRTC_BIND(get_lowered_name, nvrtcGetLoweredName);
#undef GPURUN_NVRTC_BIND
  (void)dl::bind(h, api.get_num_supported_archs, "nvrtcGetNumSupportedArchs");
  (void)dl::bind(h, api.get_supported_archs, "nvrtcGetSupportedArchs");
  return nullptr;
}

Library load() {
  Library lib;
  const auto candidates = candidate_paths();
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    lib.availability.reason = fmt::format(
        "NVRTC not found (tried libnvrtc.so.13, .so.12, .so.11.2, libnvrtc.so on the loader path "
        "and under /usr/local/cuda/lib64, /usr/local/cuda/lib): {}",
        opened.error.substr(0, opened.error.find(';')));
    return lib;
  }
  if (const char* missing = bind_all(opened.handle.get(), lib.api)) {
    lib.availability.reason = fmt::format("{} lacks {}: too old", opened.path, missing);
    lib.api = Api{};
    return lib;
  }
  if (lib.api.version(&lib.major, &lib.minor) != NVRTC_SUCCESS) {
    lib.availability.reason = fmt::format("{}: nvrtcVersion failed", opened.path);
    lib.api = Api{};
    return lib;
  }
  lib.handle = std::move(opened.handle);
  lib.availability.available = true;
  lib.availability.version = fmt::format("{}.{}", lib.major, lib.minor);
  lib.availability.location = opened.path;
  return lib;
}

} // namespace

const Library& library() {
  static const Library lib = load();
  return lib;
}

const Availability& probe() {
  return library().availability;
}

std::string result_name(nvrtcResult result) {
  const auto& lib = library();
  if (lib.api.get_error_string != nullptr)
    if (const char* text = lib.api.get_error_string(result))
      return text;
  return fmt::format("nvrtcResult {}", static_cast<int>(result));
}

} // namespace gpurun::nvrtc
