// initcheck: an array of (x, y) pairs where the producer fills only x but the consumer reads y
// too.
extern "C" __global__ void fill_then_use(float* pairs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  pairs[2 * i] = static_cast<float>(i);
  out[i] = pairs[2 * i] + pairs[2 * i + 1]; // y was never written
}
