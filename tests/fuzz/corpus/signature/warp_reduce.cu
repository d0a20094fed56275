// Inline asm adds what NVRTC's own output lacks: %laneid and a nested scope that redeclares %p.
__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}
__device__ __forceinline__ int is_nonzero(int v) {
  int r;
  asm("{\n\t.reg .pred %%p<2>;\n\tsetp.ne.s32 %%p1, %1, 0;\n\tselp.s32 %0, 1, 0, %%p1;\n\t}"
      : "=r"(r)
      : "r"(v));
  return r;
}
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
  if (lane_id() == 0) {
    int w = i / 32;
    out[w] = v + (x & 0);
    ballots[w] = mask;
    any_neg[w] = is_nonzero(neg);
  }
}
