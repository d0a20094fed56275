// memcheck (device heap): frees a pointer into the middle of a block (after pointer arithmetic).
extern "C" __global__ void walk(int* out) {
  int* buf = static_cast<int*>(malloc(8 * sizeof(int)));
  for (int k = 0; k < 8; ++k)
    buf[k] = k;
  int* p = buf + 2;
  out[threadIdx.x] = p[0];
  free(p); // should be free(buf)
}
