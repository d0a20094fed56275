// The CUDA C++ tensor-core API (nvcuda::wmma) as kernels use it: a tiled GEMM with one warp per
// 16×16 tile of C (A row-major, B column-major, f16 inputs, f32 accumulation, an alpha/beta
// epilogue), and one warp per fragment shape and type, loading with strides and layouts that
// differ from the tile's and storing column-major.
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// C = alpha · A·B + beta · C; A is m×k row-major, B k×n column-major, C m×n row-major; m, n, k
// multiples of 16. Blocks of 4×2 warps.
extern "C" __global__ void wmma_gemm(const half* A, const half* B, float* C, int m, int n, int k,
                                     float alpha, float beta) {
  const int warp_m = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int warp_n = blockIdx.y * blockDim.y + threadIdx.y;
  const int row = warp_m * 16, col = warp_n * 16;
  if (row >= m || col >= n)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, c;
  wmma::fill_fragment(acc, 0.0f);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(a, A + row * k + i, k);
    wmma::load_matrix_sync(b, B + col * k + i, k);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::load_matrix_sync(c, C + row * n + col, n, wmma::mem_row_major);
  for (int i = 0; i < c.num_elements; ++i)
    c.x[i] = alpha * acc.x[i] + beta * c.x[i];
  wmma::store_matrix_sync(C + row * n + col, c, n, wmma::mem_row_major);
}

template <class Frag> __device__ void zero(Frag& f) { wmma::fill_fragment(f, 0); }

// One warp per form; every output tile is written column-major with a leading dimension of 40.
extern "C" __global__ void wmma_shapes(const half* h, const __nv_bfloat16* bf, const float* f,
                                       const signed char* s8, const unsigned char* u8,
                                       const double* d, float* out32, half* out16, int* outi,
                                       double* out64) {
  const int form = threadIdx.x / 32;
  switch (form) {
  case 0: { // m32n8k16 f16 → f32, A column-major with a stride of 40, B row-major
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::load_matrix_sync(a, h, 40);
    wmma::load_matrix_sync(b, h + 1024, 24);
    wmma::load_matrix_sync(c, f, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(out32, c, 40, wmma::mem_col_major);
    break;
  }
  case 1: { // m8n32k16 bf16 → f32
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> c;
    wmma::load_matrix_sync(a, bf, 16);
    wmma::load_matrix_sync(b, bf + 512, 16);
    wmma::load_matrix_sync(c, f + 512, 32, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(out32 + 2048, c, 40, wmma::mem_col_major);
    break;
  }
  case 2: { // m16n16k16 f16 with an f16 accumulator
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, half> c;
    wmma::load_matrix_sync(a, h + 2048, 16);
    wmma::load_matrix_sync(b, h + 2560, 16);
    wmma::load_matrix_sync(c, h + 3072, 16, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(out16, c, 40, wmma::mem_col_major);
    break;
  }
  case 3: { // m16n16k8 tf32, the operands converted with __float_to_tf32
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, f + 1024, 8);
    wmma::load_matrix_sync(b, f + 1280, 8);
    for (int i = 0; i < a.num_elements; ++i)
      a.x[i] = wmma::__float_to_tf32(a.x[i]);
    for (int i = 0; i < b.num_elements; ++i)
      b.x[i] = wmma::__float_to_tf32(b.x[i]);
    zero(c);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(out32 + 4096, c, 40, wmma::mem_col_major);
    break;
  }
  case 4: { // m16n16k16 s8, saturating; m32n8k16 u8
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(a, s8, 16);
    wmma::load_matrix_sync(b, s8 + 256, 16);
    wmma::fill_fragment(c, 2147480000);
    wmma::mma_sync(c, a, b, c, true);
    wmma::store_matrix_sync(outi, c, 40, wmma::mem_col_major);
    wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> a2;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::col_major> b2;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> c2;
    wmma::load_matrix_sync(a2, u8, 16);
    wmma::load_matrix_sync(b2, u8 + 512, 16);
    zero(c2);
    wmma::mma_sync(c2, a2, b2, c2);
    wmma::store_matrix_sync(outi + 1024, c2, 40, wmma::mem_col_major);
    break;
  }
  case 5: { // m8n8k4 f64
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::load_matrix_sync(a, d, 8);
    wmma::load_matrix_sync(b, d + 32, 8);
    wmma::load_matrix_sync(c, d + 64, 8, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(out64, c, 40, wmma::mem_col_major);
    break;
  }
  default:
    break;
  }
}
