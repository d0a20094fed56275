// Block-wise sum with dynamic shared memory (HIP): out[block] = sum of the block's elements.
#include <hip/hip_runtime.h>

extern "C" __global__ void reduce_sum(const float* in, float* out, unsigned n) {
  extern __shared__ float partial[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) {
      partial[tid] += partial[tid + stride];
    }
    __syncthreads();
  }
  if (tid == 0) {
    out[blockIdx.x] = partial[0];
  }
}
