// Writes past the end of its 8-element buffer when launched with more than 8 threads.
extern "C" __global__ void oob(float* x) {
  x[threadIdx.x] = 1.0f;
}
