extern "C" __global__ void warp_reduce(const int* in, int* out, unsigned* ballots, int* any_neg,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned mask = __ballot_sync(0xffffffffu, v > 0);
  int neg = __any_sync(0xffffffffu, v < 0);
  for (int offset = 16; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  int x = v;
  for (int m = 1; m < 32; m *= 2) {
    x = max(x, __shfl_xor_sync(0xffffffffu, x, m));
  }
  if ((threadIdx.x & 31) == 0) {
    int w = i / 32;
    out[w] = v + (x & 0);
    ballots[w] = mask;
    any_neg[w] = neg;
  }
}
