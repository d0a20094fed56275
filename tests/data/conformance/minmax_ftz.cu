// min/max .xorsign.abs (f32, f16, f16x2, bf16, bf16x2) and .ftz on f16/f16x2 arithmetic over every
// pair of edge values (zeros, subnormals, the largest finite, infinities, NaNs with payloads),
// given as bit patterns. Thread t takes the pair (t / n, t % n) of each list; the expected
// values are computed independently in tests/e2e/conformance_reference_test.cpp.
#include <cstdint>

#define OP_F32(INSTR, A, B)                                                                        \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm(INSTR ".f32 %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B));                                      \
    return r;                                                                                      \
  }()
#define OP_H(INSTR, A, B)                                                                          \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm(INSTR " %0, %1, %2;" : "=h"(r) : "h"(A), "h"(B));                                          \
    return r;                                                                                      \
  }()
#define OP_H3(INSTR, A, B, C)                                                                      \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm(INSTR " %0, %1, %2, %3;" : "=h"(r) : "h"(A), "h"(B), "h"(C));                              \
    return r;                                                                                      \
  }()
#define OP_H1(INSTR, A)                                                                            \
  [&] {                                                                                            \
    unsigned short r;                                                                              \
    asm(INSTR " %0, %1;" : "=h"(r) : "h"(A));                                                      \
    return r;                                                                                      \
  }()
#define OP_X2(INSTR, A, B)                                                                         \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm(INSTR " %0, %1, %2;" : "=r"(r) : "r"(A), "r"(B));                                          \
    return r;                                                                                      \
  }()
#define OP_X3(INSTR, A, B, C)                                                                      \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm(INSTR " %0, %1, %2, %3;" : "=r"(r) : "r"(A), "r"(B), "r"(C));                              \
    return r;                                                                                      \
  }()
#define OP_X1(INSTR, A)                                                                            \
  [&] {                                                                                            \
    unsigned r;                                                                                    \
    asm(INSTR " %0, %1;" : "=r"(r) : "r"(A));                                                      \
    return r;                                                                                      \
  }()

extern "C" __global__ void minmax_ftz(const unsigned* f, unsigned nf, const std::uint16_t* h,
                                      unsigned nh, unsigned* out32, std::uint16_t* out16) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nf * nf) {
    const unsigned p = f[t / nf], q = f[t % nf];
    unsigned* o = out32 + 4 * t;
    o[0] = OP_F32("max.xorsign.abs", p, q);
    o[1] = OP_F32("min.xorsign.abs", p, q);
    o[2] = OP_F32("max.ftz.xorsign.abs", p, q);
    o[3] = OP_F32("min.NaN.xorsign.abs", p, q);
  }
  if (t >= nh * nh)
    return;
  const std::uint16_t a = h[t / nh], b = h[t % nh];
  std::uint16_t* o = out16 + 16 * t;
  o[0] = OP_H("max.xorsign.abs.f16", a, b);
  o[1] = OP_H("min.xorsign.abs.f16", a, b);
  o[2] = OP_H("max.ftz.NaN.xorsign.abs.f16", a, b);
  o[3] = OP_H("min.ftz.f16", a, b);
  o[4] = OP_H("max.ftz.f16", a, b);
  o[5] = OP_H("add.ftz.f16", a, b);
  o[6] = OP_H("sub.ftz.f16", a, b);
  o[7] = OP_H("mul.ftz.f16", a, b);
  o[8] = OP_H3("fma.rn.ftz.f16", a, b, a);
  o[9] = OP_H("add.ftz.sat.f16", a, b);
  o[10] = OP_H3("fma.rn.ftz.sat.f16", a, b, b);
  o[11] = OP_H("max.xorsign.abs.bf16", a, b);
  o[12] = OP_H("min.NaN.xorsign.abs.bf16", a, b);
  o[13] = OP_H1("abs.ftz.f16", a);
  o[14] = OP_H1("neg.ftz.f16", a);
  o[15] = OP_H("mul.f16", a, b); // without .ftz: subnormals kept
  const unsigned x = a | static_cast<unsigned>(b) << 16, y = b | static_cast<unsigned>(a) << 16;
  unsigned* w = out32 + 4 * nf * nf + 8 * t;
  w[0] = OP_X2("max.xorsign.abs.f16x2", x, y);
  w[1] = OP_X2("min.ftz.f16x2", x, y);
  w[2] = OP_X2("add.ftz.f16x2", x, y);
  w[3] = OP_X2("mul.ftz.f16x2", x, y);
  w[4] = OP_X3("fma.rn.ftz.f16x2", x, y, x);
  w[5] = OP_X2("max.ftz.NaN.xorsign.abs.f16x2", x, y);
  w[6] = OP_X2("min.xorsign.abs.bf16x2", x, y);
  w[7] = OP_X1("neg.ftz.f16x2", x);
}
