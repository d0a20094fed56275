// synccheck: an early return for the threads past n before a block-wide barrier.
extern "C" __global__ void normalize(const float* in, float* out, int n) {
  __shared__ float total;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (threadIdx.x == 0)
    total = 0.0f;
  __syncthreads();
  atomicAdd(&total, in[i]);
  __syncthreads();
  out[i] = in[i] / total;
}
