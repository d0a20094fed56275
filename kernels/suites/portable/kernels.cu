// Three kernels written the same way in CUDA (here) and OpenCL C (kernels.cl), so that one machine
// can time the CPU backend's PTX emulator against an OpenCL platform on the CPU (PoCL):
// scripts/opencl-vs-emulator.py. The arithmetic is the same operation for operation (an explicit
// fmaf where the OpenCL C says fma), so the outputs are equal bit for bit.

extern "C" __global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ c, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

#define TILE 16
// C = A·B, n×n, 16×16 tiles in shared memory, one element of C per thread.
extern "C" __global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    const int ac = t * TILE + tx;
    const int br = t * TILE + ty;
    As[ty][tx] = row < n && ac < n ? A[row * n + ac] : 0.0f;
    Bs[ty][tx] = br < n && col < n ? B[br * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc = fmaf(As[ty][k], Bs[k][tx], acc);
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// Each block's sum of 256 elements, a tree in shared memory with sequential addressing.
extern "C" __global__ void reduce_blocks(const float* __restrict__ in, float* __restrict__ out,
                                         unsigned n) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s)
      partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = partial[0];
}
