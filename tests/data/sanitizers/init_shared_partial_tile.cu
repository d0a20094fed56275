// initcheck (shared memory): a tile loaded by the threads inside the matrix only, then read by
// every thread — the edge block reads tile slots nothing wrote. compute-sanitizer's initcheck
// covers global memory only; gpurun also checks shared memory.
#define TILE 32
extern "C" __global__ void edge_tile(const float* in, float* out, int n) {
  __shared__ float tile[TILE];
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n)
    tile[threadIdx.x] = in[i];
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = tile[TILE - 1 - threadIdx.x];
}
