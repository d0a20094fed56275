// clean: a shared-memory tree reduction with a barrier per step and a shuffle-based last warp.
extern "C" __global__ void reduce(const float* in, float* out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride >= 32; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  if (t < 32) {
    float v = s[t];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (t == 0)
      out[blockIdx.x] = v;
  }
}
