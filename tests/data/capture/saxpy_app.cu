// A CUDA program as users write them, for `gpurun capture`: runtime API, <<<>>> launches, a
// pointer into the middle of an allocation, a struct passed by value with a pointer inside, and
// the same kernel launched several times. It prints what it computed so that a capture's saved
// outputs can be compared with what the program itself got.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

struct Scale {
  float a;
  const float* bias; // device pointer inside a by-value parameter
  int n;
};

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale_bias(Scale s, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s.n)
    out[i] = s.a * out[i] + s.bias[i];
}

#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  std::vector<float> x(n), y(n), bias(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 1.0f / (i + 1);
    bias[i] = (i % 7) * 0.25f;
  }
  float *dx = nullptr, *dy = nullptr, *dbias = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, (n + 64) * sizeof(float))); // y starts 64 floats into its allocation
  CHECK(cudaMalloc(&dbias, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy + 64, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dbias, bias.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for (int k = 0; k < 3; ++k)
    saxpy<<<(n + 127) / 128, 128>>>(2.0f + k, dx, dy + 64, n);
  scale_bias<<<(n + 255) / 256, 256>>>(Scale{0.5f, dbias, n}, dy + 64);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy + 64, n * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += y[i];
  std::printf("n=%d sum=%.9g y[1]=%.9g y[n-1]=%.9g\n", n, sum, y[1], y[n - 1]);
  if (argc > 2) { // the result, raw
    FILE* f = std::fopen(argv[2], "wb");
    std::fwrite(y.data(), sizeof(float), n, f);
    std::fclose(f);
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dbias));
  return 0;
}
