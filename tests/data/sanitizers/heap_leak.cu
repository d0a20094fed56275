// memcheck --leak-check: per-thread blocks allocated and never freed.
extern "C" __global__ void leaky(int* out) {
  int* buf = static_cast<int*>(malloc(32 * sizeof(int)));
  buf[0] = threadIdx.x;
  out[threadIdx.x] = buf[0];
}
