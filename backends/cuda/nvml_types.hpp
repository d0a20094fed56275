#pragma once
// The few NVML (NVIDIA Management Library) entry points gpurun calls, declared here from NVIDIA's
// NVML API reference so that no nvml.h is needed to build: the handle type, the return codes and
// constants gpurun names (with their documented values), one function-pointer type per entry
// point and the symbol libnvidia-ml exports it under. NVML's ABI is stable per symbol, like the
// driver's (see driver_types.hpp).
#include <cstdint>

namespace gpurun::cuda {

struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;

// Fixed underlying types so that a code newer than this list is still representable; NVML's enums
// are C enums of int size.
enum nvmlReturn_t : int {
  NVML_SUCCESS = 0,
  NVML_ERROR_UNINITIALIZED = 1,
  NVML_ERROR_INVALID_ARGUMENT = 2,
  NVML_ERROR_NOT_SUPPORTED = 3,
  NVML_ERROR_NO_PERMISSION = 4,
  NVML_ERROR_NOT_FOUND = 6,
  NVML_ERROR_DRIVER_NOT_LOADED = 9,
  NVML_ERROR_FUNCTION_NOT_FOUND = 13,
  NVML_ERROR_GPU_IS_LOST = 15,
  NVML_ERROR_UNKNOWN = 999,
};

enum nvmlClockType_t : int {
  NVML_CLOCK_GRAPHICS = 0,
  NVML_CLOCK_SM = 1,
  NVML_CLOCK_MEM = 2,
  NVML_CLOCK_VIDEO = 3,
};

// Bits of nvmlDeviceGetCurrentClocksEventReasons (formerly "throttle reasons"; same values).
inline constexpr std::uint64_t nvmlClocksEventReasonGpuIdle = 0x1;
inline constexpr std::uint64_t nvmlClocksEventReasonApplicationsClocksSetting = 0x2;
inline constexpr std::uint64_t nvmlClocksEventReasonSwPowerCap = 0x4;
inline constexpr std::uint64_t nvmlClocksThrottleReasonHwSlowdown = 0x8;
inline constexpr std::uint64_t nvmlClocksEventReasonSyncBoost = 0x10;
inline constexpr std::uint64_t nvmlClocksEventReasonSwThermalSlowdown = 0x20;
inline constexpr std::uint64_t nvmlClocksThrottleReasonHwThermalSlowdown = 0x40;
inline constexpr std::uint64_t nvmlClocksThrottleReasonHwPowerBrakeSlowdown = 0x80;
inline constexpr std::uint64_t nvmlClocksEventReasonDisplayClockSetting = 0x100;

// Entry points, with the reference's parameter names.
using nvmlInit_v2_fn = nvmlReturn_t (*)();
using nvmlShutdown_fn = nvmlReturn_t (*)();
using nvmlErrorString_fn = const char* (*)(nvmlReturn_t result);
using nvmlDeviceGetHandleByPciBusId_v2_fn = nvmlReturn_t (*)(const char* pciBusId,
                                                             nvmlDevice_t* device);
using nvmlDeviceGetClockInfo_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlClockType_t type,
                                                   unsigned int* clock);
using nvmlDeviceGetDefaultApplicationsClock_fn = nvmlReturn_t (*)(nvmlDevice_t device,
                                                                  nvmlClockType_t clockType,
                                                                  unsigned int* clockMHz);
using nvmlDeviceGetMaxClockInfo_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlClockType_t type,
                                                      unsigned int* clock);
using nvmlDeviceGetCurrentClocksEventReasons_fn =
    nvmlReturn_t (*)(nvmlDevice_t device, unsigned long long* clocksEventReasons);
// The name older drivers export; the same call.
using nvmlDeviceGetCurrentClocksThrottleReasons_fn =
    nvmlReturn_t (*)(nvmlDevice_t device, unsigned long long* clocksThrottleReasons);
using nvmlDeviceGetPowerUsage_fn = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* power);
using nvmlDeviceGetTotalEnergyConsumption_fn = nvmlReturn_t (*)(nvmlDevice_t device,
                                                                unsigned long long* energy);
// The settings a benchmark result records (bench's "environment").
enum nvmlEnableState_t : int { NVML_FEATURE_DISABLED = 0, NVML_FEATURE_ENABLED = 1 };
using nvmlDeviceGetEnforcedPowerLimit_fn = nvmlReturn_t (*)(nvmlDevice_t device,
                                                            unsigned int* limit);
using nvmlDeviceGetEccMode_fn = nvmlReturn_t (*)(nvmlDevice_t device, nvmlEnableState_t* current,
                                                 nvmlEnableState_t* pending);
using nvmlDeviceGetMigMode_fn = nvmlReturn_t (*)(nvmlDevice_t device, unsigned int* current,
                                                 unsigned int* pending);
using nvmlDeviceGetPersistenceMode_fn = nvmlReturn_t (*)(nvmlDevice_t device,
                                                         nvmlEnableState_t* mode);
using nvmlDeviceGetApplicationsClock_fn = nvmlReturn_t (*)(nvmlDevice_t device,
                                                           nvmlClockType_t clockType,
                                                           unsigned int* clockMHz);

} // namespace gpurun::cuda
