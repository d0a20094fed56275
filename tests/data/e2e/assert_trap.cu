// One thread calls __trap(): the whole launch fails, as on a GPU.
extern "C" __global__ void trap_at(int* x, int block, int thread) {
  if (blockIdx.x == block && threadIdx.x == thread)
    __trap();
  x[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
