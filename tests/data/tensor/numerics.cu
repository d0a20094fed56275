// Tensor-core arithmetic as the GPU does it: one tile per warp, D = A·B + C over the inputs
// scripts/tensor/gen.py writes (wide exponent spreads, cancellation, subnormals), for the forms
// the emulator models. A is row-major M×K, B row-major K×N, C and D row-major M×N, tile after
// tile. The mma_* kernels build their fragments by the PTX ISA's documented layouts.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__device__ int warp_id() { return (blockIdx.x * blockDim.x + threadIdx.x) / 32; }

template <int M, int N, int K, class AT, class AMEM, class CT>
__device__ void wmma_tile(const AMEM* A, const AMEM* B, const CT* C, CT* D, int tiles) {
  const int w = warp_id();
  if (w >= tiles)
    return;
  wmma::fragment<wmma::matrix_a, M, N, K, AT, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, M, N, K, AT, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, M, N, K, CT> c;
  wmma::load_matrix_sync(a, A + w * M * K, K);
  wmma::load_matrix_sync(b, B + w * K * N, N);
  wmma::load_matrix_sync(c, C + w * M * N, N, wmma::mem_row_major);
  wmma::mma_sync(c, a, b, c);
  wmma::store_matrix_sync(D + w * M * N, c, N, wmma::mem_row_major);
}

extern "C" __global__ void wmma_f16_f32(const half* A, const half* B, const float* C, float* D,
                                        int tiles) {
  wmma_tile<16, 16, 16, half>(A, B, C, D, tiles);
}
extern "C" __global__ void wmma_f16_f16(const half* A, const half* B, const half* C, half* D,
                                        int tiles) {
  wmma_tile<16, 16, 16, half>(A, B, C, D, tiles);
}
extern "C" __global__ void wmma_bf16_f32(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                         const float* C, float* D, int tiles) {
  wmma_tile<16, 16, 16, __nv_bfloat16>(A, B, C, D, tiles);
}
extern "C" __global__ void wmma_tf32_f32(const float* A, const float* B, const float* C, float* D,
                                         int tiles) {
  wmma_tile<16, 16, 8, wmma::precision::tf32>(A, B, C, D, tiles);
}
extern "C" __global__ void wmma_f64(const double* A, const double* B, const double* C, double* D,
                                    int tiles) {
  wmma_tile<8, 8, 4, double>(A, B, C, D, tiles);
}

__device__ unsigned pack(half lo, half hi) {
  return unsigned(__half_as_ushort(lo)) | unsigned(__half_as_ushort(hi)) << 16;
}

// mma.sync.m16n8k16 and m16n8k8, f16 inputs, f32 accumulator.
extern "C" __global__ void mma_f16_k16(const half* A, const half* B, const float* C, float* D,
                                       int tiles) {
  const int w = warp_id(), lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
  if (w >= tiles)
    return;
  const half* a = A + w * 256;
  const half* b = B + w * 128;
  const float* c = C + w * 128;
  float* d = D + w * 128;
  unsigned ra[4] = {pack(a[g * 16 + 2 * t], a[g * 16 + 2 * t + 1]),
                    pack(a[(g + 8) * 16 + 2 * t], a[(g + 8) * 16 + 2 * t + 1]),
                    pack(a[g * 16 + 2 * t + 8], a[g * 16 + 2 * t + 9]),
                    pack(a[(g + 8) * 16 + 2 * t + 8], a[(g + 8) * 16 + 2 * t + 9])};
  unsigned rb[2] = {pack(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]),
                    pack(b[(2 * t + 8) * 8 + g], b[(2 * t + 9) * 8 + g])};
  float rc[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], c[(g + 8) * 8 + 2 * t],
                 c[(g + 8) * 8 + 2 * t + 1]};
  float rd[4];
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
               "{%8,%9}, {%10,%11,%12,%13};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                 "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
  d[g * 8 + 2 * t] = rd[0];
  d[g * 8 + 2 * t + 1] = rd[1];
  d[(g + 8) * 8 + 2 * t] = rd[2];
  d[(g + 8) * 8 + 2 * t + 1] = rd[3];
}

// m16n8k8: A 16×8, B 8×8.
extern "C" __global__ void mma_f16_k8(const half* A, const half* B, const float* C, float* D,
                                      int tiles) {
  const int w = warp_id(), lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
  if (w >= tiles)
    return;
  const half* a = A + w * 128;
  const half* b = B + w * 64;
  const float* c = C + w * 128;
  float* d = D + w * 128;
  unsigned ra[2] = {pack(a[g * 8 + 2 * t], a[g * 8 + 2 * t + 1]),
                    pack(a[(g + 8) * 8 + 2 * t], a[(g + 8) * 8 + 2 * t + 1])};
  unsigned rb = pack(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
  float rc[4] = {c[g * 8 + 2 * t], c[g * 8 + 2 * t + 1], c[(g + 8) * 8 + 2 * t],
                 c[(g + 8) * 8 + 2 * t + 1]};
  float rd[4];
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
               "{%7,%8,%9,%10};"
               : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(rb), "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
  d[g * 8 + 2 * t] = rd[0];
  d[g * 8 + 2 * t + 1] = rd[1];
  d[(g + 8) * 8 + 2 * t] = rd[2];
  d[(g + 8) * 8 + 2 * t + 1] = rd[3];
}
