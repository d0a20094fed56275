// synccheck: half of every warp calls __syncthreads(); the other half goes on without it.
extern "C" __global__ void half_warp(int* out) {
  if (threadIdx.x % 32 < 16)
    __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}
