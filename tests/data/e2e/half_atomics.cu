// atomicAdd on __half, __half2, __nv_bfloat16 and __nv_bfloat162 from every thread: the sums are
// exact in 16 bits, so any lost or doubled update shows.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void half_atomics(__half* h, __half2* h2, __nv_bfloat16* b,
                                        __nv_bfloat162* b2) {
  atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(b2, __floats2bfloat162_rn(2.0f, 1.0f));
}
