// synccheck: __syncthreads() inside the bounds check of a kernel launched with more threads
// than elements — the threads past n skip the barrier the others wait at.
extern "C" __global__ void scale_tile(const float* in, float* out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % blockDim.x]);
  }
}
