__device__ __noinline__ float square_plus(float v, float w) { return v * v + w; }
__device__ __noinline__ void bump(int* counter, int by) { atomicAdd(counter, by); }
__device__ __noinline__ int clamp_index(int i, int lo, int hi) {
  return i < lo ? lo : (i > hi ? hi : i);
}
extern "C" __global__ void device_funcs(float* data, int* counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = clamp_index(i, 0, n - 1);
  data[j] = square_plus(data[j], 1.0f);
  bump(counter, 1);
}
