// gpurun's HIP layer: the older hip_bfloat16 type, as CUDA's __nv_bfloat16 (it converts to and
// from float the same way, rounding to nearest even).
#pragma once
#include <hip/hip_bf16.h>
typedef __nv_bfloat16 hip_bfloat16;
