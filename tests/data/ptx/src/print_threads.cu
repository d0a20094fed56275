extern "C" __global__ void print_threads() {
  int bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
  int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
  int block = bx + gridDim.x * (by + gridDim.y * bz);
  int thread = tx + blockDim.x * (ty + blockDim.y * tz);
  int global = block * (blockDim.x * blockDim.y * blockDim.z) + thread;
  printf("block (%d,%d,%d) thread (%d,%d,%d) global %d\n", bx, by, bz, tx, ty, tz, global);
}
