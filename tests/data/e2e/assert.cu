// Doubles x[i] after asserting that i is in range: the assert holds when the grid covers n
// threads, and fails in every thread past n otherwise.
#include <cassert>

extern "C" __global__ void scale_checked(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  x[i] = 2.0f * x[i];
}
