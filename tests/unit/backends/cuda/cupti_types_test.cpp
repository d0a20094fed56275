// gpurun's own declarations of CUPTI's profiling API against the toolkit's headers, where the
// build found them (CUDA 12.6 or later): a parameter block of the wrong size, or an enumerator of
// the wrong value, would make CUPTI read the wrong fields, which no other test without a GPU sees.
#include "backends/cuda/cupti_types.hpp"

#include <gtest/gtest.h>

#ifdef GPURUN_TEST_HAVE_CUPTI_H
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>
#endif

#ifdef GPURUN_TEST_HAVE_CUPTI_H

// At global scope, where the headers' *_STRUCT_SIZE macros name the headers' own types.
// Each block's size, up to the last field gpurun fills or reads, is the header's *_STRUCT_SIZE.
#define GPURUN_TEST_SAME_SIZE(type, last)                                                          \
  static_assert(GPURUN_CUPTI_SIZE(gpurun::cuda::type, last) == type##_STRUCT_SIZE, #type);         \
  static_assert(offsetof(gpurun::cuda::type, last) == offsetof(::type, last), #type "::" #last);
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Initialize_Params, pPriv)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_DeInitialize_Params, pPriv)
GPURUN_TEST_SAME_SIZE(CUpti_Device_GetChipName_Params, pChipName)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_GetCounterAvailability_Params, pCounterAvailabilityImage)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_Initialize_Params, pHostObject)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_Deinitialize_Params, pHostObject)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_GetMetricProperties_Params, metricType)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses)
GPURUN_TEST_SAME_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_Enable_Params, pRangeProfilerObject)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_Disable_Params, pRangeProfilerObject)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_GetCounterDataSize_Params, counterDataSize)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_CounterDataImage_Initialize_Params, pCounterData)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_SetConfig_Params, targetNestingLevel)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_Start_Params, pRangeProfilerObject)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_Stop_Params, isAllPassSubmitted)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_DecodeData_Params, numOfRangeDropped)
GPURUN_TEST_SAME_SIZE(CUpti_RangeProfiler_GetCounterDataInfo_Params, numTotalRanges)
#undef GPURUN_TEST_SAME_SIZE

// The fields between the size and the last one, where a swap of two of one size would hide.
static_assert(offsetof(gpurun::cuda::CUpti_RangeProfiler_SetConfig_Params, range) ==
              offsetof(::CUpti_RangeProfiler_SetConfig_Params, range));
static_assert(offsetof(gpurun::cuda::CUpti_RangeProfiler_SetConfig_Params, passIndex) ==
              offsetof(::CUpti_RangeProfiler_SetConfig_Params, passIndex));
static_assert(offsetof(gpurun::cuda::CUpti_Profiler_Host_GetMetricProperties_Params, pDimUnit) ==
              offsetof(::CUpti_Profiler_Host_GetMetricProperties_Params, pDimUnit));
static_assert(offsetof(gpurun::cuda::CUpti_RangeProfiler_Stop_Params, passIndex) ==
              offsetof(::CUpti_RangeProfiler_Stop_Params, passIndex));

#define GPURUN_TEST_SAME_VALUE(name)                                                               \
  static_assert(static_cast<int>(gpurun::cuda::name) == static_cast<int>(::name), #name);
GPURUN_TEST_SAME_VALUE(CUPTI_SUCCESS)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_INVALID_PARAMETER)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_NOT_INITIALIZED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_INVALID_METRIC_NAME)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED)
GPURUN_TEST_SAME_VALUE(CUPTI_METRIC_TYPE_COUNTER)
GPURUN_TEST_SAME_VALUE(CUPTI_METRIC_TYPE_RATIO)
GPURUN_TEST_SAME_VALUE(CUPTI_METRIC_TYPE_THROUGHPUT)
GPURUN_TEST_SAME_VALUE(CUPTI_PROFILER_TYPE_RANGE_PROFILER)
GPURUN_TEST_SAME_VALUE(CUPTI_AutoRange)
GPURUN_TEST_SAME_VALUE(CUPTI_UserRange)
GPURUN_TEST_SAME_VALUE(CUPTI_UserReplay)
#undef GPURUN_TEST_SAME_VALUE

#endif

namespace gpurun::cuda {
namespace {

#ifdef GPURUN_TEST_HAVE_CUPTI_H

TEST(CuptiTypes, ComparedWithTheHeaders) {
  // The comparisons are static_asserts above; this records that they ran.
  EXPECT_EQ(sizeof(CUpti_RangeProfiler_SetConfig_Params),
            sizeof(::CUpti_RangeProfiler_SetConfig_Params));
}

#else

TEST(CuptiTypes, ComparedWithTheHeaders) {
  GTEST_SKIP() << "cupti_range_profiler.h (CUDA 12.6+) was not found at build time: the "
                  "declarations are not compared with it";
}

#endif

} // namespace
} // namespace gpurun::cuda
