// racecheck: the classic unrolled last-warp reduction written for pre-Volta lock-step warps,
// without __syncwarp() between steps: lanes of one warp race on the shared slots.
extern "C" __global__ void reduce_last_warp(const float* in, float* out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  if (t < 32) {
    volatile float* v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
