template <typename T>
__global__ void saxpy(T a, const T* x, T* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + y[i];
  }
}
template __global__ void saxpy<float>(float, const float*, float*, int);
template __global__ void saxpy<double>(double, const double*, double*, int);
