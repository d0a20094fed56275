#include <cuda_fp16.h>
extern "C" __global__ void half_math(const __half* a, const __half* b, __half* c, float* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half s = __hadd(a[i], b[i]);
    __half p = __hmul(s, b[i]);
    c[i] = p;
    f[i] = __half2float(p);
  }
}
