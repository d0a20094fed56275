// y = a * x + y for any element type (HIP; instantiated by name: --kernel 'saxpy<float>').
#include <hip/hip_runtime.h>

template <typename T>
__global__ void __launch_bounds__(256) saxpy(T a, const T* __restrict__ x, T* __restrict__ y,
                                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}
