// synccheck: a warp shuffle with the full member mask inside a branch only the lower half of the
// warp takes.
extern "C" __global__ void half_shuffle(const int* in, int* out) {
  int v = in[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v += __shfl_down_sync(0xffffffffu, v, 8);
  out[threadIdx.x] = v;
}
