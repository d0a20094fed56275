// Sums the positive elements with a float atomic, whose result depends on the order the threads
// add in: such atomics stay on the interpreter.
extern "C" __global__ void sum_positive(const float* v, float* sum, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && v[i] > 0.0f)
    atomicAdd(sum, v[i]);
}
