// gpurun's HIP layer: HIP's bfloat16 type is CUDA's __nv_bfloat16; the functions share their
// names (__float2bfloat16, __bfloat162float, __hadd, __hmul …).
#pragma once
#include <hip/hip_runtime.h>
#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
