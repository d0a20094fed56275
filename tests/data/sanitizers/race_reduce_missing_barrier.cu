// racecheck: a shared-memory tree reduction with the barrier inside the loop left out: a thread
// reads its partner's slot before the partner has added into it (read-after-write).
extern "C" __global__ void reduce(const float* in, float* out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    // missing: __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}
