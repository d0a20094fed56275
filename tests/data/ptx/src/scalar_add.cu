extern "C" __global__ void scalar_add(float* data, float scalar, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] += scalar;
  }
}
