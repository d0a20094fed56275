#pragma once
// CUPTI, NVIDIA's profiling library, opened with dlopen where the toolkit installs it and found
// as NVRTC is (backends/compilers/nvrtc_locate.hpp: $GPURUN_CUPTI_LIBRARY, $GPURUN_CUPTI_PATH,
// $CUDA_HOME, the loader path, /usr/local/cuda*, extras/CUPTI/lib64, the Python wheels). The
// hardware counters of `--metrics` (backends/cuda/counters.hpp) are read through it.
#include <string>

#include "backends/compilers/nvrtc_locate.hpp"
#include "backends/cuda/cupti_types.hpp"
#include "backends/kit/dynamic_library.hpp"

namespace gpurun::cuda {

struct CuptiApi {
  cuptiGetResultString_fn get_result_string = nullptr;
  cuptiGetVersion_fn get_version = nullptr;
  cuptiProfilerInitialize_fn profiler_initialize = nullptr;
  cuptiProfilerDeInitialize_fn profiler_deinitialize = nullptr;
  cuptiDeviceGetChipName_fn device_get_chip_name = nullptr;
  cuptiProfilerGetCounterAvailability_fn get_counter_availability = nullptr;
  cuptiProfilerHostInitialize_fn host_initialize = nullptr;
  cuptiProfilerHostDeinitialize_fn host_deinitialize = nullptr;
  cuptiProfilerHostGetBaseMetrics_fn host_get_base_metrics = nullptr;
  cuptiProfilerHostGetMetricProperties_fn host_get_metric_properties = nullptr;
  cuptiProfilerHostConfigAddMetrics_fn host_config_add_metrics = nullptr;
  cuptiProfilerHostGetConfigImageSize_fn host_get_config_image_size = nullptr;
  cuptiProfilerHostGetConfigImage_fn host_get_config_image = nullptr;
  cuptiProfilerHostGetNumOfPasses_fn host_get_num_of_passes = nullptr;
  cuptiProfilerHostEvaluateToGpuValues_fn host_evaluate_to_gpu_values = nullptr;
  cuptiRangeProfilerEnable_fn range_enable = nullptr;
  cuptiRangeProfilerDisable_fn range_disable = nullptr;
  cuptiRangeProfilerGetCounterDataSize_fn range_get_counter_data_size = nullptr;
  cuptiRangeProfilerCounterDataImageInitialize_fn range_counter_data_image_initialize = nullptr;
  cuptiRangeProfilerSetConfig_fn range_set_config = nullptr;
  cuptiRangeProfilerStart_fn range_start = nullptr;
  cuptiRangeProfilerStop_fn range_stop = nullptr;
  cuptiRangeProfilerDecodeData_fn range_decode_data = nullptr;
  cuptiRangeProfilerGetCounterDataInfo_fn range_get_counter_data_info = nullptr;
};

/// CUPTI as found: `api` is complete when `error` is empty.
struct Cupti {
  dl::LibraryHandle handle;
  CuptiApi api;
  std::string path;    ///< the file opened
  std::string version; ///< "13.0" (CUPTI's API version 130000 → its toolkit's), "" when unknown
  /// "libcupti not found (searched $CUDA_HOME, the loader path, /usr/local/cuda*, …)",
  /// "/x/libcupti.so.12 lacks cuptiRangeProfilerEnable: CUPTI 12.6 or later is needed"
  std::string error;

  /// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" and CUPTI's own words where it has them.
  [[nodiscard]] std::string describe(CUptiResult result) const;
};

/// CUPTI's place in the toolkit: libcupti.so.13, .12; extras/CUPTI/lib64; the nvidia/cu13 and
/// nvidia/cuda_cupti wheels.
[[nodiscard]] const nvrtc::ToolkitLibrary& cupti_library();

/// Opens the first of `search`'s candidates that binds (no other use of the process).
[[nodiscard]] Cupti load_cupti(const nvrtc::Search& search);

/// The process's CUPTI, found and opened on first use (thread-safe).
[[nodiscard]] const Cupti& cupti();

} // namespace gpurun::cuda
