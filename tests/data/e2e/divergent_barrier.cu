// Barriers that not every thread of the block reaches the same number of times: undefined
// behaviour in CUDA, which gpurun must not pass over in silence.

// Half of every warp calls __syncthreads; the other half goes on without it.
extern "C" __global__ void half_warp_barrier(int* out) {
  if (threadIdx.x % 32 < 16)
    __syncthreads();
  out[threadIdx.x] = threadIdx.x;
}

// Warp w calls __syncthreads w + 1 times.
extern "C" __global__ void uneven_barriers(int* out) {
  const int warp = threadIdx.x / 32;
  for (int k = 0; k <= warp; ++k)
    __syncthreads();
  out[threadIdx.x] = warp;
}

// Every thread reaches both barriers: no finding.
extern "C" __global__ void even_barriers(int* out) {
  __shared__ int tile[64];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[63 - threadIdx.x];
  __syncthreads();
}
