#pragma once
// The CUPTI profiling entry points gpurun calls (the range profiler of CUDA 12.6 and later, and
// its host API for metric configuration and evaluation), declared here from NVIDIA's CUPTI API
// reference so that no CUPTI header is needed to build. Every parameter block starts with its
// own size: CUPTI reads only the fields a block of that size holds, so a block is declared up
// to the last field gpurun uses and its size is computed as the headers' *_STRUCT_SIZE macros
// compute it (offset of the last field plus its size).
#include <cstddef>
#include <cstdint>

#include "backends/cuda/driver_types.hpp"

namespace gpurun::cuda {

// Fixed underlying types so that a code newer than this list is still representable.
enum CUptiResult : int {
  CUPTI_SUCCESS = 0,
  CUPTI_ERROR_INVALID_PARAMETER = 1,
  CUPTI_ERROR_NOT_INITIALIZED = 15,
  CUPTI_ERROR_INVALID_METRIC_NAME = 17,
  CUPTI_ERROR_NOT_SUPPORTED = 27,
  CUPTI_ERROR_INSUFFICIENT_PRIVILEGES = 35,
  CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED = 38,
  CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED = 39,
  CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES = 40,
  CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED = 41,
  CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED = 42,
  CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED = 43,
  CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED = 44,
  CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED = 45,
};

enum CUpti_MetricType : int {
  CUPTI_METRIC_TYPE_COUNTER = 0,
  CUPTI_METRIC_TYPE_RATIO = 1,
  CUPTI_METRIC_TYPE_THROUGHPUT = 2,
};
enum CUpti_ProfilerType : int { CUPTI_PROFILER_TYPE_RANGE_PROFILER = 0 };
enum CUpti_ProfilerRange : int { CUPTI_AutoRange = 1, CUPTI_UserRange = 2 };
enum CUpti_ProfilerReplayMode : int { CUPTI_UserReplay = 3 };

struct CUpti_Profiler_Host_Object;
struct CUpti_RangeProfiler_Object;

/// The size CUPTI expects in a parameter block's structSize: up to and including `last`.
#define GPURUN_CUPTI_SIZE(type, last) (offsetof(type, last) + sizeof(type::last))

// Profiler and device (cupti_profiler_target.h, cupti_target.h).
struct CUpti_Profiler_Initialize_Params {
  std::size_t structSize;
  void* pPriv;
};
struct CUpti_Profiler_DeInitialize_Params {
  std::size_t structSize;
  void* pPriv;
};
struct CUpti_Device_GetChipName_Params {
  std::size_t structSize;
  void* pPriv;
  std::size_t deviceIndex;
  const char* pChipName;
};
struct CUpti_Profiler_GetCounterAvailability_Params {
  std::size_t structSize;
  void* pPriv;
  CUcontext ctx;
  std::size_t counterAvailabilityImageSize;
  std::uint8_t* pCounterAvailabilityImage;
};

// Host side: metric names, configuration and evaluation (cupti_profiler_host.h).
struct CUpti_Profiler_Host_Initialize_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_ProfilerType profilerType;
  const char* pChipName;
  const std::uint8_t* pCounterAvailabilityImage;
  CUpti_Profiler_Host_Object* pHostObject;
};
struct CUpti_Profiler_Host_Deinitialize_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
};
struct CUpti_Profiler_Host_GetBaseMetrics_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  CUpti_MetricType metricType;
  const char** ppMetricNames;
  std::size_t numMetrics;
};
struct CUpti_Profiler_Host_GetMetricProperties_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  const char* pMetricName;
  const char* pDescription;
  const char* pHwUnit;
  const char* pDimUnit;
  CUpti_MetricType metricType;
};
struct CUpti_Profiler_Host_ConfigAddMetrics_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  const char** ppMetricNames;
  std::size_t numMetrics;
};
struct CUpti_Profiler_Host_GetConfigImageSize_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  std::size_t configImageSize;
};
struct CUpti_Profiler_Host_GetConfigImage_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  std::size_t configImageSize;
  std::uint8_t* pConfigImage;
};
struct CUpti_Profiler_Host_GetNumOfPasses_Params {
  std::size_t structSize;
  void* pPriv;
  std::size_t configImageSize;
  std::uint8_t* pConfigImage;
  std::size_t numOfPasses;
};
struct CUpti_Profiler_Host_EvaluateToGpuValues_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_Profiler_Host_Object* pHostObject;
  const std::uint8_t* pCounterDataImage;
  std::size_t counterDataImageSize;
  std::size_t rangeIndex;
  const char** ppMetricNames;
  std::size_t numMetrics;
  double* pMetricValues;
};

// Target side: the range profiler on a context (cupti_range_profiler.h).
struct CUpti_RangeProfiler_Enable_Params {
  std::size_t structSize;
  void* pPriv;
  CUcontext ctx;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
};
struct CUpti_RangeProfiler_Disable_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
};
struct CUpti_RangeProfiler_GetCounterDataSize_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
  const char** pMetricNames;
  std::size_t numMetrics;
  std::size_t maxNumOfRanges;
  std::uint32_t maxNumRangeTreeNodes;
  std::size_t counterDataSize;
};
struct CUpti_RangeProfiler_CounterDataImage_Initialize_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
  std::size_t counterDataSize;
  std::uint8_t* pCounterData;
};
struct CUpti_RangeProfiler_SetConfig_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
  std::size_t configSize;
  const std::uint8_t* pConfig;
  std::size_t counterDataImageSize;
  std::uint8_t* pCounterDataImage;
  CUpti_ProfilerRange range;
  CUpti_ProfilerReplayMode replayMode;
  std::size_t maxRangesPerPass;
  std::uint16_t numNestingLevels;
  std::uint16_t minNestingLevel;
  std::size_t passIndex;
  std::uint16_t targetNestingLevel;
};
struct CUpti_RangeProfiler_Start_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
};
struct CUpti_RangeProfiler_Stop_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
  std::size_t passIndex;
  std::size_t targetNestingLevel;
  std::uint8_t isAllPassSubmitted;
};
struct CUpti_RangeProfiler_DecodeData_Params {
  std::size_t structSize;
  void* pPriv;
  CUpti_RangeProfiler_Object* pRangeProfilerObject;
  std::size_t numOfRangeDropped;
};
struct CUpti_RangeProfiler_GetCounterDataInfo_Params {
  std::size_t structSize;
  void* pPriv;
  const std::uint8_t* pCounterDataImage;
  std::size_t counterDataImageSize;
  std::size_t numTotalRanges;
};

// Entry points: one function-pointer type per symbol, named after it.
using cuptiGetResultString_fn = CUptiResult (*)(CUptiResult result, const char** str);
using cuptiGetVersion_fn = CUptiResult (*)(std::uint32_t* version);
#define GPURUN_CUPTI_ENTRY(name, params) using name##_fn = CUptiResult (*)(params * p)
GPURUN_CUPTI_ENTRY(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerDeInitialize, CUpti_Profiler_DeInitialize_Params);
GPURUN_CUPTI_ENTRY(cuptiDeviceGetChipName, CUpti_Device_GetChipName_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerGetCounterAvailability,
                   CUpti_Profiler_GetCounterAvailability_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostInitialize, CUpti_Profiler_Host_Initialize_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostDeinitialize, CUpti_Profiler_Host_Deinitialize_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostGetBaseMetrics, CUpti_Profiler_Host_GetBaseMetrics_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostGetMetricProperties,
                   CUpti_Profiler_Host_GetMetricProperties_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostGetConfigImageSize,
                   CUpti_Profiler_Host_GetConfigImageSize_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params);
GPURUN_CUPTI_ENTRY(cuptiProfilerHostEvaluateToGpuValues,
                   CUpti_Profiler_Host_EvaluateToGpuValues_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerEnable, CUpti_RangeProfiler_Enable_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerDisable, CUpti_RangeProfiler_Disable_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerGetCounterDataSize,
                   CUpti_RangeProfiler_GetCounterDataSize_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerCounterDataImageInitialize,
                   CUpti_RangeProfiler_CounterDataImage_Initialize_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerSetConfig, CUpti_RangeProfiler_SetConfig_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerStart, CUpti_RangeProfiler_Start_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerStop, CUpti_RangeProfiler_Stop_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerDecodeData, CUpti_RangeProfiler_DecodeData_Params);
GPURUN_CUPTI_ENTRY(cuptiRangeProfilerGetCounterDataInfo,
                   CUpti_RangeProfiler_GetCounterDataInfo_Params);
#undef GPURUN_CUPTI_ENTRY

} // namespace gpurun::cuda
