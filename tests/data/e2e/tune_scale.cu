// A kernel to tune: each thread scales ITEMS consecutive elements. Two configurations are
// broken on purpose: ITEMS == 8 skips each thread's last element (a wrong answer) and ITEMS == 16
// does not compile.
#ifndef ITEMS
#define ITEMS 1
#endif
#if ITEMS == 16
#error "ITEMS 16 is not supported"
#endif

extern "C" __global__ void tune_scale(const float* x, float* y, int n) {
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS;
  const int count = ITEMS == 8 ? ITEMS - 1 : ITEMS;
  for (int k = 0; k < count; ++k) {
    const int i = base + k;
    if (i < n)
      y[i] = 2.0f * x[i];
  }
}
