// synccheck: __syncwarp(0x0000ffff) called by all 32 lanes — the upper half passes a mask that
// does not include itself.
extern "C" __global__ void lower_half_sync(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp(0x0000ffffu);
  out[threadIdx.x] = s[31 - threadIdx.x];
}
