// The seed program's kernel in HIP: add a scalar to every element of a vector.
#include <hip/hip_runtime.h>

extern "C" __global__ void scalar_add(float* vector, int size, float scalar) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < size) {
    vector[idx] += scalar;
  }
}
