// Every thread prints its block index, thread index and global index in x, y and z.
#include <cstdio>

extern "C" __global__ void print_threads() {
  unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned gz = blockIdx.z * blockDim.z + threadIdx.z;
  printf("block_idx: [%u, %u, %u]\tthread_idx: [%u, %u, %u]\tglobal_idx: [%u, %u, %u]\n",
         blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, gx, gy, gz);
}
