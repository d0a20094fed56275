// HIP's kernel-side API through gpurun's HIP layer on a 32-wide warp (the CUDA and CPU backends):
// index spellings, HIP_DYNAMIC_SHARED, mask-free and 64-bit-mask warp functions, HIP's atomics,
// half and bfloat16.
// 64 threads in one block: two warps. tests/data/hip/hip_api.json holds the expected values.
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>

extern "C" __global__ void __launch_bounds__(64)
    hip_api(int* lanes, unsigned long long* ballots, int* votes, float* shuffles, float* maximum,
            double* minimum, float* count, __half* halves, __hip_bfloat16* bfloats, int* sizes) {
  const int t = hipThreadIdx_x + hipThreadIdx_y + hipThreadIdx_z +
                hipBlockIdx_x * hipBlockDim_x * hipBlockDim_y * hipBlockDim_z +
                (hipBlockIdx_y + hipBlockIdx_z) * hipGridDim_x * hipGridDim_y * hipGridDim_z;
  const float v = static_cast<float>(t);
  lanes[t] = static_cast<int>(__lane_id());
  ballots[t] = __ballot(t % 4 == 0);
  votes[t] = __any(t == 5) * 2 + __all(t < 64);
  float* s = shuffles + 7 * t;
  s[0] = __shfl(v, 3);
  s[1] = __shfl_down(v, 1);
  s[2] = __shfl_up(v, 1);
  s[3] = __shfl_xor(v, 1);
  s[4] = __shfl(v, 0, 16);
  s[5] = __shfl_sync(0xffffffffffffffffull, v, 7);
  s[6] = __shfl_xor_sync(~0ull, v, 2);
  atomicMax(maximum, v);
  atomicMin(minimum, static_cast<double>(t) + 0.5);
  atomicAddNoRet(count, 1.0f);
  halves[t] = __hadd(__float2half(v * 0.5f), __float2half(1.0f));
  bfloats[t] = __float2bfloat16(__bfloat162float(__float2bfloat16(v)) * 2.0f);
  HIP_DYNAMIC_SHARED(int, exchanged)
  exchanged[t] = warpSize;
  __syncthreads();
  sizes[t] = exchanged[63 - t];
}
