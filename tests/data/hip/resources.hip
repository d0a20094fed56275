// Resources a code object's metadata reports: static LDS (a __shared__ array), scratch (a local
// array indexed at run time), and the hidden arguments that device printf adds.
#include <hip/hip_runtime.h>

extern "C" __global__ void uses_resources(float* out, int pick) {
  __shared__ float tile[64];
  float local[40];
  for (int i = 0; i < 40; ++i)
    local[i] = out[i] * i;
  tile[threadIdx.x % 64] = local[pick % 40];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
  if (threadIdx.x == 0)
    printf("pick %d\n", pick);
}
