template <typename T, int FACTOR>
__global__ void scale(T* data, T bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i] = data[i] * T(FACTOR) + bias;
  }
}
template __global__ void scale<int, 3>(int*, int, int);
template __global__ void scale<float, 2>(float*, float, int);
template __global__ void scale<unsigned short, 5>(unsigned short*, unsigned short, int);
