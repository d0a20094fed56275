// Tensor-core fragment layouts as the GPU has them: every wmma fragment kind is loaded from a
// matrix whose element (r, c) holds its own index, and each lane writes out the raw elements of
// its fragment. out[kind][lane][element] = index loaded there (row-major index of the matrix as
// the load saw it). ldmatrix is probed the same way. scripts/tensor/run.sh runs it; docs/tensor-cores.md.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

constexpr int kSlots = 32; // elements recorded per lane and kind

template <class Frag> __device__ void dump(const Frag& f, float* out) {
  const int lane = threadIdx.x % 32;
  for (int i = 0; i < kSlots; ++i)
    out[lane * kSlots + i] = i < Frag::num_elements ? float(f.x[i]) : -1.0f;
}

// One kind per warp: warp w loads kind w. Matrices are given as index-valued arrays in f16,
// bf16 (exact up to 256), f32, f64 and u8 (256 elements each, 0..255 ; wider shapes use f32).
#define LOAD(USE, M, N, K, T, LAYOUT, SRC, LD)                                                   \
  {                                                                                              \
    wmma::fragment<wmma::USE, M, N, K, T, wmma::LAYOUT> frag_;                                     \
    wmma::load_matrix_sync(frag_, SRC, LD);                                                          \
    dump(frag_, out + kind * 32 * kSlots);                                                           \
  }                                                                                              \
  ++kind;
#define LOADC(M, N, K, T, SRC, LD, LAYOUT)                                                       \
  {                                                                                              \
    wmma::fragment<wmma::accumulator, M, N, K, T> frag_;                                           \
    wmma::load_matrix_sync(frag_, SRC, LD, wmma::LAYOUT);                                            \
    dump(frag_, out + kind * 32 * kSlots);                                                           \
  }                                                                                              \
  ++kind;

extern "C" __global__ void layouts(const half* h, const __nv_bfloat16* bf, const float* f,
                                   const double* d, const unsigned char* u8,
                                   float* out) {
  const signed char* s8 = reinterpret_cast<const signed char*>(u8); // 128..255 read as -128..-1
  if (threadIdx.x >= 32)
    return;
  int kind = 0;
  // f16, the three shapes: a row/col, b row/col, c f16 and f32 (row/col memory layout)
  LOAD(matrix_a, 16, 16, 16, half, row_major, h, 16)
  LOAD(matrix_a, 16, 16, 16, half, col_major, h, 16)
  LOAD(matrix_b, 16, 16, 16, half, row_major, h, 16)
  LOAD(matrix_b, 16, 16, 16, half, col_major, h, 16)
  LOADC(16, 16, 16, half, h, 16, mem_row_major)
  LOADC(16, 16, 16, float, f, 16, mem_row_major)
  LOADC(16, 16, 16, float, f, 16, mem_col_major)
  LOAD(matrix_a, 32, 8, 16, half, row_major, h, 16)
  LOAD(matrix_a, 32, 8, 16, half, col_major, h, 32)
  LOAD(matrix_b, 32, 8, 16, half, row_major, h, 8)
  LOAD(matrix_b, 32, 8, 16, half, col_major, h, 16)
  LOADC(32, 8, 16, float, f, 8, mem_row_major)
  LOADC(32, 8, 16, half, h, 8, mem_row_major)
  LOAD(matrix_a, 8, 32, 16, half, row_major, h, 16)
  LOAD(matrix_a, 8, 32, 16, half, col_major, h, 8)
  LOAD(matrix_b, 8, 32, 16, half, row_major, h, 32)
  LOAD(matrix_b, 8, 32, 16, half, col_major, h, 16)
  LOADC(8, 32, 16, float, f, 32, mem_row_major)
  LOADC(8, 32, 16, half, h, 32, mem_row_major)
  // bf16
  LOAD(matrix_a, 16, 16, 16, __nv_bfloat16, row_major, bf, 16)
  LOAD(matrix_b, 16, 16, 16, __nv_bfloat16, col_major, bf, 16)
  // tf32 m16n16k8
  LOAD(matrix_a, 16, 16, 8, wmma::precision::tf32, row_major, f, 8)
  LOAD(matrix_a, 16, 16, 8, wmma::precision::tf32, col_major, f, 16)
  LOAD(matrix_b, 16, 16, 8, wmma::precision::tf32, row_major, f, 16)
  LOAD(matrix_b, 16, 16, 8, wmma::precision::tf32, col_major, f, 8)
  LOADC(16, 16, 8, float, f, 16, mem_row_major)
  // f64 m8n8k4
  LOAD(matrix_a, 8, 8, 4, double, row_major, d, 4)
  LOAD(matrix_a, 8, 8, 4, double, col_major, d, 8)
  LOAD(matrix_b, 8, 8, 4, double, row_major, d, 8)
  LOAD(matrix_b, 8, 8, 4, double, col_major, d, 4)
  LOADC(8, 8, 4, double, d, 8, mem_row_major)
  // u8 / s8 m16n16k16 and the int accumulator
  LOAD(matrix_a, 16, 16, 16, unsigned char, row_major, u8, 16)
  LOAD(matrix_b, 16, 16, 16, unsigned char, col_major, u8, 16)
  LOAD(matrix_a, 32, 8, 16, signed char, row_major, s8, 16)
  LOAD(matrix_b, 8, 32, 16, signed char, row_major, s8, 32)
}

// ldmatrix: four 8×8 b16 matrices in shared memory, element (m, r, c) = 64m + 8r + c; lane l
// gives the address of row l % 8 of matrix l / 8 (rows in reverse order for matrix 1, to show
// that the addresses, not the lane order, pick the rows). out[form][lane][register].
extern "C" __global__ void ldmatrix_dump(unsigned* out) {
  __shared__ unsigned short s[256];
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32)
    s[i] = i;
  __syncwarp();
  const int m = lane / 8, r = m == 1 ? 7 - lane % 8 : lane % 8;
  const unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(&s[64 * m + 8 * r]));
  unsigned v[4];
  auto put = [&](int form, int n) {
    for (int i = 0; i < 4; ++i)
      out[(form * 32 + lane) * 4 + i] = i < n ? v[i] : 0xffffffffu;
  };
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(v[0]) : "r"(addr));
  put(0, 1);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
               : "=r"(v[0]), "=r"(v[1]) : "r"(addr));
  put(1, 2);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(addr));
  put(2, 4);
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(v[0]) : "r"(addr));
  put(3, 1);
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
               : "=r"(v[0]), "=r"(v[1]) : "r"(addr));
  put(4, 2);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]) : "r"(addr));
  put(5, 4);
}

// The 8-bit fragments of every shape (and the s32 accumulators): an 8-bit value cannot hold an
// index past 255, so each fragment is loaded twice, from the index's low byte (`lo`) and its
// high byte (`hi`), and lo + 256·hi written out.
template <class Frag, class T> __device__ void dump2(Frag& f, const T* lo, const T* hi, unsigned ldm,
                                                     float* out) {
  const int lane = threadIdx.x % 32;
  wmma::load_matrix_sync(f, lo, ldm);
  float low[kSlots];
  for (int i = 0; i < Frag::num_elements; ++i)
    low[i] = float(static_cast<unsigned char>(f.x[i]));
  wmma::load_matrix_sync(f, hi, ldm);
  for (int i = 0; i < kSlots; ++i)
    out[lane * kSlots + i] =
        i < Frag::num_elements ? low[i] + 256.0f * float(static_cast<unsigned char>(f.x[i])) : -1.0f;
}

#define LOAD8(USE, M, N, K, T, LAYOUT, LD)                                                       \
  {                                                                                              \
    wmma::fragment<wmma::USE, M, N, K, T, wmma::LAYOUT> frag_;                                   \
    dump2(frag_, reinterpret_cast<const T*>(lo), reinterpret_cast<const T*>(hi), LD,             \
          out + kind * 32 * kSlots);                                                             \
  }                                                                                              \
  ++kind;

extern "C" __global__ void layouts8(const unsigned char* lo, const unsigned char* hi,
                                    const int* idx, float* out) {
  int kind = 0;
  LOAD8(matrix_a, 16, 16, 16, signed char, row_major, 16)
  LOAD8(matrix_a, 16, 16, 16, signed char, col_major, 16)
  LOAD8(matrix_b, 16, 16, 16, signed char, row_major, 16)
  LOAD8(matrix_b, 16, 16, 16, signed char, col_major, 16)
  LOAD8(matrix_a, 32, 8, 16, signed char, row_major, 16)
  LOAD8(matrix_a, 32, 8, 16, signed char, col_major, 32)
  LOAD8(matrix_b, 32, 8, 16, signed char, row_major, 8)
  LOAD8(matrix_b, 32, 8, 16, signed char, col_major, 16)
  LOAD8(matrix_a, 8, 32, 16, unsigned char, row_major, 16)
  LOAD8(matrix_a, 8, 32, 16, unsigned char, col_major, 8)
  LOAD8(matrix_b, 8, 32, 16, unsigned char, row_major, 32)
  LOAD8(matrix_b, 8, 32, 16, unsigned char, col_major, 16)
  LOADC(16, 16, 16, int, idx, 16, mem_row_major)
  LOADC(32, 8, 16, int, idx, 8, mem_row_major)
  LOADC(8, 32, 16, int, idx, 32, mem_col_major)
}
