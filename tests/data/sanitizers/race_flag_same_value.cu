// racecheck (warning): every thread that sees a negative value sets a shared flag to 1 — the
// threads write the same value, which compute-sanitizer grades as a warning, not an error.
extern "C" __global__ void any_negative(const float* in, int* out) {
  __shared__ int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (in[blockIdx.x * blockDim.x + threadIdx.x] < 0.0f)
    flag = 1;
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = flag;
}
