// Every thread prints its block index, thread index and global index in x, y and z (HIP). HIP's
// blockIdx and threadIdx members are not plain integers on AMD GPUs, so they are read into
// unsigned values before they go through printf's variable arguments.
#include <hip/hip_runtime.h>

extern "C" __global__ void print_threads() {
  unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  unsigned gx = bx * blockDim.x + tx;
  unsigned gy = by * blockDim.y + ty;
  unsigned gz = bz * blockDim.z + tz;
  printf("block_idx: [%u, %u, %u]\tthread_idx: [%u, %u, %u]\tglobal_idx: [%u, %u, %u]\n", bx, by,
         bz, tx, ty, tz, gx, gy, gz);
}
