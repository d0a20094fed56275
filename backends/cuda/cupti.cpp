#include "backends/cuda/cupti.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <type_traits>

namespace gpurun::cuda {
namespace {

// Returns the first missing symbol, or nullptr.
const char* bind_all(void* h, CuptiApi& api) {
#define GPURUN_CUPTI_BIND(member, fn)                                                              \
  static_assert(std::is_same_v<decltype(api.member), fn##_fn>);                                    \
  if (!dl::bind(h, api.member, #fn))                                                               \
  return #fn
  GPURUN_CUPTI_BIND(get_result_string, cuptiGetResultString);
  GPURUN_CUPTI_BIND(get_version, cuptiGetVersion);
  GPURUN_CUPTI_BIND(profiler_initialize, cuptiProfilerInitialize);
  GPURUN_CUPTI_BIND(profiler_deinitialize, cuptiProfilerDeInitialize);
  GPURUN_CUPTI_BIND(device_get_chip_name, cuptiDeviceGetChipName);
  GPURUN_CUPTI_BIND(get_counter_availability, cuptiProfilerGetCounterAvailability);
  GPURUN_CUPTI_BIND(host_initialize, cuptiProfilerHostInitialize);
  GPURUN_CUPTI_BIND(host_deinitialize, cuptiProfilerHostDeinitialize);
  GPURUN_CUPTI_BIND(host_get_base_metrics, cuptiProfilerHostGetBaseMetrics);
  GPURUN_CUPTI_BIND(host_get_metric_properties, cuptiProfilerHostGetMetricProperties);
  GPURUN_CUPTI_BIND(host_config_add_metrics, cuptiProfilerHostConfigAddMetrics);
  GPURUN_CUPTI_BIND(host_get_config_image_size, cuptiProfilerHostGetConfigImageSize);
  GPURUN_CUPTI_BIND(host_get_config_image, cuptiProfilerHostGetConfigImage);
  GPURUN_CUPTI_BIND(host_get_num_of_passes, cuptiProfilerHostGetNumOfPasses);
  GPURUN_CUPTI_BIND(host_evaluate_to_gpu_values, cuptiProfilerHostEvaluateToGpuValues);
  GPURUN_CUPTI_BIND(range_enable, cuptiRangeProfilerEnable);
  GPURUN_CUPTI_BIND(range_disable, cuptiRangeProfilerDisable);
  GPURUN_CUPTI_BIND(range_get_counter_data_size, cuptiRangeProfilerGetCounterDataSize);
  GPURUN_CUPTI_BIND(range_counter_data_image_initialize,
                    cuptiRangeProfilerCounterDataImageInitialize);
  GPURUN_CUPTI_BIND(range_set_config, cuptiRangeProfilerSetConfig);
  GPURUN_CUPTI_BIND(range_start, cuptiRangeProfilerStart);
  GPURUN_CUPTI_BIND(range_stop, cuptiRangeProfilerStop);
  GPURUN_CUPTI_BIND(range_decode_data, cuptiRangeProfilerDecodeData);
  GPURUN_CUPTI_BIND(range_get_counter_data_info, cuptiRangeProfilerGetCounterDataInfo);
#undef GPURUN_CUPTI_BIND
  return nullptr;
}

} // namespace

std::string Cupti::describe(CUptiResult result) const {
  const char* text = nullptr;
  if (api.get_result_string != nullptr && api.get_result_string(result, &text) == CUPTI_SUCCESS &&
      text != nullptr)
    return text;
  return fmt::format("CUptiResult {}", static_cast<int>(result));
}

const nvrtc::ToolkitLibrary& cupti_library() {
  static const nvrtc::ToolkitLibrary library{"GPURUN_CUPTI",
                                             "libcupti.so",
                                             {"libcupti.so.13", "libcupti.so.12", "libcupti.so"},
                                             {"nvidia/cu13/lib", "nvidia/cuda_cupti/lib"},
                                             {"extras/CUPTI/lib64"}};
  return library;
}

Cupti load_cupti(const nvrtc::Search& search) {
  Cupti c;
  std::string tried;
  for (const std::string& candidate : search.candidates) {
    auto opened = dl::open_first(std::span(&candidate, 1));
    if (!opened.handle)
      continue;
    CuptiApi api;
    if (const char* missing = bind_all(opened.handle.get(), api)) {
      // An older CUPTI (before 12.6) has no range profiler; a newer one elsewhere may.
      tried += fmt::format("{}{} lacks {}", tried.empty() ? "" : "; ",
                           dl::file_of(opened.handle.get()), missing);
      continue;
    }
    c.api = api;
    c.path = dl::file_of(opened.handle.get());
    if (c.path.empty())
      c.path = opened.path;
    std::uint32_t version = 0;
    if (api.get_version(&version) == CUPTI_SUCCESS && version > 0)
      c.version = version >= 10000 ? fmt::format("{}.{}", version / 10000, version / 100 % 100)
                                   : fmt::format("API {}", version);
    c.handle = std::move(opened.handle);
    return c;
  }
  if (!tried.empty())
    c.error = fmt::format("no usable libcupti: {} (the range profiler needs CUPTI 12.6 or later)",
                          tried);
  else
    c.error = fmt::format("libcupti not found (searched {}; set GPURUN_CUPTI_LIBRARY to the file)",
                          fmt::join(search.places, ", "));
  return c;
}

const Cupti& cupti() {
  static const Cupti instance = load_cupti(nvrtc::locate(nvrtc::LocateEnv::system(),
                                                         cupti_library()));
  return instance;
}

} // namespace gpurun::cuda
