// A program whose kernels live in its own header.
#include <cstdio>
#include <vector>
#include "scale_kernels.cuh"

int main() {
  std::vector<float> host(256, 1.0f);
  float* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(float));
  scale_in_header<float><<<1, 256>>>(device, 2.0f, 256);
  offset_in_header<<<1, 256>>>(device, 1.0f, 256);
  cudaFree(device);
  std::printf("done\n");
}
