// clean: per-thread scratch from the device heap, checked, used and freed once.
extern "C" __global__ void scratch(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int* buf = static_cast<int*>(malloc(8 * sizeof(int)));
  if (buf == nullptr) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < 8; ++k)
    buf[k] = in[i] * k;
  int sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += buf[k];
  out[i] = sum;
  free(buf);
}
