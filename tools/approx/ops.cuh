#pragma once
// The instructions capture.cu and verify.cu evaluate on the GPU: one kernel per instruction over
// a range of input bit patterns (see capture.cu for the conventions), and a table of them.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t e_ = (call);                                                                   \
    if (e_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "capture: %s: %s\n", #call, cudaGetErrorString(e_));                \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

#define F32_OP(NAME, ASM)                                                                      \
  __global__ void k_##NAME(uint32_t lo, uint32_t stride, uint64_t n, uint32_t* out) {          \
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;                 \
         i += uint64_t(gridDim.x) * blockDim.x) {                                             \
      uint32_t a = lo + uint32_t(i) * stride, d;                                               \
      asm(ASM " %0, %1;" : "=r"(d) : "r"(a));                                                  \
      out[i] = d;                                                                              \
    }                                                                                          \
  }
#define F64_OP(NAME, ASM)                                                                      \
  __global__ void k_##NAME(uint32_t lo, uint32_t stride, uint64_t n, uint32_t low,             \
                           uint64_t* out) {                                                    \
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;                 \
         i += uint64_t(gridDim.x) * blockDim.x) {                                             \
      uint64_t a = (uint64_t(lo + uint32_t(i) * stride) << 32) | low, d;                       \
      asm(ASM " %0, %1;" : "=l"(d) : "l"(a));                                                  \
      out[i] = d;                                                                              \
    }                                                                                          \
  }
#define F16_OP(NAME, ASM)                                                                      \
  __global__ void k_##NAME(uint32_t lo, uint32_t stride, uint64_t n, uint16_t* out) {          \
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;                 \
         i += uint64_t(gridDim.x) * blockDim.x) {                                             \
      unsigned short a = (unsigned short)(lo + uint32_t(i) * stride), d;                       \
      asm(ASM " %0, %1;" : "=h"(d) : "h"(a));                                                  \
      out[i] = d;                                                                              \
    }                                                                                          \
  }
// Packed forms: the same value in both halves; the low half is written, the high half checked.
#define F16X2_OP(NAME, ASM)                                                                    \
  __global__ void k_##NAME(uint32_t lo, uint32_t stride, uint64_t n, uint16_t* out) {          \
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;                 \
         i += uint64_t(gridDim.x) * blockDim.x) {                                             \
      uint32_t h = (lo + uint32_t(i) * stride) & 0xffffu, a = h | (h << 16), d;                \
      asm(ASM " %0, %1;" : "=r"(d) : "r"(a));                                                  \
      out[i] = (d >> 16) == (d & 0xffffu) ? uint16_t(d) : uint16_t(0xdead);                    \
    }                                                                                          \
  }
// Division: the dividend is LOW_WORD's f32, the divisor walks the range.
#define DIV_OP(NAME, ASM)                                                                      \
  __global__ void k_##NAME(uint32_t lo, uint32_t stride, uint64_t n, uint32_t num,             \
                           uint32_t* out) {                                                    \
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;                 \
         i += uint64_t(gridDim.x) * blockDim.x) {                                             \
      uint32_t b = lo + uint32_t(i) * stride, d;                                               \
      asm(ASM " %0, %1, %2;" : "=r"(d) : "r"(num), "r"(b));                                    \
      out[i] = d;                                                                              \
    }                                                                                          \
  }

// Each instruction reads its operand from a b32/b64/b16 register through mov, as PTX requires.
F32_OP(rcp_approx_f32, "{.reg .f32 t; mov.b32 t, %1; rcp.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(rcp_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; rcp.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(sqrt_approx_f32, "{.reg .f32 t; mov.b32 t, %1; sqrt.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(sqrt_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; sqrt.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(rsqrt_approx_f32, "{.reg .f32 t; mov.b32 t, %1; rsqrt.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(rsqrt_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; rsqrt.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(ex2_approx_f32, "{.reg .f32 t; mov.b32 t, %1; ex2.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(ex2_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; ex2.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(lg2_approx_f32, "{.reg .f32 t; mov.b32 t, %1; lg2.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(lg2_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; lg2.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(sin_approx_f32, "{.reg .f32 t; mov.b32 t, %1; sin.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(sin_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; sin.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(cos_approx_f32, "{.reg .f32 t; mov.b32 t, %1; cos.approx.f32 t, t; mov.b32 %0, t;} //")
F32_OP(cos_approx_ftz_f32, "{.reg .f32 t; mov.b32 t, %1; cos.approx.ftz.f32 t, t; mov.b32 %0, t;} //")
F32_OP(tanh_approx_f32, "{.reg .f32 t; mov.b32 t, %1; tanh.approx.f32 t, t; mov.b32 %0, t;} //")
F64_OP(rcp_approx_ftz_f64, "{.reg .f64 t; mov.b64 t, %1; rcp.approx.ftz.f64 t, t; mov.b64 %0, t;} //")
F64_OP(rsqrt_approx_f64, "{.reg .f64 t; mov.b64 t, %1; rsqrt.approx.f64 t, t; mov.b64 %0, t;} //")
F64_OP(rsqrt_approx_ftz_f64, "{.reg .f64 t; mov.b64 t, %1; rsqrt.approx.ftz.f64 t, t; mov.b64 %0, t;} //")
F16_OP(ex2_approx_f16, "{.reg .f16 t; mov.b16 t, %1; ex2.approx.f16 t, t; mov.b16 %0, t;} //")
F16X2_OP(ex2_approx_f16x2, "{.reg .f16x2 t; mov.b32 t, %1; ex2.approx.f16x2 t, t; mov.b32 %0, t;} //")
F16_OP(ex2_approx_ftz_bf16, "{.reg .b16 t; mov.b16 t, %1; ex2.approx.ftz.bf16 t, t; mov.b16 %0, t;} //")
F16X2_OP(ex2_approx_ftz_bf16x2, "{.reg .b32 t; mov.b32 t, %1; ex2.approx.ftz.bf16x2 t, t; mov.b32 %0, t;} //")
F16_OP(tanh_approx_f16, "{.reg .f16 t; mov.b16 t, %1; tanh.approx.f16 t, t; mov.b16 %0, t;} //")
F16X2_OP(tanh_approx_f16x2, "{.reg .f16x2 t; mov.b32 t, %1; tanh.approx.f16x2 t, t; mov.b32 %0, t;} //")
F16_OP(tanh_approx_bf16, "{.reg .b16 t; mov.b16 t, %1; tanh.approx.bf16 t, t; mov.b16 %0, t;} //")
F16X2_OP(tanh_approx_bf16x2, "{.reg .b32 t; mov.b32 t, %1; tanh.approx.bf16x2 t, t; mov.b32 %0, t;} //")
DIV_OP(div_approx_f32, "{.reg .f32 a, b; mov.b32 a, %1; mov.b32 b, %2; div.approx.f32 a, a, b; mov.b32 %0, a;} //")
DIV_OP(div_approx_ftz_f32, "{.reg .f32 a, b; mov.b32 a, %1; mov.b32 b, %2; div.approx.ftz.f32 a, a, b; mov.b32 %0, a;} //")
DIV_OP(div_full_f32, "{.reg .f32 a, b; mov.b32 a, %1; mov.b32 b, %2; div.full.f32 a, a, b; mov.b32 %0, a;} //")
DIV_OP(div_full_ftz_f32, "{.reg .f32 a, b; mov.b32 a, %1; mov.b32 b, %2; div.full.ftz.f32 a, a, b; mov.b32 %0, a;} //")

enum Kind { kF32, kF64, kF16, kDiv };
struct Op {
  const char* name;
  Kind kind;
  const void* kernel;
};
#define E(N, K) {#N, K, reinterpret_cast<const void*>(&k_##N)}
static const Op kOps[] = {
    E(rcp_approx_f32, kF32),        E(rcp_approx_ftz_f32, kF32),   E(sqrt_approx_f32, kF32),
    E(sqrt_approx_ftz_f32, kF32),   E(rsqrt_approx_f32, kF32),     E(rsqrt_approx_ftz_f32, kF32),
    E(ex2_approx_f32, kF32),        E(ex2_approx_ftz_f32, kF32),   E(lg2_approx_f32, kF32),
    E(lg2_approx_ftz_f32, kF32),    E(sin_approx_f32, kF32),       E(sin_approx_ftz_f32, kF32),
    E(cos_approx_f32, kF32),        E(cos_approx_ftz_f32, kF32),   E(tanh_approx_f32, kF32),
    E(rcp_approx_ftz_f64, kF64),    E(rsqrt_approx_f64, kF64),     E(rsqrt_approx_ftz_f64, kF64),
    E(ex2_approx_f16, kF16),        E(ex2_approx_f16x2, kF16),     E(ex2_approx_ftz_bf16, kF16),
    E(ex2_approx_ftz_bf16x2, kF16), E(tanh_approx_f16, kF16),      E(tanh_approx_f16x2, kF16),
    E(tanh_approx_bf16, kF16),      E(tanh_approx_bf16x2, kF16),   E(div_approx_f32, kDiv),
    E(div_approx_ftz_f32, kDiv),    E(div_full_f32, kDiv),         E(div_full_ftz_f32, kDiv),
};


/// The operation named NAME, or null.
inline const Op* find_op(const char* name) {
  for (const Op& o : kOps)
    if (std::strcmp(o.name, name) == 0)
      return &o;
  return nullptr;
}

/// Bytes per result of OP.
inline size_t result_width(const Op& op) { return op.kind == kF64 ? 8 : op.kind == kF16 ? 2 : 4; }

/// Evaluates OP on the n inputs lo, lo+stride, ... (LOW: the f64 low word or the dividend) into
/// device memory d_out, synchronously.
inline void evaluate(const Op& op, uint32_t lo, uint32_t stride, uint64_t n, uint32_t low,
                     void* d_out) {
  void* args_f[] = {&lo, &stride, &n, &d_out};
  void* args_l[] = {&lo, &stride, &n, &low, &d_out};
  const bool with_low = op.kind == kF64 || op.kind == kDiv;
  CHECK(cudaLaunchKernel(op.kernel, dim3(132 * 16), dim3(256), with_low ? args_l : args_f, 0, 0));
  CHECK(cudaDeviceSynchronize());
}
