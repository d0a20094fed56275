// initcheck: a global histogram whose bins were never zeroed before the atomics add into them.
extern "C" __global__ void histogram(const unsigned* data, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i] % 64], 1u);
}
