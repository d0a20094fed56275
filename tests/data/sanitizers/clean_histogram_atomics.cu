// clean: a block histogram in shared memory with atomics, merged into zeroed global bins.
extern "C" __global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&local[data[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
