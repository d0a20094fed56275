// Tensor-core instructions in every form the CPU backend implements, one warp per form. Each
// lane fills its fragment registers straight from the input buffers (lane l, register j takes
// word l·16 + j of its operand's slice), so the outputs — every lane's D registers as raw words —
// depend on the GPU's fragment layouts and its arithmetic alike. Inline PTX, so NVRTC and clang
// build the same instructions.
#include <cstdint>

using u32 = unsigned;
using u64 = unsigned long long;

struct In {
  const u32* h;  // f16 pairs, moderate range
  const u32* bf; // bf16 pairs
  const u32* f;  // f32 (tf32 operands: their low 13 bits are not rounded off)
  const u32* i8; // bytes
  const u64* d;  // f64
  const u32* hs; // f16 pairs with zeros, infinities and NaNs among them
};

template <int N> __device__ void load(const u32* src, int lane, int slice, u32 (&r)[N]) {
  for (int j = 0; j < N; ++j)
    r[j] = src[slice * 512 + lane * 16 + j];
}
template <int N> __device__ void store(u32* out, int form, int lane, const u32 (&r)[N]) {
  for (int j = 0; j < N; ++j)
    out[(form * 32 + lane) * 8 + j] = r[j];
}

#define MMA_4_4_2_4(SHAPE_TYPES, A, B, C, D)                                                      \
  asm volatile("mma.sync.aligned." SHAPE_TYPES " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "        \
               "{%10,%11,%12,%13};"                                                              \
               : "=r"(D[0]), "=r"(D[1]), "=r"(D[2]), "=r"(D[3])                                  \
               : "r"(A[0]), "r"(A[1]), "r"(A[2]), "r"(A[3]), "r"(B[0]), "r"(B[1]), "r"(C[0]),    \
                 "r"(C[1]), "r"(C[2]), "r"(C[3]))

extern "C" __global__ void mma_forms(const u32* h, const u32* bf, const u32* f, const u32* i8,
                                     const u64* d64, const u32* hs, const u32* cacc, u32* out) {
  const In in{h, bf, f, i8, d64, hs};
  const int form = threadIdx.x / 32, lane = threadIdx.x % 32;
  u32 a4[4], b2[2], c4[4], d4[4] = {}, a2[2], b1[1], c2[2], d2[2] = {};
  load(cacc, lane, form, c4);
  switch (form) {
  case 0: // f16 inputs, f32 accumulator
    load(in.h, lane, 0, a4), load(in.h, lane, 1, b2);
    MMA_4_4_2_4("m16n8k16.row.col.f32.f16.f16.f32", a4, b2, c4, d4);
    break;
  case 1: // bf16
    load(in.bf, lane, 0, a4), load(in.bf, lane, 1, b2);
    MMA_4_4_2_4("m16n8k16.row.col.f32.bf16.bf16.f32", a4, b2, c4, d4);
    break;
  case 2: // tf32 m16n8k8
    load(in.f, lane, 0, a4), load(in.f, lane, 1, b2);
    MMA_4_4_2_4("m16n8k8.row.col.f32.tf32.tf32.f32", a4, b2, c4, d4);
    break;
  case 3: // s8 m16n8k32, wrapping
    load(in.i8, lane, 0, a4), load(in.i8, lane, 1, b2);
    c4[0] = 0x7fffff00u; // sums past the s32 range
    MMA_4_4_2_4("m16n8k32.row.col.s32.s8.s8.s32", a4, b2, c4, d4);
    break;
  case 4: // the same, clamped
    load(in.i8, lane, 0, a4), load(in.i8, lane, 1, b2);
    c4[0] = 0x7fffff00u, c4[1] = 0x80000100u;
    MMA_4_4_2_4("m16n8k32.row.col.satfinite.s32.s8.s8.s32", a4, b2, c4, d4);
    break;
  case 5: // f16 inputs with zeros, infinities and NaNs
    load(in.hs, lane, 0, a4), load(in.hs, lane, 1, b2);
    MMA_4_4_2_4("m16n8k16.row.col.f32.f16.f16.f32", a4, b2, c4, d4);
    break;
  case 6: // f16 accumulator and result
    load(in.h, lane, 2, a4), load(in.h, lane, 3, b2), load(in.h, lane, 4, c2);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, "
                 "{%6,%7}, {%8,%9};"
                 : "=r"(d2[0]), "=r"(d2[1])
                 : "r"(a4[0]), "r"(a4[1]), "r"(a4[2]), "r"(a4[3]), "r"(b2[0]), "r"(b2[1]),
                   "r"(c2[0]), "r"(c2[1]));
    d4[0] = d2[0], d4[1] = d2[1];
    break;
  case 7: // f16 accumulator, m16n8k8
    load(in.h, lane, 5, a2), load(in.h, lane, 6, b1), load(in.h, lane, 4, c2);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, "
                 "{%5,%6};"
                 : "=r"(d2[0]), "=r"(d2[1])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b1[0]), "r"(c2[0]), "r"(c2[1]));
    d4[0] = d2[0], d4[1] = d2[1];
    break;
  case 8: // f16 m16n8k8
    load(in.h, lane, 7, a2), load(in.h, lane, 8, b1);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(d4[0]), "=r"(d4[1]), "=r"(d4[2]), "=r"(d4[3])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b1[0]), "r"(c4[0]), "r"(c4[1]), "r"(c4[2]), "r"(c4[3]));
    break;
  case 9: // bf16 m16n8k8
    load(in.bf, lane, 2, a2), load(in.bf, lane, 3, b1);
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(d4[0]), "=r"(d4[1]), "=r"(d4[2]), "=r"(d4[3])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b1[0]), "r"(c4[0]), "r"(c4[1]), "r"(c4[2]), "r"(c4[3]));
    break;
  case 10: // tf32 m16n8k4
    load(in.f, lane, 2, a2), load(in.f, lane, 3, b1);
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(d4[0]), "=r"(d4[1]), "=r"(d4[2]), "=r"(d4[3])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b1[0]), "r"(c4[0]), "r"(c4[1]), "r"(c4[2]), "r"(c4[3]));
    break;
  case 11: // u8 × s8 m16n8k16
    load(in.i8, lane, 2, a2), load(in.i8, lane, 3, b1);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32 {%0,%1,%2,%3}, {%4,%5}, {%6}, "
                 "{%7,%8,%9,%10};"
                 : "=r"(d4[0]), "=r"(d4[1]), "=r"(d4[2]), "=r"(d4[3])
                 : "r"(a2[0]), "r"(a2[1]), "r"(b1[0]), "r"(c4[0]), "r"(c4[1]), "r"(c4[2]), "r"(c4[3]));
    break;
  case 12: { // s8 m8n8k16
    load(in.i8, lane, 4, b1);
    u32 a1[1];
    load(in.i8, lane, 5, a1);
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=r"(d4[0]), "=r"(d4[1])
                 : "r"(a1[0]), "r"(b1[0]), "r"(c4[0]), "r"(c4[1]));
    break;
  }
  case 13: { // f64 m8n8k4
    const u64* d = in.d + lane * 4;
    double a = __longlong_as_double(d[0]), b = __longlong_as_double(d[1]);
    double c0 = __longlong_as_double(d[2]), c1 = __longlong_as_double(d[3]), r0, r1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                 : "=d"(r0), "=d"(r1)
                 : "d"(a), "d"(b), "d"(c0), "d"(c1));
    const u64 x = __double_as_longlong(r0), y = __double_as_longlong(r1);
    d4[0] = u32(x), d4[1] = u32(x >> 32), d4[2] = u32(y), d4[3] = u32(y >> 32);
    break;
  }
  case 14: { // ldmatrix x4 / x2.trans from shared memory into an f16 mma, then stmatrix back
    // Six 8×8 b16 matrices, row r of matrix m at byte 128m + 16r: four for A, two for B.
    __shared__ __align__(16) unsigned short s[512];
    for (int i = lane; i < 384; i += 32)
      s[i] = static_cast<unsigned short>(in.h[9 * 512 + i / 2] >> (16 * (i & 1)));
    __syncwarp();
    const unsigned row = static_cast<unsigned>(__cvta_generic_to_shared(s)) + 128 * (lane / 8) +
                         16 * (lane % 8);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(a4[0]), "=r"(a4[1]), "=r"(a4[2]), "=r"(a4[3])
                 : "r"(row));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(b2[0]), "=r"(b2[1])
                 : "r"(row + 512));
    MMA_4_4_2_4("m16n8k16.row.col.f32.f16.f16.f32", a4, b2, c4, d4);
    __syncwarp();
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" ::"r"(row),
                 "r"(a4[1]), "r"(a4[2]));
    __syncwarp();
    d4[0] ^= static_cast<u32>(s[lane * 3]) | static_cast<u32>(s[lane * 4 + 1]) << 16;
    d4[1] ^= static_cast<u32>(s[lane * 2 + 64]) | static_cast<u32>(s[lane + 200]) << 16;
    break;
  }
  default:
    return;
  }
  store(out, form, lane, d4);
}
