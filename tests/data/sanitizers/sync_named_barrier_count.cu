// synccheck: a named barrier used with two different thread counts by two groups of warps
// (a producer/consumer split whose counts disagree).
extern "C" __global__ void producer_consumer(int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.sync 1, 128;");
  out[threadIdx.x] = s[(threadIdx.x + 1) % 128];
}
