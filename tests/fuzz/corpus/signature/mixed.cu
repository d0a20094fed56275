// Kernels for the bench end-to-end tests: one that is right, one whose result is wrong.
extern "C" __global__ void fill_index(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = static_cast<float>(i);
}

extern "C" __global__ void fill_wrong(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = static_cast<float>(i) + 1.0f;
}
