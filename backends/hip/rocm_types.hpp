#pragma once
// ROCm's HIP headers for the AMD platform, included in one place: every file of backends/hip
// includes this first, so the platform is always chosen the same way.
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>
