// initcheck: a kernel that accumulates into its output (out[i] += …) although nothing ever
// zeroed it — the output buffer is allocated and never written by the host (fill `uninit`).
extern "C" __global__ void axpy_accumulate(const float* x, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] += a * x[i];
}
