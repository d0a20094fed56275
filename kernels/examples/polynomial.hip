// Evaluates a cubic whose coefficients live in constant memory (set with --global; HIP).
#include <hip/hip_runtime.h>

__constant__ float coefficients[4];
__device__ unsigned evaluations;

extern "C" __global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = ((coefficients[3] * v + coefficients[2]) * v + coefficients[1]) * v + coefficients[0];
    atomicAdd(&evaluations, 1u);
  }
}
