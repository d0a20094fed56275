// The sum of a float array, added into out[0]. Both kernels add one atomic per block, so out[0]
// must be zero before a launch whose result is checked.

// A warp's sum, in lane 0 (shuffles down the warp).
__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Each thread adds float4 vectors, four loads in flight per step of a grid-stride loop; the warps
// add their lanes with shuffles and the block its warps through shared memory. Any grid and any
// block of whole warps (at most 1024 threads) works; the suite sizes the grid so that each
// thread reads 16 vectors.
extern "C" __global__ void sum(const float* __restrict__ in, float* out, unsigned long long n) {
  const unsigned long long n4 = n / 4;
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float acc = 0.0f;
  unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const float4 v0 = in4[i];
    const float4 v1 = in4[i + stride];
    const float4 v2 = in4[i + 2 * stride];
    const float4 v3 = in4[i + 3 * stride];
    acc += ((v0.x + v0.y) + (v0.z + v0.w)) + ((v1.x + v1.y) + (v1.z + v1.w)) +
           ((v2.x + v2.y) + (v2.z + v2.w)) + ((v3.x + v3.y) + (v3.z + v3.w));
  }
  for (; i < n4; i += stride) {
    const float4 v = in4[i];
    acc += (v.x + v.y) + (v.z + v.w);
  }
  // The last n % 4 elements.
  const unsigned long long t = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n % 4)
    acc += in[n4 * 4 + t];

  __shared__ float warp_sums[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  acc = warp_sum(acc);
  if (lane == 0)
    warp_sums[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    acc = warp_sum(acc);
    if (lane == 0)
      atomicAdd(out, acc);
  }
}

// The textbook first attempt: one element per thread, a tree in shared memory with interleaved
// addressing (the `%` test leaves most lanes of a warp idle). Blocks of 256 threads.
extern "C" __global__ void sum_naive(const float* __restrict__ in, float* out,
                                     unsigned long long n) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (t % (2 * s) == 0)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    atomicAdd(out, partial[0]);
}
