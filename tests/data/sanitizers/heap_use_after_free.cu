// memcheck (device heap): reads a block after freeing it.
extern "C" __global__ void stale(int* out) {
  int* buf = static_cast<int*>(malloc(16 * sizeof(int)));
  buf[threadIdx.x % 16] = threadIdx.x;
  free(buf);
  out[threadIdx.x] = buf[threadIdx.x % 16];
}
