// memcheck (device heap): a string-building loop writes one element past its malloc'ed block.
extern "C" __global__ void build(int* out, int n) {
  int* buf = static_cast<int*>(malloc(n * sizeof(int)));
  for (int k = 0; k <= n; ++k) // off by one
    buf[k] = k;
  out[threadIdx.x] = buf[n - 1];
  free(buf);
}
