// __syncthreads_or (bar.red.or.pred) orders shared memory as __syncthreads does: with it the
// neighbour's word is read after the barrier, without it (use_barrier = 0) racecheck reports a
// hazard; in divergent code (divergent = 1) synccheck reports the barrier.
extern "C" __global__ void bar_red_race(int* out, int use_barrier, int divergent) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  int c = 0;
  if (use_barrier && (!divergent || threadIdx.x < 64))
    c = __syncthreads_or(threadIdx.x == 5);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128] + c;
}
