// racecheck: a 1-D stencil that loads its tile plus halo into shared memory and reads the
// neighbours without a barrier after the halo load (read-after-write between warps).
#define RADIUS 3
extern "C" __global__ void stencil(const float* in, float* out, int n) {
  __shared__ float s[128 + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  s[l] = in[g];
  if (threadIdx.x < RADIUS) {
    s[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.0f;
    s[l + blockDim.x] = g + blockDim.x < n ? in[g + blockDim.x] : 0.0f;
  }
  // missing: __syncthreads();
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += s[l + k];
  out[g] = sum;
}
