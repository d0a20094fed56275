__constant__ float coeffs[4] = {1.0f, 0.5f, 0.25f, 0.125f};
__device__ int counter = 7;
__device__ double table[3] = {1.5, -2.25, 1e300};
__device__ int* counter_ptr = &counter;
extern "C" __global__ void globals_local(float* out, int n) {
  float scratch[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; ++k) {
    scratch[k] = coeffs[k & 3] * (float)(i + k);
  }
  volatile int pick = i % 16;
  if (i < n) {
    out[i] = scratch[pick] + (float)table[i % 3];
    atomicMax(counter_ptr, i);
  }
}
