// C = A·B for n×n float matrices in row-major order.

// One thread per element of C, reading a row of A and a column of B from global memory.
// Blocks of 16×16 threads, a grid of ceil(n/16)×ceil(n/16).
extern "C" __global__ void matmul_naive(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n)
    return;
  float acc = 0.0f;
  for (int k = 0; k < n; ++k)
    acc += A[(unsigned long long)row * n + k] * B[(unsigned long long)k * n + col];
  C[(unsigned long long)row * n + col] = acc;
}

#define TILE 32
#define TILE_ROWS 8

// 32×32 tiles of A and B staged in shared memory; a block of 32×8 threads computes one 32×32
// tile of C, each thread 4 elements of a column of it (rows ty, ty+8, ty+16, ty+24), so every
// value of B read from shared memory feeds 4 multiply-adds. A grid of ceil(n/32)×ceil(n/32).
extern "C" __global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row0 = blockIdx.y * TILE;
  const int col = blockIdx.x * TILE + tx;
  float acc[TILE / TILE_ROWS] = {};
  for (int k0 = 0; k0 < n; k0 += TILE) {
    for (int r = 0; r < TILE; r += TILE_ROWS) {
      const int a_row = row0 + ty + r;
      const int a_col = k0 + tx;
      As[ty + r][tx] = a_row < n && a_col < n ? A[(unsigned long long)a_row * n + a_col] : 0.0f;
      const int b_row = k0 + ty + r;
      Bs[ty + r][tx] = b_row < n && col < n ? B[(unsigned long long)b_row * n + col] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) {
      const float b = Bs[k][tx];
#pragma unroll
      for (int r = 0; r < TILE / TILE_ROWS; ++r)
        acc[r] += As[ty + r * TILE_ROWS][k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TILE / TILE_ROWS; ++r) {
    const int row = row0 + ty + r * TILE_ROWS;
    if (row < n && col < n)
      C[(unsigned long long)row * n + col] = acc[r];
  }
}
