// gpurun's CUDA layer for clang: nvcuda::wmma, CUDA's warp matrix API (fragments, load, store,
// fill, mma), over the NVPTX builtins clang provides for it — the same ones nvcc's mma.hpp
// calls. Shapes and types: m16n16k16, m32n8k16, m8n32k16 with half (half or float
// accumulator), __nv_bfloat16 and signed/unsigned char (int accumulator); m16n16k8 with
// precision::tf32; m8n8k4 with double.
#pragma once
#include "__gpurun_defs.h"
#include "cuda_bf16.h"
#include "cuda_fp16.h"

namespace nvcuda {
namespace wmma {

struct row_major {};
struct col_major {};
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
namespace precision {
struct tf32 {};
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };

namespace __gpurun {
template <class T, int N> struct fragment_base {
  enum { num_elements = N };
  typedef T element_type;
  typedef T storage_element_type;
  T x[N];
};
template <class L> struct layout_code { static constexpr int value = 0; };
template <> struct layout_code<col_major> { static constexpr int value = 1; };
// mma's layout argument: A's layout in bit 1, B's in bit 0 (0 row-major, 1 column-major).
template <class LA, class LB> struct mma_layout {
  static constexpr int value = layout_code<LA>::value * 2 + layout_code<LB>::value;
};
} // namespace __gpurun

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment;

#define __GPURUN_FRAGMENT(USE, M, N, K, T, ELEM, COUNT)                                            \
  template <class L>                                                                               \
  class fragment<USE, M, N, K, T, L> : public __gpurun::fragment_base<ELEM, COUNT> {};
#define __GPURUN_ACCUMULATOR(M, N, K, T, COUNT)                                                    \
  template <> class fragment<accumulator, M, N, K, T> : public __gpurun::fragment_base<T, COUNT> {};

__GPURUN_FRAGMENT(matrix_a, 16, 16, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_b, 16, 16, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_a, 32, 8, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_b, 32, 8, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_a, 8, 32, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_b, 8, 32, 16, __half, __half, 16)
__GPURUN_FRAGMENT(matrix_a, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, 8)
__GPURUN_FRAGMENT(matrix_b, 16, 16, 16, __nv_bfloat16, __nv_bfloat16, 8)
__GPURUN_FRAGMENT(matrix_a, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, 16)
__GPURUN_FRAGMENT(matrix_b, 32, 8, 16, __nv_bfloat16, __nv_bfloat16, 4)
__GPURUN_FRAGMENT(matrix_a, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, 4)
__GPURUN_FRAGMENT(matrix_b, 8, 32, 16, __nv_bfloat16, __nv_bfloat16, 16)
__GPURUN_FRAGMENT(matrix_a, 16, 16, 16, signed char, signed char, 8)
__GPURUN_FRAGMENT(matrix_b, 16, 16, 16, signed char, signed char, 8)
__GPURUN_FRAGMENT(matrix_a, 16, 16, 16, unsigned char, unsigned char, 8)
__GPURUN_FRAGMENT(matrix_b, 16, 16, 16, unsigned char, unsigned char, 8)
__GPURUN_FRAGMENT(matrix_a, 32, 8, 16, signed char, signed char, 16)
__GPURUN_FRAGMENT(matrix_b, 32, 8, 16, signed char, signed char, 4)
__GPURUN_FRAGMENT(matrix_a, 32, 8, 16, unsigned char, unsigned char, 16)
__GPURUN_FRAGMENT(matrix_b, 32, 8, 16, unsigned char, unsigned char, 4)
__GPURUN_FRAGMENT(matrix_a, 8, 32, 16, signed char, signed char, 4)
__GPURUN_FRAGMENT(matrix_b, 8, 32, 16, signed char, signed char, 16)
__GPURUN_FRAGMENT(matrix_a, 8, 32, 16, unsigned char, unsigned char, 4)
__GPURUN_FRAGMENT(matrix_b, 8, 32, 16, unsigned char, unsigned char, 16)
__GPURUN_FRAGMENT(matrix_a, 16, 16, 8, precision::tf32, float, 4)
__GPURUN_FRAGMENT(matrix_b, 16, 16, 8, precision::tf32, float, 4)
__GPURUN_FRAGMENT(matrix_a, 8, 8, 4, double, double, 1)
__GPURUN_FRAGMENT(matrix_b, 8, 8, 4, double, double, 1)
__GPURUN_ACCUMULATOR(16, 16, 16, __half, 8)
__GPURUN_ACCUMULATOR(16, 16, 16, float, 8)
__GPURUN_ACCUMULATOR(16, 16, 16, int, 8)
__GPURUN_ACCUMULATOR(32, 8, 16, __half, 8)
__GPURUN_ACCUMULATOR(32, 8, 16, float, 8)
__GPURUN_ACCUMULATOR(32, 8, 16, int, 8)
__GPURUN_ACCUMULATOR(8, 32, 16, __half, 8)
__GPURUN_ACCUMULATOR(8, 32, 16, float, 8)
__GPURUN_ACCUMULATOR(8, 32, 16, int, 8)
__GPURUN_ACCUMULATOR(16, 16, 8, float, 8)
__GPURUN_ACCUMULATOR(8, 8, 4, double, 2)
#undef __GPURUN_FRAGMENT
#undef __GPURUN_ACCUMULATOR

template <class Use, int M, int N, int K, class T, class L, class V>
__GPURUN_DEVICE__ void fill_fragment(fragment<Use, M, N, K, T, L>& f, const V& v) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = v;
}

// ---- load_matrix_sync for A and B: the layout is the fragment's
// ----------------------------------
#define __GPURUN_LOAD_AB(USE, M, N, K, T, MEM, BUILTIN, PTR)                                       \
  template <class L>                                                                               \
  __GPURUN_DEVICE__ void load_matrix_sync(fragment<USE, M, N, K, T, L>& f, const MEM* p,           \
                                          unsigned ldm) {                                          \
    BUILTIN((PTR*)f.x, (const PTR*)p, ldm, __gpurun::layout_code<L>::value);                       \
  }
#define __GPURUN_LOAD_SHAPE(M, N, K)                                                               \
  __GPURUN_LOAD_AB(matrix_a, M, N, K, __half, __half, __hmma_m##M##n##N##k##K##_ld_a, int)         \
  __GPURUN_LOAD_AB(matrix_b, M, N, K, __half, __half, __hmma_m##M##n##N##k##K##_ld_b, int)         \
  __GPURUN_LOAD_AB(matrix_a, M, N, K, __nv_bfloat16, __nv_bfloat16,                                \
                   __mma_bf16_m##M##n##N##k##K##_ld_a, int)                                        \
  __GPURUN_LOAD_AB(matrix_b, M, N, K, __nv_bfloat16, __nv_bfloat16,                                \
                   __mma_bf16_m##M##n##N##k##K##_ld_b, int)                                        \
  __GPURUN_LOAD_AB(matrix_a, M, N, K, signed char, signed char, __imma_m##M##n##N##k##K##_ld_a_s8, \
                   int)                                                                            \
  __GPURUN_LOAD_AB(matrix_b, M, N, K, signed char, signed char, __imma_m##M##n##N##k##K##_ld_b_s8, \
                   int)                                                                            \
  __GPURUN_LOAD_AB(matrix_a, M, N, K, unsigned char, unsigned char,                                \
                   __imma_m##M##n##N##k##K##_ld_a_u8, int)                                         \
  __GPURUN_LOAD_AB(matrix_b, M, N, K, unsigned char, unsigned char,                                \
                   __imma_m##M##n##N##k##K##_ld_b_u8, int)
__GPURUN_LOAD_SHAPE(16, 16, 16)
__GPURUN_LOAD_SHAPE(32, 8, 16)
__GPURUN_LOAD_SHAPE(8, 32, 16)
__GPURUN_LOAD_AB(matrix_a, 16, 16, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_a, int)
__GPURUN_LOAD_AB(matrix_b, 16, 16, 8, precision::tf32, float, __mma_tf32_m16n16k8_ld_b, int)
__GPURUN_LOAD_AB(matrix_a, 8, 8, 4, double, double, __dmma_m8n8k4_ld_a, double)
__GPURUN_LOAD_AB(matrix_b, 8, 8, 4, double, double, __dmma_m8n8k4_ld_b, double)
#undef __GPURUN_LOAD_SHAPE
#undef __GPURUN_LOAD_AB

// ---- accumulators: load and store with the memory layout as an argument
// --------------------------
#define __GPURUN_ACC_IO(M, N, K, T, LOAD, STORE, PTR)                                              \
  __GPURUN_DEVICE__ void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const T* p,        \
                                          unsigned ldm, layout_t layout) {                         \
    if (layout == mem_row_major)                                                                   \
      LOAD((PTR*)f.x, (const PTR*)p, ldm, 0);                                                      \
    else                                                                                           \
      LOAD((PTR*)f.x, (const PTR*)p, ldm, 1);                                                      \
  }                                                                                                \
  __GPURUN_DEVICE__ void store_matrix_sync(T* p, const fragment<accumulator, M, N, K, T>& f,       \
                                           unsigned ldm, layout_t layout) {                        \
    if (layout == mem_row_major)                                                                   \
      STORE((PTR*)p, (PTR*)f.x, ldm, 0);                                                           \
    else                                                                                           \
      STORE((PTR*)p, (PTR*)f.x, ldm, 1);                                                           \
  }
#define __GPURUN_ACC_SHAPE(M, N, K)                                                                \
  __GPURUN_ACC_IO(M, N, K, __half, __hmma_m##M##n##N##k##K##_ld_c_f16,                             \
                  __hmma_m##M##n##N##k##K##_st_c_f16, int)                                         \
  __GPURUN_ACC_IO(M, N, K, float, __hmma_m##M##n##N##k##K##_ld_c_f32,                              \
                  __hmma_m##M##n##N##k##K##_st_c_f32, float)                                       \
  __GPURUN_ACC_IO(M, N, K, int, __imma_m##M##n##N##k##K##_ld_c,                                    \
                  __imma_m##M##n##N##k##K##_st_c_i32, int)
__GPURUN_ACC_SHAPE(16, 16, 16)
__GPURUN_ACC_SHAPE(32, 8, 16)
__GPURUN_ACC_SHAPE(8, 32, 16)
__GPURUN_ACC_IO(16, 16, 8, float, __mma_tf32_m16n16k8_ld_c, __mma_m16n16k8_st_c_f32, float)
__GPURUN_ACC_IO(8, 8, 4, double, __dmma_m8n8k4_ld_c, __dmma_m8n8k4_st_c_f64, double)
#undef __GPURUN_ACC_SHAPE
#undef __GPURUN_ACC_IO

// ---- mma_sync
// -------------------------------------------------------------------------------------
#define __GPURUN_MMA(M, N, K, T, D, C, BUILTIN, DPTR, APTR, CPTR)                                  \
  template <class LA, class LB>                                                                    \
  __GPURUN_DEVICE__ void mma_sync(fragment<accumulator, M, N, K, D>& d,                            \
                                  const fragment<matrix_a, M, N, K, T, LA>& a,                     \
                                  const fragment<matrix_b, M, N, K, T, LB>& b,                     \
                                  const fragment<accumulator, M, N, K, C>& c, bool satf = false) { \
    if (satf)                                                                                      \
      BUILTIN((DPTR*)d.x, (const APTR*)a.x, (const APTR*)b.x, (const CPTR*)c.x,                    \
              __gpurun::mma_layout<LA, LB>::value, 1);                                             \
    else                                                                                           \
      BUILTIN((DPTR*)d.x, (const APTR*)a.x, (const APTR*)b.x, (const CPTR*)c.x,                    \
              __gpurun::mma_layout<LA, LB>::value, 0);                                             \
  }
// bf16, tf32 and f64 have no saturating form: satf is ignored, as in CUDA's header.
#define __GPURUN_MMA_NO_SATF(M, N, K, T, D, C, BUILTIN, DPTR, APTR, CPTR)                          \
  template <class LA, class LB>                                                                    \
  __GPURUN_DEVICE__ void mma_sync(fragment<accumulator, M, N, K, D>& d,                            \
                                  const fragment<matrix_a, M, N, K, T, LA>& a,                     \
                                  const fragment<matrix_b, M, N, K, T, LB>& b,                     \
                                  const fragment<accumulator, M, N, K, C>& c, bool = false) {      \
    BUILTIN((DPTR*)d.x, (const APTR*)a.x, (const APTR*)b.x, (const CPTR*)c.x,                      \
            __gpurun::mma_layout<LA, LB>::value, 0);                                               \
  }
#define __GPURUN_MMA_SHAPE(M, N, K)                                                                \
  __GPURUN_MMA(M, N, K, __half, float, float, __hmma_m##M##n##N##k##K##_mma_f32f32, float, int,    \
               float)                                                                              \
  __GPURUN_MMA(M, N, K, __half, float, __half, __hmma_m##M##n##N##k##K##_mma_f32f16, float, int,   \
               int)                                                                                \
  __GPURUN_MMA(M, N, K, __half, __half, float, __hmma_m##M##n##N##k##K##_mma_f16f32, int, int,     \
               float)                                                                              \
  __GPURUN_MMA(M, N, K, __half, __half, __half, __hmma_m##M##n##N##k##K##_mma_f16f16, int, int,    \
               int)                                                                                \
  __GPURUN_MMA_NO_SATF(M, N, K, __nv_bfloat16, float, float,                                       \
                       __mma_bf16_m##M##n##N##k##K##_mma_f32, float, int, float)                   \
  __GPURUN_MMA(M, N, K, signed char, int, int, __imma_m##M##n##N##k##K##_mma_s8, int, int, int)    \
  __GPURUN_MMA(M, N, K, unsigned char, int, int, __imma_m##M##n##N##k##K##_mma_u8, int, int, int)
__GPURUN_MMA_SHAPE(16, 16, 16)
__GPURUN_MMA_SHAPE(32, 8, 16)
__GPURUN_MMA_SHAPE(8, 32, 16)
__GPURUN_MMA_NO_SATF(16, 16, 8, precision::tf32, float, float, __mma_tf32_m16n16k8_mma_f32, float,
                     int, float)
__GPURUN_MMA_NO_SATF(8, 8, 4, double, double, double, __dmma_m8n8k4_mma_f64, double, double, double)
#undef __GPURUN_MMA_SHAPE
#undef __GPURUN_MMA_NO_SATF
#undef __GPURUN_MMA

/// f32 → tf32 (round to nearest, ties away), as CUDA's wmma::__float_to_tf32.
__GPURUN_DEVICE__ float __float_to_tf32(float in) {
  float out;
  asm("{\n .reg .b32 t;\n cvt.rna.tf32.f32 t, %1;\n mov.b32 %0, t;\n}" : "=f"(out) : "f"(in));
  return out;
}

} // namespace wmma
} // namespace nvcuda
