// initcheck (local memory): a per-thread array filled for the first k entries and summed over
// all 8 (indexed dynamically, so it lives in local memory). gpurun checks local memory too.
extern "C" __global__ void partial_local(const int* k, int* out) {
  int acc[8];
  int count = k[threadIdx.x];
  for (int j = 0; j < count; ++j)
    acc[j] = j * threadIdx.x;
  int sum = 0;
  for (int j = 0; j < 8; ++j)
    sum += acc[(j + threadIdx.x) % 8];
  out[threadIdx.x] = sum;
}
