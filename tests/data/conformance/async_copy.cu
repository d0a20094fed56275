// cp.async (global → shared, the Ampere-and-later asynchronous copy) in the forms CUDA code uses:
// a double-buffered tiled matmul whose tiles are fetched with 4-byte copies, zero-filling what
// lies past the ragged edge with src-size 0 (the source pointer of those lanes is left past the
// end, as predicated-off copies commonly are); 16-byte .cg and 8-byte .ca copies with every
// src-size from 0 to the copy size; and the ignore-src predicate form. Written with inline PTX so
// NVRTC and clang build the same instructions.
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void cp4(void* dst, const void* src, unsigned src_size) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem(dst)), "l"(src),
               "r"(src_size));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void wait_prior() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N));
}

constexpr int kTile = 16;

// C[m, n] = A[m, k] · B[k, n], row-major, any sizes; one 16×16 tile of C per block.
__device__ void matmul(const float* A, const float* B, float* C, int m, int n, int k) {
  __shared__ float as[2][kTile][kTile];
  __shared__ float bs[2][kTile][kTile];
  const int tx = threadIdx.x % kTile, ty = threadIdx.x / kTile;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  const int tiles = (k + kTile - 1) / kTile;
  auto fetch = [&](int t, int buf) {
    const int ka = t * kTile + tx, kb = t * kTile + ty;
    const bool a_in = row < m && ka < k, b_in = kb < k && col < n;
    // Out of range: src-size 0 and a pointer that may lie outside the buffer.
    cp4(&as[buf][ty][tx], A + row * k + ka, a_in ? 4 : 0);
    cp4(&bs[buf][ty][tx], B + kb * n + col, b_in ? 4 : 0);
    commit();
  };
  float acc = 0;
  fetch(0, 0);
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      fetch(t + 1, (t + 1) & 1);
      wait_prior<1>();
    } else {
      asm volatile("cp.async.wait_all;");
    }
    __syncthreads();
    for (int i = 0; i < kTile; ++i)
      acc += as[t & 1][ty][i] * bs[t & 1][i][tx];
    __syncthreads();
  }
  if (row < m && col < n)
    C[row * n + col] = acc;
}

// Thread t copies 16 bytes with src-size t % 17 (.cg), 8 bytes with src-size t % 9 (.ca), and
// 16 bytes under ignore-src = (t % 3 == 0); shared memory is first filled with 0xA5 so what the
// copy leaves alone shows. The source rows are bytes 16·t … of `bytes`.
__device__ void partial(const std::uint8_t* bytes, std::uint8_t* out) {
  __shared__ __align__(16) std::uint8_t s[3][256][16];
  const int t = threadIdx.x;
  for (int j = 0; j < 16; ++j)
    s[0][t][j] = s[1][t][j] = s[2][t][j] = 0xA5;
  __syncthreads();
  const std::uint8_t* src = bytes + 16 * t;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(s[0][t])), "l"(src),
               "r"(t % 17));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(smem(s[1][t])), "l"(src),
               "r"(t % 9));
  asm volatile("{\n .reg .pred p;\n setp.eq.u32 p, %2, 0;\n"
               " cp.async.cg.shared.global [%0], [%1], 16, p;\n}" ::"r"(smem(s[2][t])),
               "l"(src), "r"(t % 3));
  commit();
  wait_prior<0>();
  __syncthreads();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 16; ++j)
      out[(i * 256 + t) * 16 + j] = s[i][t][j];
}

extern "C" __global__ void async_copy(const float* A, const float* B, float* C, int m, int n,
                                      int k, const std::uint8_t* bytes, std::uint8_t* out) {
  matmul(A, B, C, m, n, k);
  if (blockIdx.x == 0 && blockIdx.y == 0)
    partial(bytes, out);
}
