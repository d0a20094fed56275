// Works only while *done is 0, then sets it: a launch that a replay without restored memory
// would see do nothing (tests/gpu/counters_gpu_test.cpp). One block, so that every thread reads
// the flag before thread 0 writes it.
extern "C" __global__ void run_once(float* data, int* done, int n) {
  const bool first = *done == 0;
  __syncthreads();
  if (first)
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      data[i] = fmaf(data[i], 2.0f, 1.0f);
  if (threadIdx.x == 0)
    *done = 1;
}
