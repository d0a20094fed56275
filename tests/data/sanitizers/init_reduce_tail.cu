// initcheck: a reduction whose partial-sums buffer is written by the blocks that exist and then
// read for a fixed count of 8 blocks by block 0 — with fewer blocks launched, the rest of the
// buffer was never written.
extern "C" __global__ void reduce_partials(const float* in, float* partial, float* out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = v;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float total = 0.0f;
    for (int b = 0; b < 8; ++b) // assumes 8 blocks
      total += partial[b];
    out[0] = total;
  }
}
