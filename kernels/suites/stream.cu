// BabelStream's kernels over float arrays: copy (c = a), mul (b = scalar·c), add (c = a + b) and
// triad (a = b + scalar·c). The plain names move float4 vectors, one per thread: a grid of
// ceil(n/1024) blocks of 256 threads; the *_float kernels move one float per thread: a grid of
// ceil(n/256) blocks of 256. Any n works (the vector kernels do the last n % 4 elements one by
// one).

__device__ __forceinline__ unsigned long long thread_index() {
  return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}

extern "C" __global__ void copy(const float* __restrict__ a, float* __restrict__ c,
                                unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n / 4)
    reinterpret_cast<float4*>(c)[i] = reinterpret_cast<const float4*>(a)[i];
  if (i < n % 4)
    c[n / 4 * 4 + i] = a[n / 4 * 4 + i];
}

extern "C" __global__ void mul(float* __restrict__ b, const float* __restrict__ c, float scalar,
                               unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n / 4) {
    const float4 v = reinterpret_cast<const float4*>(c)[i];
    reinterpret_cast<float4*>(b)[i] =
        make_float4(scalar * v.x, scalar * v.y, scalar * v.z, scalar * v.w);
  }
  if (i < n % 4)
    b[n / 4 * 4 + i] = scalar * c[n / 4 * 4 + i];
}

extern "C" __global__ void add(const float* __restrict__ a, const float* __restrict__ b,
                               float* __restrict__ c, unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n / 4) {
    const float4 x = reinterpret_cast<const float4*>(a)[i];
    const float4 y = reinterpret_cast<const float4*>(b)[i];
    reinterpret_cast<float4*>(c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  if (i < n % 4)
    c[n / 4 * 4 + i] = a[n / 4 * 4 + i] + b[n / 4 * 4 + i];
}

extern "C" __global__ void triad(float* __restrict__ a, const float* __restrict__ b,
                                 const float* __restrict__ c, float scalar, unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n / 4) {
    const float4 x = reinterpret_cast<const float4*>(b)[i];
    const float4 y = reinterpret_cast<const float4*>(c)[i];
    reinterpret_cast<float4*>(a)[i] =
        make_float4(x.x + scalar * y.x, x.y + scalar * y.y, x.z + scalar * y.z, x.w + scalar * y.w);
  }
  if (i < n % 4)
    a[n / 4 * 4 + i] = b[n / 4 * 4 + i] + scalar * c[n / 4 * 4 + i];
}

extern "C" __global__ void copy_float(const float* __restrict__ a, float* __restrict__ c,
                                      unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n)
    c[i] = a[i];
}

extern "C" __global__ void mul_float(float* __restrict__ b, const float* __restrict__ c,
                                     float scalar, unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n)
    b[i] = scalar * c[i];
}

extern "C" __global__ void add_float(const float* __restrict__ a, const float* __restrict__ b,
                                     float* __restrict__ c, unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n)
    c[i] = a[i] + b[i];
}

extern "C" __global__ void triad_float(float* __restrict__ a, const float* __restrict__ b,
                                       const float* __restrict__ c, float scalar,
                                       unsigned long long n) {
  const unsigned long long i = thread_index();
  if (i < n)
    a[i] = b[i] + scalar * c[i];
}
