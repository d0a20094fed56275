#include "backends/hip/api.hpp"

#include <cstdlib>
#include <fmt/format.h>

namespace gpurun::hip {
namespace {

std::vector<std::string> with_folders(const std::vector<std::string>& names) {
  std::vector<std::string> out = names;
  std::vector<std::string> folders;
  if (const char* rocm = std::getenv("ROCM_PATH"); rocm != nullptr && *rocm != '\0')
    folders.push_back(std::string(rocm) + "/lib");
  folders.emplace_back("/opt/rocm/lib");
  for (const auto& folder : folders)
    for (const auto& name : names)
      out.push_back(folder + "/" + name);
  return out;
}

const std::vector<std::string> k_runtime_names{"libamdhip64.so.7", "libamdhip64.so.6",
                                               "libamdhip64.so.5", "libamdhip64.so"};
const std::vector<std::string> k_hiprtc_names{"libhiprtc.so.7", "libhiprtc.so.6", "libhiprtc.so"};

// "libamdhip64.so.7: cannot open shared object file" for the first attempt: the one that names
// what is missing; the other attempts differ only in the version.
std::string first_reason(const std::string& error) {
  return error.substr(0, error.find(';'));
}

const char* bind_runtime(void* h, RuntimeApi& api) {
#define GPURUN_HIP_BIND(member, symbol)                                                            \
  if (!dl::bind(h, api.member, #symbol))                                                           \
  return #symbol
  GPURUN_HIP_BIND(get_error_name, hipGetErrorName);
  GPURUN_HIP_BIND(get_error_string, hipGetErrorString);
  GPURUN_HIP_BIND(init, hipInit);
  GPURUN_HIP_BIND(runtime_get_version, hipRuntimeGetVersion);
  GPURUN_HIP_BIND(driver_get_version, hipDriverGetVersion);
  GPURUN_HIP_BIND(get_device_count, hipGetDeviceCount);
  // ROCm 6 renamed the call that fills the new hipDeviceProp_t (hipGetDevicePropertiesR0600) and
  // kept this name for the layout of ROCm 5's struct, which is the one these headers declare.
  GPURUN_HIP_BIND(get_device_properties, hipGetDeviceProperties);
  GPURUN_HIP_BIND(device_get_attribute, hipDeviceGetAttribute);
  GPURUN_HIP_BIND(device_get_pci_bus_id, hipDeviceGetPCIBusId);
  GPURUN_HIP_BIND(set_device, hipSetDevice);
  GPURUN_HIP_BIND(stream_create_with_flags, hipStreamCreateWithFlags);
  GPURUN_HIP_BIND(stream_destroy, hipStreamDestroy);
  GPURUN_HIP_BIND(stream_query, hipStreamQuery);
  GPURUN_HIP_BIND(stream_synchronize, hipStreamSynchronize);
  GPURUN_HIP_BIND(malloc, hipMalloc);
  GPURUN_HIP_BIND(free, hipFree);
  GPURUN_HIP_BIND(memcpy_async, hipMemcpyAsync);
  GPURUN_HIP_BIND(memset_d8_async, hipMemsetD8Async);
  GPURUN_HIP_BIND(module_load_data, hipModuleLoadData);
  GPURUN_HIP_BIND(module_unload, hipModuleUnload);
  GPURUN_HIP_BIND(module_get_function, hipModuleGetFunction);
  GPURUN_HIP_BIND(module_get_global, hipModuleGetGlobal);
  GPURUN_HIP_BIND(module_launch_kernel, hipModuleLaunchKernel);
  GPURUN_HIP_BIND(event_create, hipEventCreate);
  GPURUN_HIP_BIND(event_destroy, hipEventDestroy);
  GPURUN_HIP_BIND(event_record, hipEventRecord);
  GPURUN_HIP_BIND(event_synchronize, hipEventSynchronize);
  GPURUN_HIP_BIND(event_elapsed_time, hipEventElapsedTime);
  (void)dl::bind(h, api.device_set_limit, "hipDeviceSetLimit");
  return nullptr;
}

const char* bind_hiprtc(void* h, HiprtcApi& api) {
  GPURUN_HIP_BIND(get_error_string, hiprtcGetErrorString);
  GPURUN_HIP_BIND(version, hiprtcVersion);
  GPURUN_HIP_BIND(create_program, hiprtcCreateProgram);
  GPURUN_HIP_BIND(destroy_program, hiprtcDestroyProgram);
  GPURUN_HIP_BIND(add_name_expression, hiprtcAddNameExpression);
  GPURUN_HIP_BIND(compile_program, hiprtcCompileProgram);
  GPURUN_HIP_BIND(get_program_log_size, hiprtcGetProgramLogSize);
  GPURUN_HIP_BIND(get_program_log, hiprtcGetProgramLog);
  GPURUN_HIP_BIND(get_code_size, hiprtcGetCodeSize);
  GPURUN_HIP_BIND(get_code, hiprtcGetCode);
  GPURUN_HIP_BIND(get_lowered_name, hiprtcGetLoweredName);
#undef GPURUN_HIP_BIND
  return nullptr;
}

Runtime load_runtime() {
  Runtime r;
  const auto candidates = runtime_candidates();
  auto opened = dl::open_first(candidates);
  if (!opened.handle) {
    if (candidates.size() == 1)
      r.error = fmt::format("{} not found: {}", candidates.front(), first_reason(opened.error));
    else
      r.error = fmt::format("libamdhip64 not found (libamdhip64.so.7, .6, .5 or libamdhip64.so, by "
                            "soname, in $ROCM_PATH/lib and /opt/rocm/lib): {}",
                            first_reason(opened.error));
    return r;
  }
  const std::string file = dl::file_of(opened.handle.get());
  const std::string where = file.empty() ? opened.path : file;
  if (const char* missing = bind_runtime(opened.handle.get(), r.api)) {
    r.error = fmt::format("{} lacks {}: not a HIP runtime gpurun can use", where, missing);
    r.api = RuntimeApi{};
    return r;
  }
  r.handle = std::move(opened.handle);
  r.path = where;
  return r;
}

// hipRTC from one candidate list; the first library that opens and has every entry point.
Hiprtc try_hiprtc(const std::vector<std::string>& candidates, std::string& tried) {
  Hiprtc h;
  for (const auto& candidate : candidates) {
    const std::string one[] = {candidate};
    auto opened = dl::open_first(one);
    if (!opened.handle) {
      tried += (tried.empty() ? "" : "; ") + first_reason(opened.error);
      continue;
    }
    HiprtcApi api;
    if (const char* missing = bind_hiprtc(opened.handle.get(), api)) {
      tried += fmt::format("{}{} lacks {}", tried.empty() ? "" : "; ", candidate, missing);
      continue;
    }
    // hipRTC inside libamdhip64 (ROCm 5) answers hiprtcVersion with 9.0; the runtime beside it
    // knows the HIP version it belongs to.
    int major = 0;
    int minor = 0;
    decltype(&::hipRuntimeGetVersion) runtime_version = nullptr;
    int version = 0;
    if (dl::bind(opened.handle.get(), runtime_version, "hipRuntimeGetVersion") &&
        runtime_version(&version) == hipSuccess && version > 0) {
      major = version / 10'000'000;
      minor = (version / 100'000) % 100;
    } else if (api.version(&major, &minor) != HIPRTC_SUCCESS) {
      major = minor = 0;
    }
    const std::string file = dl::file_of(opened.handle.get());
    h.handle = std::move(opened.handle);
    h.api = api;
    h.path = file.empty() ? candidate : file;
    h.version = fmt::format("{}.{}", major, minor);
    return h;
  }
  return h;
}

Hiprtc load_hiprtc() {
  std::string tried;
  if (const char* exact = std::getenv("GPURUN_HIPRTC_LIBRARY");
      exact != nullptr && *exact != '\0') {
    Hiprtc h = try_hiprtc({exact}, tried);
    if (!h.handle)
      h.error = fmt::format("hipRTC not found: $GPURUN_HIPRTC_LIBRARY: {}", tried);
    return h;
  }
  std::vector<std::string> candidates = with_folders(k_hiprtc_names);
  for (const auto& name : runtime_candidates())
    candidates.push_back(name);
  Hiprtc h = try_hiprtc(candidates, tried);
  if (!h.handle)
    h.error = fmt::format("hipRTC not found: neither libhiprtc.so nor libamdhip64.so loads ({})",
                          first_reason(tried));
  return h;
}

} // namespace

std::vector<std::string> runtime_candidates() {
  if (const char* exact = std::getenv("GPURUN_HIP_LIBRARY"); exact != nullptr && *exact != '\0')
    return {exact};
  return with_folders(k_runtime_names);
}

const Runtime& runtime() {
  static const Runtime r = load_runtime();
  return r;
}

const Hiprtc& hiprtc() {
  static const Hiprtc h = load_hiprtc();
  return h;
}

} // namespace gpurun::hip
