// out = the transpose of in, n×n floats in row-major order. Both kernels cover the matrix with
// 32×32 tiles, one block of 32×8 threads per tile (each thread 4 elements of a column of the
// tile): a grid of ceil(n/32)×ceil(n/32) blocks.
#define TILE 32
#define TILE_ROWS 8

// Reads rows (coalesced) and writes columns: each warp's store touches 32 rows of out.
extern "C" __global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out,
                                           int n) {
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += TILE_ROWS)
    if (x < n && y + j < n)
      out[(unsigned long long)x * n + (y + j)] = in[(unsigned long long)(y + j) * n + x];
}

// Stages the tile in shared memory so that the writes are coalesced too; the extra column keeps
// the column reads of the tile free of bank conflicts.
extern "C" __global__ void transpose_tiled(const float* __restrict__ in, float* __restrict__ out,
                                           int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += TILE_ROWS)
    if (x < n && y + j < n)
      tile[threadIdx.y + j][threadIdx.x] = in[(unsigned long long)(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += TILE_ROWS)
    if (x < n && y + j < n)
      out[(unsigned long long)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
