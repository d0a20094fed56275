// A HIP program as its authors keep it: the kernel, a host check and main().
#include <hip/hip_runtime.h>
#include <iostream>
#include <vector>
#include <cstdlib>

#define HIP_CHECK(cmd)                                                                            \
  do {                                                                                            \
    hipError_t e = (cmd);                                                                         \
    if (e != hipSuccess) {                                                                        \
      std::cerr << "HIP error " << hipGetErrorString(e) << std::endl;                             \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

template <typename T>
__global__ void vector_scale(T* out, const T* in, T factor, int n) {
  int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (i < n) out[i] = in[i] * factor;
}

int main() {
  const int n = 1024;
  std::vector<float> host(n, 1.0f);
  float *d_in, *d_out;
  HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
  HIP_CHECK(hipMemcpy(d_in, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(vector_scale<float>, dim3(n / 256), dim3(256), 0, 0, d_out, d_in, 2.0f, n);
  vector_scale<float><<<n / 256, 256>>>(d_out, d_in, 2.0f, n);
  HIP_CHECK(hipMemcpy(host.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
  std::cout << host[0] << std::endl;
  HIP_CHECK(hipFree(d_in));
  HIP_CHECK(hipFree(d_out));
}
