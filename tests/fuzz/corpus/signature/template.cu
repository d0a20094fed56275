template <typename T, int N = 4>
__global__ void tk(const T* __restrict__ in, T* out, int n) {}
extern "C" __global__ void __launch_bounds__(256) k2(float4* v, unsigned long long n, const half x) {}
