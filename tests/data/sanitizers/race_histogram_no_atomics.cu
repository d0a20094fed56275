// racecheck: a block histogram in shared memory that increments bins with ++ instead of
// atomicAdd: threads with the same bin read-modify-write the same word.
extern "C" __global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    local[data[i] % 16]++; // should be atomicAdd(&local[data[i] % 16], 1)
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
