// gpurun's HIP layer: HIP's half type and its functions are CUDA's by the same names (__half,
// __half2, __float2half, __half2float, __hadd, __hmul, __hfma …).
#pragma once
#include <hip/hip_runtime.h>
#include <cuda_fp16.h>
